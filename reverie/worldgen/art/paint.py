"""Small drawing helpers shared by the art modules."""

from __future__ import annotations

import random
import zlib

from PIL import Image, ImageDraw

T = 32  # tile size in pixels
Color = tuple[int, int, int] | tuple[int, int, int, int]


def canvas(w: int = T, h: int = T, fill: Color = (0, 0, 0, 0)) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGBA", (w, h), fill)
    return img, ImageDraw.Draw(img)


def shade(color: Color, f: float) -> tuple[int, int, int]:
    """Lighten (f > 1) or darken (f < 1) a colour."""
    r, g, b = color[:3]
    if f >= 1:
        k = f - 1
        return (int(r + (255 - r) * k), int(g + (255 - g) * k), int(b + (255 - b) * k))
    return (int(r * f), int(g * f), int(b * f))


def rng(*key: object) -> random.Random:
    """A random source fixed by its key, so drawings are the same on every run."""
    return random.Random(zlib.crc32(repr(key).encode()))


def box(
    d: ImageDraw.ImageDraw,
    x0: int,
    y0: int,
    x1: int,
    y1: int,
    fill: Color,
    outline: Color | None = None,
    light: bool = False,
) -> None:
    """A filled rectangle (inclusive corners) with a darker outline and an optional top highlight."""
    d.rectangle((x0, y0, x1, y1), fill=fill, outline=outline or shade(fill, 0.6))
    if light and x1 - x0 > 2:
        d.line((x0 + 1, y0 + 1, x1 - 1, y0 + 1), fill=shade(fill, 1.25))


def speckle(
    d: ImageDraw.ImageDraw,
    r: random.Random,
    colors: list[Color],
    n: int,
    area: tuple[int, int, int, int] = (0, 0, T - 1, T - 1),
) -> None:
    x0, y0, x1, y1 = area
    for _ in range(n):
        d.point((r.randint(x0, x1), r.randint(y0, y1)), fill=r.choice(colors))


def slices(img: Image.Image) -> dict[tuple[int, int], Image.Image]:
    """Cut an image into 32 px tiles keyed by (column, row)."""
    return {
        (cx, cy): img.crop((cx * T, cy * T, cx * T + T, cy * T + T))
        for cy in range(img.height // T)
        for cx in range(img.width // T)
    }
