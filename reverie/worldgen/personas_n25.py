"""The 25 residents of the grown Willow Creek: the three of the small town, unchanged, and
22 neighbors whose households, jobs, friendships and rivalries cross each other's days."""

from __future__ import annotations

from pathlib import Path

from reverie.worldgen.personas_data import PERSONAS as FIRST_THREE
from reverie.worldgen.personas_data import PUBLIC, read_residents
from reverie.worldgen.town_n25 import APARTMENTS

SCHOOL, LIBRARY = "Willow Creek School", "Willow Creek Library"
PUBLIC_N25 = PUBLIC + (SCHOOL, LIBRARY)
# The neighbors' prose is data: one [[resident]] table each (``personas_data.read_residents``).
NEIGHBORS = read_residents(Path(__file__).with_name("residents_n25.toml"), public=PUBLIC_N25, flats=APARTMENTS)

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
