"""Outdoor art: grass, paths, water, trees, bushes, flower beds, benches, the fountain."""

from __future__ import annotations

from PIL import Image

from reverie.worldgen.art.paint import T, box, canvas, rng, shade, speckle

GRASS = (112, 180, 84)
PATH = (218, 196, 150)
WATER = (72, 142, 206)
SHORE = (196, 178, 132)
LEAF = (62, 128, 64)
TRUNK = (122, 84, 52)
WOOD = (168, 118, 70)
STONE = (170, 170, 176)
FLOWERS = [(236, 92, 102), (248, 214, 82), (240, 240, 250), (186, 120, 226), (250, 160, 70)]

N, E, S, W = 1, 2, 4, 8  # neighbour bits: set when the neighbour is of the same kind


def grass(variant: int) -> Image.Image:
    img, d = canvas(fill=GRASS)
    r = rng("grass", variant)
    speckle(d, r, [shade(GRASS, 0.85), shade(GRASS, 1.15)], 40)
    for _ in range(4 + variant):
        x, y = r.randint(2, 29), r.randint(3, 29)
        d.line((x, y, x, y - 2), fill=shade(GRASS, 0.75))
        d.point((x + 1, y - 1), fill=shade(GRASS, 0.75))
    return img


def _flower(d, x, y, color):
    d.rectangle((x - 1, y - 2, x, y + 1), fill=color)
    d.rectangle((x - 2, y - 1, x + 1, y), fill=color)
    d.point((x, y - 1), fill=(250, 220, 90) if color != (248, 214, 82) else (230, 120, 40))


def flower_bed(mask: int, variant: int = 0) -> Image.Image:
    """Soil with flowers; a wooden edge on the sides that do not join another bed."""
    img, d = canvas(fill=(120, 88, 60))
    r = rng("flowers", mask, variant)
    speckle(d, r, [(100, 72, 48), (138, 104, 72)], 60)
    for _ in range(6):
        x, y = r.randint(3, 26), r.randint(4, 26)
        d.ellipse((x, y, x + 6, y + 4), fill=(74, 140, 64))
    for _ in range(9):
        x, y = r.randint(4, 27), r.randint(4, 26)
        d.line((x, y + 1, x, y + 4), fill=(60, 120, 52))
        _flower(d, x, y, r.choice(FLOWERS))
    edge = (150, 110, 70)
    for bit, rect in (
        (N, (0, 0, T - 1, 1)),
        (S, (0, T - 2, T - 1, T - 1)),
        (W, (0, 0, 1, T - 1)),
        (E, (T - 2, 0, T - 1, T - 1)),
    ):
        if not mask & bit:
            d.rectangle(rect, fill=edge)
    return img


def path(mask: int) -> Image.Image:
    img, d = canvas(fill=PATH)
    r = rng("path", mask)
    speckle(d, r, [shade(PATH, 0.88), shade(PATH, 1.08)], 60)
    for _ in range(5):
        x, y = r.randint(3, 27), r.randint(3, 27)
        d.ellipse((x, y, x + 3, y + 2), fill=shade(PATH, 0.8))
    edge = shade(PATH, 0.72)
    if not mask & N:
        d.rectangle((0, 0, T - 1, 1), fill=edge)
    if not mask & S:
        d.rectangle((0, T - 2, T - 1, T - 1), fill=edge)
    if not mask & W:
        d.rectangle((0, 0, 1, T - 1), fill=edge)
    if not mask & E:
        d.rectangle((T - 2, 0, T - 1, T - 1), fill=edge)
    return img


def plaza(variant: int) -> Image.Image:
    """Stone pavers around the fountain."""
    img, d = canvas(fill=shade(STONE, 1.1))
    r = rng("plaza", variant)
    for y0, off in ((0, 0), (16, 8)):
        d.line((0, y0, T - 1, y0), fill=shade(STONE, 0.8))
        for x in range(off, T, 16):
            d.line((x, y0, x, y0 + 15), fill=shade(STONE, 0.8))
    speckle(d, r, [shade(STONE, 0.95), shade(STONE, 1.2)], 30)
    return img


def water(mask: int) -> Image.Image:
    img, d = canvas(fill=WATER)
    r = rng("water", mask)
    for _ in range(4):
        x, y = r.randint(3, 22), r.randint(5, 27)
        d.line((x, y, x + 5, y), fill=shade(WATER, 1.35))
        d.line((x + 2, y - 1, x + 3, y - 1), fill=shade(WATER, 1.35))
    sides = (
        (N, (0, 0, T - 1, 4), (0, 5, T - 1, 5)),
        (S, (0, T - 5, T - 1, T - 1), (0, T - 6, T - 1, T - 6)),
        (W, (0, 0, 4, T - 1), (5, 0, 5, T - 1)),
        (E, (T - 5, 0, T - 1, T - 1), (T - 6, 0, T - 6, T - 1)),
    )
    for bit, _, inner in sides:  # a darker rim first, then the shore over the corners
        if not mask & bit:
            d.rectangle(inner, fill=shade(WATER, 0.8))
    for bit, shore, _ in sides:
        if not mask & bit:
            d.rectangle(shore, fill=SHORE)
            speckle(d, r, [shade(SHORE, 0.85), shade(SHORE, 1.1)], 12, shore)
    return img


def tree(variant: int) -> Image.Image:
    """A tree two tiles tall: the top half goes above the walkers, the bottom blocks."""
    img, d = canvas(T, 2 * T)
    r = rng("tree", variant)
    leaf = shade(LEAF, 0.9 + 0.08 * variant)
    d.ellipse((4, 52, 28, 62), fill=(40, 90, 40, 110))
    box(d, 13, 40, 18, 58, TRUNK)
    d.line((15, 44, 15, 56), fill=shade(TRUNK, 1.2))
    d.ellipse((0, 2, 31, 47), fill=shade(leaf, 0.6))
    d.ellipse((1, 3, 30, 45), fill=leaf)
    for _ in range(9):
        x, y = r.randint(3, 21), r.randint(6, 32)
        d.ellipse((x, y, x + 8, y + 7), fill=shade(leaf, 1.2))
    for _ in range(6):
        x, y = r.randint(6, 22), r.randint(6, 24)
        d.ellipse((x, y, x + 3, y + 3), fill=shade(leaf, 1.45))
    return img


def lamp(variant: int = 0) -> Image.Image:
    """A street lamp two tiles tall (the lamp head goes above the walkers)."""
    img, d = canvas(T, 2 * T)
    d.ellipse((9, 56, 23, 62), fill=(40, 90, 40, 110))
    box(d, 12, 54, 19, 59, (60, 62, 70))
    d.rectangle((15, 20, 16, 55), fill=(60, 62, 70))
    box(d, 9, 8, 22, 20, (60, 62, 70))
    d.rectangle((11, 10, 20, 18), fill=(252, 232, 150))
    d.line((8, 7, 23, 7), fill=(40, 42, 48))
    return img


def bush(variant: int) -> Image.Image:
    img, d = canvas()
    r = rng("bush", variant)
    d.ellipse((3, 18, 29, 30), fill=(40, 90, 40, 100))
    d.ellipse((3, 6, 28, 28), fill=shade(LEAF, 0.65))
    d.ellipse((4, 7, 27, 26), fill=shade(LEAF, 1.05))
    for _ in range(5):
        x, y = r.randint(7, 20), r.randint(9, 18)
        d.ellipse((x, y, x + 4, y + 3), fill=shade(LEAF, 1.4))
    if variant % 2:
        for _ in range(3):
            d.point((r.randint(8, 23), r.randint(10, 22)), fill=(236, 92, 102))
    return img


def bench(w: int, h: int) -> Image.Image:
    img, d = canvas(w * T, h * T)
    d.rectangle((4, 26, w * T - 5, 28), fill=(40, 90, 40, 90))
    box(d, 4, 8, w * T - 5, 12, shade(WOOD, 0.85))  # backrest
    for y in (15, 20):
        box(d, 2, y, w * T - 3, y + 3, WOOD, light=True)  # seat slats
    for x in (6, w * T - 9):
        box(d, x, 24, x + 2, 27, (70, 70, 74))
    return img


def picnic_table(w: int, h: int) -> Image.Image:
    img, d = canvas(w * T, h * T)
    d.rectangle((4, 26, w * T - 5, 30), fill=(40, 90, 40, 90))
    box(d, 6, 4, w * T - 7, 7, shade(WOOD, 0.9))
    box(d, 2, 10, w * T - 3, 21, WOOD, light=True)
    for x in range(8, w * T - 8, 8):
        d.line((x, 11, x, 20), fill=shade(WOOD, 0.8))
    box(d, 6, 24, w * T - 7, 27, shade(WOOD, 0.9))
    return img


def fountain(w: int, h: int) -> Image.Image:
    img, d = canvas(w * T, h * T)
    s = w * T
    d.ellipse((2, 6, s - 3, s - 3), fill=shade(STONE, 0.6))
    d.ellipse((3, 5, s - 4, s - 5), fill=STONE)
    d.ellipse((8, 10, s - 9, s - 10), fill=WATER)
    d.ellipse((12, 14, s - 13, s - 14), fill=shade(WATER, 1.2))
    c = s // 2
    box(d, c - 4, c - 10, c + 3, c + 4, shade(STONE, 1.1))
    d.ellipse((c - 7, c - 16, c + 6, c - 8), fill=shade(WATER, 1.5))
    d.line((c - 3, c - 14, c + 2, c - 14), fill=(240, 250, 255))
    return img
