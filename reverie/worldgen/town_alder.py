"""Alder Bay: a second generated town, for twelve residents in four family houses, with a
bakery, a bookshop, a harbour office, a library, a school and the green.

Its residents are described the way the original describes its own (see
``personas_alder``): habits in prose, places named in sentences, few clock times. It checks
that the engine and the scripted town model read any town, not only Willow Creek.
"""

from __future__ import annotations

from reverie.worldgen import town, town_n25
from reverie.worldgen.town import Building, TownPlan

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

STREETS = [
    (2, 17, WIDTH - 3, 18),  # the harbour road, west to east
    *town.STREETS[1:],
    (58, 17, 59, 35),  # east of the green, down to the lane
    (58, 34, WIDTH - 3, 35),  # the east lane
]
TREES = town.TREES + [(x + (y % 3), y) for y in (38, 41) for x in range(62, WIDTH - 6, 4)]
FLOWER_TILES = town.FLOWER_TILES + [(x, 39) for x in (70, 71, 80, 81)]
LAMPS = [(x, y) for x in range(6, WIDTH - 4, 8) for y in (16, 19)]

ALDER_BAY = TownPlan(
    WIDTH,
    town.HEIGHT,
    WORLD,
    MAZE_NAME,
    BUILDINGS,
    STREETS,
    TREES,
    FLOWER_TILES,
    LAMPS,
    GREEN,
    town.PARK,
    {"green": town.PARK_ARENAS["park"]},
    town.PARK_ROWS,
)
