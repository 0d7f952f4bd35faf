"""The 25 residents of the grown Willow Creek: the three of the small town, unchanged, and
22 neighbors whose households, jobs, friendships and rivalries cross each other's days."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from reverie.worldgen.personas_data import PERSONAS as FIRST_THREE
from reverie.worldgen.personas_data import PUBLIC, PersonaData
from reverie.worldgen.town_n25 import APARTMENTS

SCHOOL, LIBRARY = "Willow Creek School", "Willow Creek Library"
PUBLIC_N25 = PUBLIC + (SCHOOL, LIBRARY)
HALE, OKAFOR, BRENNAN, SATO = (
    "Hale family's house",
    "Okafor family's house",
    "Brennan family's house",
    "Sato family's house",
)

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


def _look(skin: int, hair: int, long_hair: bool, shirt: int, pants: int) -> dict:
    return {
        "skin": SKINS[skin],
        "hair": HAIRS[hair],
        "long_hair": long_hair,
        "shirt": CLOTHES[shirt],
        "pants": PANTS[pants],
    }


# The neighbors' prose is data: one [[resident]] table each in this file.
RESIDENTS_FILE = Path(__file__).with_name("residents_n25.toml")


def _resident(record: dict[str, Any]) -> PersonaData:
    """One neighbor of the data file; one with no ``home`` lives in a flat, in a room of their own."""
    flat = "home" not in record
    return PersonaData(
        name=record["name"],
        age=record["age"],
        innate=record["innate"],
        learned=record["learned"],
        currently=record["currently"],
        lifestyle=record["lifestyle"],
        daily_plan_req=record["plan"],
        home=APARTMENTS if flat else record["home"],
        living_arena=f"{record['name']}'s room" if flat else record["arena"],
        knows=PUBLIC_N25 + tuple(record["knows"]),
        spawn="sp-A" if flat else record["spawn"],
        whispers=tuple(record["whispers"]),
        look=_look(**record["look"]),
    )


with open(RESIDENTS_FILE, "rb") as fh:
    NEIGHBORS = tuple(_resident(record) for record in tomllib.load(fh)["resident"])

PERSONAS_N25 = FIRST_THREE + NEIGHBORS
assert len(PERSONAS_N25) == 25

# Seeds, the original's way: a fact in one persona's `currently` (its identity, in every prompt
# of that persona), and what evaluation asks about it: the paper's questions, the candidacy
# asked openly (known when the answer names Marcus, the only one). The run starts on
# February 13, so the party is on the second day; the event says where and when it is (the code puts it into
# Nora's plan only with `force_seed_plan`).
SEEDS = (
    {
        "persona": "Marcus Reed",
        "currently": (
            "Marcus Reed is running for the Willow Creek town council in next month's election, "
            "and he tells his neighbors about his candidacy whenever he talks with them."
        ),
        "question": "Do you know who is running for the town council?",
        "answer": ["Marcus Reed", "Marcus"],
        "fact": "Marcus Reed is running for the town council",
        "keywords": ["run", "council"],
    },
    {
        "persona": "Nora Bennett",
        "currently": (
            "Nora Bennett is throwing a Valentine's Day party at Willow Bean Cafe on February 14, 2023, "
            "from 5 pm to 7 pm. Nora is getting the cafe ready for it and asks everyone she meets to come "
            "to the party at Willow Bean Cafe on February 14, 2023, from 5 pm to 7 pm."
        ),
        "question": "Did you know there is a Valentine's Day party?",
        "fact": "there is a Valentine's Day party at Willow Bean Cafe",
        "keywords": ["party"],
        "event": {
            "sector": "Willow Bean Cafe",
            "arena": "cafe",
            "day": "February 14, 2023",
            "start": "17:00",
            "end": "19:00",
            "description": "hosting the Valentine's Day party at the cafe",
        },
    },
)
