"""Alder Bay: a second generated town, for twelve residents in four family houses, with a
bakery, a bookshop, a harbour office, a library, a school and the green.

Its residents are described the way the original describes its own (see
``personas_alder``): habits in prose, places named in sentences, few clock times. It checks
that the engine and the scripted town model read any town, not only Willow Creek.
"""

from __future__ import annotations

from reverie.worldgen import town, town_n25
from reverie.worldgen.town import Building

WIDTH = 90
WORLD = "Alder Bay"
MAZE_NAME = "alder_bay"

BAKERY, BOOKSHOP, HARBOUR_OFFICE = "Driftwood Bakery", "Tern Street Bookshop", "Alder Bay Harbour Office"
LIBRARY, SCHOOL, GREEN = "Alder Bay Library", "Alder Bay School", "Alder Bay Green"
PUBLIC = (BAKERY, BOOKSHOP, HARBOUR_OFFICE, LIBRARY, SCHOOL, GREEN)


def _renamed(building: Building, sector: str, arenas: dict[str, str], roof: str) -> Building:
    """The same drawing under another name, its arenas renamed (old name -> new)."""
    return Building(
        sector,
        list(building.rows),
        {arenas.get(a, a): r for a, r in building.arenas.items()},
        roof,
        dict(building.names),
    )


HOUSES = (
    town_n25.family_house("Marsh family's house", "Tomas Marsh's room", "orange"),
    town_n25.family_house("Quill family's house", "Nell Quill's room", "purple"),
    town_n25.family_house("Haddon family's house", "Kit Haddon's room", "red"),
    town_n25.family_house("Ferreira family's house", "Luz Ferreira's room", "blue"),
)

BUILDINGS = [
    *[(h, x, 3) for h, x in zip(HOUSES, (3, 16, 32, 45))],
    (
        _renamed(town.TOWN_HALL, HARBOUR_OFFICE, {"office": "harbour office", "meeting room": "chart room"}, "slate"),
        60,
        3,
    ),
    (_renamed(town.CAFE, BAKERY, {"cafe": "bakery", "cafe kitchen": "bakehouse"}, "orange"), 3, 21),
    (_renamed(town.SHOP, BOOKSHOP, {"shop": "bookshop", "storeroom": "back room"}, "green"), 18, 21),
    (_renamed(town_n25.SCHOOL, SCHOOL, {}, "blue"), 60, 21),
    (_renamed(town_n25.LIBRARY, LIBRARY, {}, "green"), 75, 21),
]

# The harbour road is the main street; the green is the park, renamed.
ALDER_BAY = town.widened(
    WIDTH,
    MAZE_NAME,
    BUILDINGS,
    (70, 71, 80, 81),
    world=WORLD,
    park_sector=GREEN,
    park_arenas={"green": town.PARK_ARENAS["park"]},
)
