"""The residents of the generated towns: what a resident is (:class:`PersonaData`), how one is
read from a town's data file, and the three residents of Willow Creek.

A town's residents are data: one ``[[resident]]`` table each in a TOML file beside this module,
with who they are, where they live, the places they know besides the public ones, the memories
whispered to them at the start of a run and their look (indices into the colours below)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class PersonaData:
    name: str
    age: int
    innate: str
    learned: str
    currently: str
    lifestyle: str
    daily_plan_req: str
    home: str  # sector of the home
    living_arena: str  # arena of the home where the persona sleeps
    knows: tuple[str, ...]  # sectors the persona knows besides the home
    spawn: str  # spawn label in the living arena
    whispers: tuple[str, ...]
    look: dict = field(default_factory=dict)

    @property
    def first_name(self) -> str:
        return self.name.split(" ")[0]

    @property
    def last_name(self) -> str:
        return self.name.split(" ")[-1]


# The colours a resident's look is drawn from (``look`` in a data file: an index into each).
SKINS = ((246, 214, 186), (236, 196, 160), (200, 150, 110), (160, 110, 80), (110, 72, 50), (226, 184, 140))
HAIRS = ((40, 32, 30), (150, 70, 40), (232, 196, 96), (90, 60, 40), (200, 200, 200), (20, 20, 24), (170, 40, 40))
CLOTHES = (
    (196, 84, 80),
    (70, 120, 170),
    (110, 170, 110),
    (220, 180, 80),
    (140, 90, 160),
    (60, 150, 150),
    (230, 140, 60),
    (90, 90, 100),
    (200, 120, 150),
    (120, 80, 60),
)
PANTS = ((70, 70, 90), (110, 90, 70), (60, 80, 130), (50, 50, 55), (130, 120, 100))


def look(skin: int, hair: int, long_hair: bool, shirt: int, pants: int) -> dict:
    return {
        "skin": SKINS[skin],
        "hair": HAIRS[hair],
        "long_hair": long_hair,
        "shirt": CLOTHES[shirt],
        "pants": PANTS[pants],
    }


def read_residents(path: Path, *, public: tuple[str, ...], flats: str | None = None) -> tuple[PersonaData, ...]:
    """The residents of a data file. Each knows the ``public`` places and those it names; one
    with no ``home`` lives in a flat of ``flats``, in a room of their own."""
    with open(path, "rb") as fh:
        return tuple(_resident(record, public, flats) for record in tomllib.load(fh)["resident"])


def _resident(record: dict[str, Any], public: tuple[str, ...], flats: str | None) -> PersonaData:
    flat = "home" not in record
    home = flats if flat else record["home"]
    if home is None:
        raise ValueError(f"resident {record['name']}: no home, and the town has no flats")
    return PersonaData(
        name=record["name"],
        age=record["age"],
        innate=record["innate"],
        learned=record["learned"],
        currently=record["currently"],
        lifestyle=record["lifestyle"],
        daily_plan_req=record["plan"],
        home=home,
        living_arena=f"{record['name']}'s room" if flat else record["arena"],
        knows=public + tuple(record["knows"]),
        spawn="sp-A" if flat else record["spawn"],
        whispers=tuple(record["whispers"]),
        look=look(**record["look"]),
    )


PUBLIC = ("Willow Bean Cafe", "Creek Corner Shop", "Willow Creek Park", "Willow Creek Town Hall")
PERSONAS = read_residents(Path(__file__).with_name("residents_willow_creek.toml"), public=PUBLIC)
