"""Walking sprite sheets (96 x 128: 3 frames x 4 directions of 32 px), the shared atlas,
32 x 32 portraits and the speech bubble."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PIL import Image

from reverie.worldgen.art.paint import T, canvas, shade
from reverie.worldgen.files_out import Out
from reverie.worldgen.personas_data import PersonaData

DIRECTIONS = ("down", "left", "right", "up")  # rows of the sheet, top to bottom
OUTLINE = (48, 36, 36)
SHOES = (70, 50, 40)


def _frame(look: dict, direction: str, step: int) -> Image.Image:
    """One 32 x 32 frame; ``step`` is -1, 0 or 1 (left foot, standing, right foot)."""
    img, d = canvas()
    skin, hair, shirt, pants = look["skin"], look["hair"], look["shirt"], look["pants"]
    bob = 0 if step == 0 else 1
    d.ellipse((9, 27, 23, 31), fill=(0, 0, 0, 60))  # shadow
    # legs
    if direction in ("down", "up"):
        for i, x in enumerate((12, 17)):
            lift = (step == -1 and i == 0) or (step == 1 and i == 1)
            y1 = 28 - (2 if lift else 0)
            d.rectangle((x, 22, x + 3, y1), fill=pants, outline=shade(pants, 0.6))
            d.rectangle((x, y1 - 1, x + 3, y1), fill=SHOES)
    else:
        swing = 2 * step
        for dx in (-swing, swing):
            d.rectangle((14 + dx, 22, 17 + dx, 28), fill=pants, outline=shade(pants, 0.6))
            d.rectangle((14 + dx, 27, 17 + dx, 28), fill=SHOES)
    # body and arms
    top = 15 + bob
    d.rounded_rectangle((10, top, 21, 24), radius=3, fill=shirt, outline=shade(shirt, 0.6))
    if direction in ("down", "up"):
        for x, s in ((8, step), (22, -step)):
            d.rectangle((x, top + 1 + s, x + 1, top + 7 + s), fill=skin, outline=shade(skin, 0.7))
    else:
        x = 15 + 2 * step * (1 if direction == "right" else -1)
        d.rectangle((x, top + 2, x + 2, top + 8), fill=shade(shirt, 0.85), outline=shade(shirt, 0.6))
    # head
    hy = 3 + bob
    d.ellipse((8, hy, 23, hy + 14), fill=skin, outline=OUTLINE)
    long_hair = look.get("long_hair")
    if direction == "up":
        d.ellipse((8, hy, 23, hy + 14), fill=hair, outline=OUTLINE)
        if long_hair:
            d.rectangle((9, hy + 8, 22, hy + 16), fill=hair)
    elif direction == "down":
        d.chord((8, hy - 1, 23, hy + 12), 180, 360, fill=hair, outline=OUTLINE)
        if long_hair:
            d.rectangle((8, hy + 5, 10, hy + 15), fill=hair)
            d.rectangle((21, hy + 5, 23, hy + 15), fill=hair)
        d.rectangle((12, hy + 8, 13, hy + 9), fill=OUTLINE)
        d.rectangle((18, hy + 8, 19, hy + 9), fill=OUTLINE)
        d.point((15, hy + 12), fill=shade(skin, 0.7))
        d.point((16, hy + 12), fill=shade(skin, 0.7))
    else:
        back = 16 if direction == "left" else 8
        d.chord((8, hy - 1, 23, hy + 12), 180, 360, fill=hair, outline=OUTLINE)
        d.rectangle((back, hy + 3, back + 7, hy + (15 if long_hair else 9)), fill=hair)
        eye = 11 if direction == "left" else 19
        d.rectangle((eye, hy + 8, eye + 1, hy + 9), fill=OUTLINE)
    return img


def sprite_sheet(look: dict) -> Image.Image:
    sheet = Image.new("RGBA", (3 * T, 4 * T), (0, 0, 0, 0))
    for row, direction in enumerate(DIRECTIONS):
        for col, step in enumerate((-1, 0, 1)):
            sheet.alpha_composite(_frame(look, direction, step), (col * T, row * T))
    return sheet


def portrait(look: dict) -> Image.Image:
    img, d = canvas()
    skin, hair, shirt = look["skin"], look["hair"], look["shirt"]
    d.ellipse((0, 0, 31, 31), fill=shade(shirt, 1.6))
    d.pieslice((3, 22, 28, 44), 180, 360, fill=shirt, outline=shade(shirt, 0.6))
    if look.get("long_hair"):
        d.rectangle((6, 10, 25, 26), fill=hair)
    d.ellipse((7, 4, 24, 24), fill=skin, outline=OUTLINE)
    d.chord((6, 2, 25, 19), 180, 360, fill=hair, outline=OUTLINE)
    d.rectangle((11, 14, 12, 15), fill=OUTLINE)
    d.rectangle((19, 14, 20, 15), fill=OUTLINE)
    d.line((14, 19, 17, 19), fill=(170, 80, 80))
    return img


def speech_bubble() -> Image.Image:
    img, d = canvas(90, 54)
    d.rounded_rectangle((1, 1, 88, 42), radius=12, fill=(255, 255, 255), outline=(60, 60, 70), width=2)
    d.polygon([(16, 41), (30, 41), (14, 52)], fill=(255, 255, 255))
    d.line((16, 42, 14, 52), fill=(60, 60, 70), width=2)
    d.line((14, 52, 30, 42), fill=(60, 60, 70), width=2)
    return img


def atlas() -> dict:
    """Frame names of the shared atlas: ``<dir>-walk.000``-``.003`` and ``<dir>`` per row."""
    frames = []
    for row, direction in enumerate(DIRECTIONS):
        cols = [0, 1, 2, 1]
        names = [f"{direction}-walk.{i:03d}" for i in range(4)] + [direction]
        for name, col in zip(names, cols + [1]):
            frames.append(
                {
                    "filename": name,
                    "frame": {"w": T, "h": T, "x": col * T, "y": row * T},
                    "anchor": {"x": 0.5, "y": 0.5},
                }
            )
    return {"frames": frames, "meta": {"description": "Willow Creek character frames (3 x 4 of 32 px)"}}


def write_all(out: Out, assets: Path, personas: Iterable[PersonaData]) -> None:
    chars = assets / "characters"
    out.json(chars / "atlas.json", atlas())
    for p in personas:
        file = p.name.replace(" ", "_") + ".png"
        out.png(chars / file, sprite_sheet(p.look))
        out.png(chars / "profile" / file, portrait(p.look))
    out.png(assets / "speech_bubble" / "v3.png", speech_bubble())
