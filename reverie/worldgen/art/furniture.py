"""Furniture, drawn as whole pieces (w x h tiles) on a transparent background."""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image, ImageDraw

from reverie.worldgen.art.paint import Color, T, box, canvas, rng, shade

WOOD = (168, 118, 70)
DARK_WOOD = (118, 80, 52)
WHITE = (238, 240, 242)
METAL = (150, 156, 164)
BOOKS = [(196, 70, 64), (70, 110, 180), (90, 160, 90), (220, 180, 70), (150, 90, 160), (230, 130, 60)]
SHADOW = (0, 0, 0, 60)


def _shadow(d, x0, y0, x1, y1):
    d.rectangle((x0 + 2, y1 - 2, x1 + 1, y1 + 1), fill=SHADOW)


def bed(w, h):
    img, d = canvas(w * T, h * T)
    _shadow(d, 3, 2, w * T - 4, h * T - 3)
    box(d, 3, 1, w * T - 4, h * T - 3, DARK_WOOD)
    box(d, 5, 6, w * T - 6, 15, WHITE, light=True)  # pillow
    box(d, 4, 17, w * T - 5, h * T - 5, (88, 130, 190), light=True)  # blanket
    d.line((5, 20, w * T - 6, 20), fill=(140, 175, 220))
    return img


def nightstand(w, h):
    img, d = canvas()
    _shadow(d, 6, 10, 26, 28)
    box(d, 6, 10, 26, 28, WOOD, light=True)
    d.line((8, 19, 24, 19), fill=shade(WOOD, 0.7))
    d.ellipse((11, 3, 21, 13), fill=(250, 226, 150), outline=(190, 160, 90))
    return img


def bookshelf(w, h):
    img, d = canvas(w * T, h * T)
    r = rng("books", w)
    box(d, 1, 0, w * T - 2, T - 3, DARK_WOOD)
    for y0 in (3, 12, 21):
        d.rectangle((3, y0, w * T - 4, y0 + 7), fill=shade(DARK_WOOD, 0.6))
        x = 4
        while x < w * T - 6:
            bw = r.choice((2, 3, 3, 4))
            d.rectangle((x, y0 + r.randint(0, 2), x + bw - 1, y0 + 7), fill=r.choice(BOOKS))
            x += bw + 1
    return img


def wardrobe(w, h):
    img, d = canvas()
    box(d, 2, 0, 29, 29, WOOD, light=True)
    d.line((15, 2, 15, 27), fill=shade(WOOD, 0.6))
    d.point((13, 15), fill=(240, 210, 120))
    d.point((17, 15), fill=(240, 210, 120))
    d.rectangle((2, 28, 29, 30), fill=shade(WOOD, 0.6))
    return img


def desk(w, h):
    img, d = canvas(w * T, h * T)
    _shadow(d, 2, 6, w * T - 3, 26)
    box(d, 2, 6, w * T - 3, 24, WOOD, light=True)
    d.rectangle((4, 24, 6, 29), fill=shade(WOOD, 0.6))
    d.rectangle((w * T - 7, 24, w * T - 5, 29), fill=shade(WOOD, 0.6))
    box(d, 10, 9, 27, 19, (60, 64, 72))  # laptop
    d.rectangle((12, 11, 25, 17), fill=(120, 180, 220))
    box(d, 36, 10, 47, 20, WHITE)  # papers
    d.line((38, 13, 45, 13), fill=METAL)
    d.line((38, 16, 44, 16), fill=METAL)
    return img


def chair(w, h):
    img, d = canvas()
    _shadow(d, 9, 12, 23, 26)
    box(d, 9, 4, 23, 9, shade(WOOD, 0.85))
    box(d, 8, 11, 24, 24, WOOD, light=True)
    return img


def plant(w, h):
    img, d = canvas()
    _shadow(d, 9, 20, 23, 29)
    box(d, 10, 19, 22, 29, (176, 96, 64))
    for x0, y0 in ((7, 6), (15, 2), (17, 9), (9, 12), (13, 8)):
        d.ellipse((x0, y0, x0 + 9, y0 + 9), fill=(66, 140, 70), outline=(40, 96, 48))
    return img


def refrigerator(w, h):
    img, d = canvas()
    box(d, 4, 0, 27, 29, WHITE, outline=(150, 156, 166))
    d.line((5, 11, 26, 11), fill=(170, 176, 186))
    d.line((22, 4, 22, 8), fill=(120, 126, 136))
    d.line((22, 14, 22, 22), fill=(120, 126, 136))
    return img


def counter(w, h):
    img, d = canvas()
    box(d, 0, 2, 31, 29, (200, 160, 110))
    d.rectangle((0, 2, 31, 9), fill=(226, 222, 210))
    d.line((0, 9, 31, 9), fill=(150, 140, 120))
    d.line((16, 12, 16, 27), fill=(160, 120, 80))
    return img


def stove(w, h):
    img = counter(w, h)
    d = ImageDraw.Draw(img)
    box(d, 3, 2, 28, 27, (70, 72, 78))
    for x, y in ((6, 5), (17, 5), (6, 15), (17, 15)):
        d.ellipse((x, y, x + 8, y + 8), outline=(180, 80, 60), fill=(40, 40, 44))
    return img


def kitchen_sink(w, h):
    img = counter(w, h)
    d = ImageDraw.Draw(img)
    box(d, 6, 6, 25, 20, METAL)
    d.rectangle((8, 8, 23, 18), fill=(120, 160, 190))
    d.line((15, 3, 15, 7), fill=(90, 96, 104))
    return img


def table(w, h, color=WOOD, items=True):
    img, d = canvas(w * T, h * T)
    _shadow(d, 3, 4, w * T - 4, h * T - 5)
    box(d, 3, 4, w * T - 4, h * T - 5, color, light=True)
    if items:
        for i in range(w):
            cx, cy = i * T + 16, (h * T) // 2
            d.ellipse((cx - 6, cy - 6, cx + 5, cy + 5), fill=WHITE, outline=METAL)
            d.ellipse((cx - 2, cy - 2, cx + 1, cy + 1), fill=(200, 120, 70))
    return img


def dining_table(w, h):
    return table(w, h)


def coffee_table(w, h):
    img, d = canvas(w * T, h * T)
    _shadow(d, 6, 8, w * T - 7, 24)
    box(d, 6, 8, w * T - 7, 24, DARK_WOOD, light=True)
    box(d, 14, 12, 24, 18, (220, 200, 120))
    return img


def meeting_table(w, h):
    img = table(w, h, color=(140, 96, 60), items=False)
    d = ImageDraw.Draw(img)
    for x, y in ((12, 12), (40, 14), (14, 40), (38, 42)):
        box(d, x, y, x + 9, y + 11, WHITE)
    return img


def sofa(w, h):
    img, d = canvas(w * T, h * T)
    c = (170, 92, 84)
    _shadow(d, 2, 6, w * T - 3, 28)
    box(d, 2, 4, w * T - 3, 13, shade(c, 0.85))  # back
    box(d, 2, 12, 8, 28, shade(c, 0.8))  # arms
    box(d, w * T - 9, 12, w * T - 3, 28, shade(c, 0.8))
    box(d, 9, 13, w * T // 2 - 1, 27, c, light=True)  # cushions
    box(d, w * T // 2, 13, w * T - 10, 27, c, light=True)
    return img


def toilet(w, h):
    img, d = canvas()
    box(d, 9, 2, 22, 9, WHITE, outline=(160, 170, 180))
    d.ellipse((8, 9, 23, 27), fill=WHITE, outline=(160, 170, 180))
    d.ellipse((11, 12, 20, 23), fill=(200, 220, 235))
    return img


def bathroom_sink(w, h):
    img, d = canvas()
    box(d, 3, 0, 28, 6, (180, 210, 225), outline=(120, 140, 150))  # mirror
    box(d, 3, 9, 28, 28, WHITE, outline=(160, 170, 180))
    d.ellipse((8, 12, 23, 24), fill=(190, 215, 230), outline=(150, 160, 170))
    d.line((15, 9, 15, 12), fill=METAL)
    return img


def shower(w, h):
    img, d = canvas()
    d.rectangle((1, 1, 30, 30), fill=(170, 205, 220), outline=(120, 150, 165))
    for v in range(1, 31, 6):
        d.line((v, 1, v, 30), fill=(150, 190, 205))
    d.ellipse((13, 13, 18, 18), fill=(110, 120, 130))
    d.line((2, 2, 29, 2), fill=(230, 240, 245))
    return img


def rug(w, h):
    img, d = canvas(w * T, h * T)
    c = (160, 82, 92)
    d.rectangle((2, 2, w * T - 3, h * T - 3), fill=c, outline=shade(c, 0.7))
    d.rectangle((6, 6, w * T - 7, h * T - 7), outline=(230, 200, 140))
    d.rectangle((12, 12, w * T - 13, h * T - 13), outline=shade(c, 1.3))
    return img


def easel(w, h):
    img, d = canvas()
    d.line((8, 30, 15, 2), fill=DARK_WOOD, width=2)
    d.line((24, 30, 17, 2), fill=DARK_WOOD, width=2)
    box(d, 5, 4, 26, 20, WHITE, outline=(120, 100, 80))
    d.rectangle((7, 6, 24, 12), fill=(130, 190, 230))
    d.rectangle((7, 13, 24, 18), fill=(110, 180, 90))
    d.ellipse((17, 7, 21, 11), fill=(250, 220, 90))
    return img


def art_shelf(w, h):
    img, d = canvas()
    r = rng("paint", w)
    box(d, 1, 0, 30, 29, WOOD)
    for y0 in (4, 16):
        d.rectangle((3, y0, 28, y0 + 9), fill=shade(WOOD, 0.6))
        for x in range(4, 26, 6):
            c = r.choice(BOOKS)
            box(d, x, y0 + 3, x + 4, y0 + 9, c)
    return img


def filing_cabinet(w, h):
    img, d = canvas()
    box(d, 5, 0, 26, 29, METAL, light=True)
    for y in (8, 17, 26):
        d.line((6, y, 25, y), fill=shade(METAL, 0.7))
        d.line((13, y - 4, 18, y - 4), fill=shade(METAL, 0.5))
    return img


def whiteboard(w, h):
    img, d = canvas(w * T, h * T)
    box(d, 2, 0, w * T - 3, 22, WHITE, outline=(120, 126, 136))
    d.line((8, 6, 26, 6), fill=(60, 100, 200))
    d.line((8, 11, 40, 11), fill=(60, 100, 200))
    d.line((30, 5, 44, 16), fill=(200, 70, 60))
    d.rectangle((6, 23, w * T - 7, 25), fill=(120, 126, 136))
    return img


def coffee_machine(w, h):
    img, d = canvas(w * T, h * T)
    for x in range(0, w * T, T):
        img.alpha_composite(counter(1, 1), (x, 0))
    box(d, 6, 0, 30, 20, (60, 60, 66))
    d.rectangle((10, 4, 26, 9), fill=(120, 130, 140))
    d.ellipse((14, 13, 20, 19), fill=WHITE)
    for x in (38, 46, 54):
        d.ellipse((x, 6, x + 5, 11), fill=WHITE, outline=METAL)
    return img


def _run(
    part: str, top: Color, front: Color, extra: Callable[[ImageDraw.ImageDraw], None] | None = None
) -> Image.Image:
    img, d = canvas()
    x0 = 2 if part in ("left", "single") else 0
    x1 = T - 3 if part in ("right", "single") else T - 1
    d.rectangle((x0, 4, x1, 29), fill=front, outline=shade(front, 0.6))
    d.rectangle((x0, 4, x1, 12), fill=top, outline=shade(top, 0.7))
    d.line((x0, 13, x1, 13), fill=shade(front, 0.6))
    if extra:
        extra(d)
    return img


def cafe_counter(part: str) -> Image.Image:
    def register(d):
        box(d, 9, 1, 22, 10, (70, 72, 80))
        d.rectangle((11, 3, 20, 6), fill=(120, 200, 140))

    def cake(d):
        d.ellipse((9, 3, 22, 11), fill=(240, 200, 210), outline=(190, 120, 130))

    extra = register if part == "left" else cake if part == "right" else None
    return _run(part, (226, 210, 180), (120, 80, 56), extra)


def shop_counter(part: str) -> Image.Image:
    def register(d):
        box(d, 9, 1, 22, 10, (70, 72, 80))
        d.rectangle((11, 3, 20, 6), fill=(240, 200, 90))

    return _run(part, (210, 214, 220), (92, 110, 150), register if part == "left" else None)


def cafe_table(w, h):
    img, d = canvas()
    d.ellipse((5, 8, 27, 28), fill=SHADOW)
    d.ellipse((4, 5, 27, 25), fill=WOOD, outline=shade(WOOD, 0.6))
    d.ellipse((12, 10, 19, 17), fill=WHITE, outline=METAL)
    d.ellipse((14, 12, 17, 15), fill=(120, 70, 40))
    return img


def shop_shelf(w, h):
    img, d = canvas()
    r = rng("goods", w, h)
    box(d, 1, 0, 30, 29, (200, 204, 210))
    for y0 in (3, 12, 21):
        d.rectangle((3, y0, 28, y0 + 7), fill=(150, 156, 166))
        x = 4
        while x < 26:
            bw = r.choice((3, 4, 5))
            c = r.choice(BOOKS + [(240, 240, 230)])
            box(d, x, y0 + r.randint(1, 3), x + bw - 1, y0 + 7, c)
            x += bw + 1
    return img


def storage_boxes(w, h):
    img, d = canvas()
    c = (196, 150, 96)
    box(d, 2, 12, 17, 29, c, light=True)
    box(d, 14, 6, 29, 22, shade(c, 1.1), light=True)
    box(d, 5, 2, 18, 13, shade(c, 0.95), light=True)
    for x0, y0, x1 in ((2, 20, 17), (14, 14, 29), (5, 7, 18)):
        d.line((x0 + 1, y0, x1 - 1, y0), fill=(220, 200, 150))
    return img
