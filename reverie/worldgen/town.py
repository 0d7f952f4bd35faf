"""The plan of Willow Creek, the default world: a character grid plus named places.

Each building is drawn as text (legend in ``reverie.worldgen.legend``) and stamped onto the
map; sectors and arenas are rectangles. The houses are built here from one template; the
buildings drawn whole are data (``buildings_willow_creek.toml``). Editing either and running
``python -m reverie.worldgen.generate`` rebuilds every world file.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

WIDTH, HEIGHT = 60, 45
WORLD = "Willow Creek"
MAZE_NAME = "willow_creek"

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1 (inclusive)


@dataclass
class Building:
    sector: str
    rows: list[str]
    arenas: dict[str, list[Rect]]
    roof: str = "red"
    # Per-building names for legend objects, e.g. {"T": "office desk"}.
    names: dict[str, str] = field(default_factory=dict)


def read_buildings(path: Path) -> dict[str, Building]:
    """The buildings a TOML file draws whole (its ``[[building]]`` tables), by sector."""
    with path.open("rb") as fh:
        records = tomllib.load(fh)["building"]
    return {
        r["sector"]: Building(
            r["sector"],
            r["plan"].splitlines(),
            {arena: [(x0, y0, x1, y1) for x0, y0, x1, y1 in rects] for arena, rects in r["arenas"].items()},
            r["roof"],
            r.get("names", {}),
        )
        for r in records
    }


def _house(sector: str, room: str, rows_5_to_9: list[str], roof: str, names: dict[str, str] | None = None) -> Building:
    rows = [
        "############",
        "#B.nS#I.A.H#",
        "#B1.u#..u..#",
        "#.RR.#.....#",
        "#.RR.##o####",
        *rows_5_to_9,
        "########D###",
    ]
    arenas = {"bedroom": [(1, 1, 4, 9)], "bathroom": [(6, 1, 10, 3)], room: [(6, 5, 10, 9)]}
    return Building(sector, rows, arenas, roof, names or {})


NORA_HOUSE = _house(
    "Nora Bennett's house",
    "kitchen",
    [
        "#TT..#F.COK#",
        "#c...#u..uu#",
        "#..2.o.....#",
        "#....#.cYYc#",
        "#Wu.P#.....#",
    ],
    roof="red",
)

THEO_HOUSE = _house(
    "Theo Alvarez's house",
    "living room",
    [
        "#TT..#F.OSS#",
        "#c...#u.uuu#",
        "#..2.o.....#",
        "#....#...XX#",
        "#Wu.P#...LL#",
    ],
    roof="blue",
)

IRIS_HOUSE = _house(
    "Iris Novak's house",
    "art studio",
    [
        "#TT..#F.Eaa#",
        "#c...#u.uuu#",
        "#..2.o.....#",
        "#....#.....#",
        "#Wu.P#.P.LL#",
    ],
    roof="green",
)

DRAWN = read_buildings(Path(__file__).with_name("buildings_willow_creek.toml"))
TOWN_HALL = DRAWN["Willow Creek Town Hall"]
CAFE = DRAWN["Willow Bean Cafe"]
SHOP = DRAWN["Creek Corner Shop"]

# (building, x, y of its top-left corner)
BUILDINGS = [
    (NORA_HOUSE, 3, 3),
    (THEO_HOUSE, 16, 3),
    (IRIS_HOUSE, 32, 3),
    (TOWN_HALL, 45, 3),
    (CAFE, 3, 21),
    (SHOP, 18, 21),
]

STREETS = [
    (2, 17, WIDTH - 3, 18),  # main street
    (29, 2, 30, HEIGHT - 3),  # north-south street
    (2, 34, 28, 35),  # lane south of the cafe and the shop
    (31, 26, 31, 26),  # into the park
]
# A small grove and flowers south of the lane; lamps along the main street.
TREES = [(x + (y % 3), y) for y in (38, 41) for x in range(4, 28, 4)]
FLOWER_TILES = [(x, 39) for x in (9, 10, 17, 18, 24)]


def lamps(width: int) -> list[tuple[int, int]]:
    """Lamps on both sides of the main street, every eight tiles of a town ``width`` wide."""
    return [(x, y) for x in range(6, width - 4, 8) for y in (16, 19)]


LAMPS = lamps(WIDTH)

PARK_SECTOR = "Willow Creek Park"
PARK = (32, 21, 57, 41)
PARK_ARENAS = {"park": [(32, 21, 57, 41)]}

# The park, drawn on top of grass (only the non-space characters are stamped).
PARK_ROWS = [
    "..p...t....p.....t...p..t.",  # y=21
    ".t..****.....t......****..",
    "....****..............**..",
    "..........p..hh..p........",
    "..t.....=============..t..",
    "=========:::::::::::=.....",  # y=26: entrance from the street
    "..p.....=:::::::::::=..p..",
    ".t......=::::uu:::::=.t...",
    "...hh...=:::uUUu::::=.....",  # fountain at x=45..46, y=29..30
    "........=:::uUUu::::=..**.",
    "..**....=::::uu:::::=..**.",
    "..**....=:::::::::::=.....",
    ".t..p...=============..t..",
    "............=.............",
    "..uqqu......=....~~~~~....",
    "...uu.......=...~~~~~~~...",
    ".t..........=...~~~~~~~~..",
    "......p.....=.hh~~~~~~~~..",
    "..t..***....=....~~~~~~~..",
    ".....***....=hh...~~~~~.t.",
    "..t.........=.............",
]


@dataclass(frozen=True)
class TownPlan:
    """Everything ``build`` needs to draw a town: its size, buildings, streets and park."""

    width: int
    height: int
    world: str
    maze_name: str
    buildings: list
    streets: list[Rect]
    trees: list
    flower_tiles: list
    lamps: list
    park_sector: str
    park: Rect
    park_arenas: dict
    park_rows: list
    # Sectors shared by residents who each know only their own arena of it (apartments).
    shared_homes: tuple[str, ...] = ()


WILLOW_CREEK = TownPlan(
    WIDTH,
    HEIGHT,
    WORLD,
    MAZE_NAME,
    BUILDINGS,
    STREETS,
    TREES,
    FLOWER_TILES,
    LAMPS,
    PARK_SECTOR,
    PARK,
    PARK_ARENAS,
    PARK_ROWS,
)


def widened(width: int, maze_name: str, buildings: list, flowers_x: tuple[int, ...], **changes: Any) -> TownPlan:
    """Willow Creek's plan widened east to ``width``: the main street runs to the east edge, a
    street east of the park leads down to an east lane, the grove and the lamps go on east, and
    flowers bloom south of the lane at ``flowers_x``. ``changes`` are the plan's other fields."""
    streets = [
        (2, 17, width - 3, 18),  # main street, all the way east
        *STREETS[1:],
        (58, 17, 59, 35),  # east of the park, down to the lane
        (58, 34, width - 3, 35),  # the east lane
    ]
    return replace(
        WILLOW_CREEK,
        width=width,
        maze_name=maze_name,
        buildings=buildings,
        streets=streets,
        trees=TREES + [(x + (y % 3), y) for y in (38, 41) for x in range(62, width - 6, 4)],
        flower_tiles=FLOWER_TILES + [(x, 39) for x in flowers_x],
        lamps=lamps(width),
        **changes,
    )
