"""Building art: floors, walls seen from above (with their front faces), doors."""

from __future__ import annotations

from PIL import Image, ImageDraw

from reverie.worldgen.art.ground import E, N, S, W
from reverie.worldgen.art.paint import T, box, canvas, rng, shade, speckle

ROOFS = {
    "red": (178, 72, 62),
    "blue": (70, 104, 160),
    "green": (76, 132, 92),
    "slate": (96, 104, 118),
    "orange": (200, 120, 60),
    "purple": (128, 88, 150),
}
WALLPAPER = (236, 222, 196)
SIDING = (222, 206, 178)

FLOORS = {
    "wood": (190, 140, 92),
    "wood light": (214, 176, 126),
    "wood dark": (150, 104, 70),
    "kitchen tile": (232, 228, 214),
    "bath tile": (196, 222, 232),
    "carpet": (138, 148, 176),
    "stone": (196, 192, 184),
}


def floor(kind: str) -> Image.Image:
    base = FLOORS[kind]
    img, d = canvas(fill=base)
    r = rng("floor", kind)
    if kind.startswith("wood"):
        for i, y in enumerate(range(0, T, 8)):
            d.line((0, y, T - 1, y), fill=shade(base, 0.78))
            x = (i * 11) % T
            d.line((x, y, x, y + 7), fill=shade(base, 0.78))
            speckle(d, r, [shade(base, 0.92), shade(base, 1.06)], 10, (0, y + 1, T - 1, y + 7))
    elif kind == "kitchen tile":
        for x in (0, 16):
            for y in (0, 16):
                if (x + y) % 32 == 0:
                    d.rectangle((x, y, x + 15, y + 15), fill=(120, 170, 160))
    elif kind == "bath tile":
        for v in range(0, T, 8):
            d.line((v, 0, v, T - 1), fill=shade(base, 0.85))
            d.line((0, v, T - 1, v), fill=shade(base, 0.85))
    elif kind == "carpet":
        speckle(d, r, [shade(base, 0.9), shade(base, 1.1)], 90)
    else:  # stone flags
        d.line((0, 0, T - 1, 0), fill=shade(base, 0.8))
        d.line((0, 16, T - 1, 16), fill=shade(base, 0.8))
        d.line((0, 0, 0, 15), fill=shade(base, 0.8))
        d.line((16, 16, 16, T - 1), fill=shade(base, 0.8))
        speckle(d, r, [shade(base, 0.92), shade(base, 1.05)], 40)
    return img


def wall(roof: str, mask: int, face: str, window: bool) -> Image.Image:
    """A wall tile. ``mask``: which neighbours are walls; ``face``: "", "in" or "out" when the
    tile below is open, so the wall's front shows (wallpaper inside, siding outside)."""
    top = ROOFS[roof]
    img, d = canvas(fill=top)
    edge = shade(top, 0.55)
    band = 10 if face else T
    d.rectangle((0, 0, T - 1, band - 1), fill=top)
    d.line((0, 2, T - 1, 2), fill=shade(top, 1.2))
    if not mask & N:
        d.rectangle((0, 0, T - 1, 1), fill=edge)
    if not mask & W:
        d.rectangle((0, 0, 1, band - 1), fill=edge)
    if not mask & E:
        d.rectangle((T - 2, 0, T - 1, band - 1), fill=edge)
    if not face:
        if not mask & S:
            d.rectangle((0, T - 2, T - 1, T - 1), fill=edge)
        for y in range(6, T - 2, 6):
            d.line((3, y, T - 4, y), fill=shade(top, 0.88))
        return img
    d.line((0, band - 1, T - 1, band - 1), fill=edge)
    wallc = WALLPAPER if face == "in" else SIDING
    d.rectangle((0, band, T - 1, T - 1), fill=wallc)
    if face == "in":
        for x in range(2, T, 6):
            d.line((x, band, x, T - 5), fill=shade(wallc, 0.93))
    else:
        for y in range(band + 4, T - 3, 5):
            d.line((0, y, T - 1, y), fill=shade(wallc, 0.85))
    d.rectangle((0, T - 4, T - 1, T - 1), fill=shade(wallc, 0.6))
    if not mask & W:
        d.line((0, band, 0, T - 1), fill=shade(wallc, 0.6))
    if not mask & E:
        d.line((T - 1, band, T - 1, T - 1), fill=shade(wallc, 0.6))
    if window:
        box(d, 8, band + 3, 23, T - 8, (150, 200, 230), outline=(110, 84, 60))
        d.line((15, band + 4, 15, T - 9), fill=(110, 84, 60))
        d.line((10, band + 5, 12, band + 5), fill=(230, 245, 255))
    return img


def door(roof: str, inside: str) -> Image.Image:
    """An open front door in a bottom wall: lintel, frame, the floor inside and a mat."""
    img = floor(inside)
    d = ImageDraw.Draw(img)
    top = ROOFS[roof]
    d.rectangle((0, 0, T - 1, 5), fill=top)
    d.rectangle((0, 0, T - 1, 1), fill=shade(top, 0.55))
    box(d, 0, 6, 3, T - 1, (110, 80, 56))
    box(d, T - 4, 6, T - 1, T - 1, (110, 80, 56))
    box(d, 7, T - 9, T - 8, T - 3, (150, 70, 60))
    d.line((9, T - 6, T - 10, T - 6), fill=(190, 110, 90))
    return img
