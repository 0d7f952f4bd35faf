"""The twelve residents of Alder Bay, described the way the original describes its own:
habits in prose, places named in sentences, few clock times ("opens the bakery before
sunrise", "likes to hang out at the bookshop if it's before 6pm"). The two facts of the
paper's experiment are in two residents' `currently`, as in the original's 25-person base."""

from __future__ import annotations

from pathlib import Path

from reverie.worldgen.personas_data import read_residents
from reverie.worldgen.town_alder import BAKERY, PUBLIC

PARTY = (
    "Hattie Quill is planning a Valentine's Day party at Driftwood Bakery on February 14th, 2023, from 5pm to "
    "7pm, and she invites every customer to come."
)
CANDIDACY = "Edwin Marsh is running for mayor of Alder Bay in next month's election."


# The residents' prose is data: one [[resident]] table each (``personas_data.read_residents``).
PERSONAS_ALDER = read_residents(Path(__file__).with_name("residents_alder_bay.toml"), public=PUBLIC)

SEEDS = (
    {
        "persona": "Edwin Marsh",
        "currently": CANDIDACY,
        "question": "Do you know who is running for mayor?",
        "answer": ["Edwin Marsh", "Edwin"],
        "fact": "Edwin Marsh is running for mayor",
        "keywords": ["run", "mayor"],
    },
    {
        "persona": "Hattie Quill",
        "currently": PARTY,
        "question": "Did you know there is a Valentine's Day party?",
        "fact": "there is a Valentine's Day party at Driftwood Bakery",
        "keywords": ["party"],
        "event": {
            "sector": BAKERY,
            "arena": "bakery",
            "day": "February 14, 2023",
            "start": "17:00",
            "end": "19:00",
            "description": "hosting the Valentine's Day party at the bakery",
        },
    },
)
# Each seed's fact stands in its resident's `currently`, as the data file writes it.
assert all(str(seed["currently"]) in p.currently for seed in SEEDS for p in PERSONAS_ALDER if p.name == seed["persona"])
