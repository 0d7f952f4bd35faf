"""Willow Creek grown for 25 residents: the three-person town plus an east end with four
family houses, an apartment block of twelve rooms, a school and a library.

The west of the map is the three-person town tile for tile; the east end is joined to it
by the main street and a street past the park down to a lane.
"""

from __future__ import annotations

from reverie.worldgen import town
from reverie.worldgen.town import Building, _house

WIDTH = 120
MAZE_NAME = "willow_creek_n25"
APARTMENTS = "Creekside Apartments"


def family_house(sector: str, kid_room: str, roof: str) -> Building:
    """Parents share the bedroom; the child has the room where others have a kitchen."""
    b = _house(
        sector,
        kid_room,
        [
            "#TT..#B.nS.#",
            "#c...#B..u.#",
            "#..2.o.1...#",
            "#....#c....#",
            "#Wu.P#TT..P#",
        ],
        roof,
    )
    return b


def couple_house(sector: str, roof: str) -> Building:
    return _house(
        sector,
        "kitchen",
        [
            "#TT..#F.COK#",
            "#c...#u..uu#",
            "#..2.o.....#",
            "#....#.cYYc#",
            "#Wu.P#..LL.#",
        ],
        roof,
    )


def apartment_block(rooms: list[str]) -> Building:
    """Twelve one-room flats on both sides of a hall; ``rooms`` names their arenas.

    Seven slots of four tiles: on the north side six flats around an open alcove, on the
    south side six flats around the passage to the front door."""
    assert len(rooms) == 12
    slots, middle = 7, 3
    top_room, top_open = ["#BnS", "#B1u", "#...", "##o#"], ["#P.P", "#...", "#...", "#..."]
    bottom_room, passage = ["##o#", "#...", "#B1u", "#BnS"], ["#...", "#...", "#...", "#..."]
    width = 4 * slots + 1

    def band(room, other):
        return [("".join(other[i] if k == middle else room[i] for k in range(slots)) + "#") for i in range(4)]

    door = 4 * middle + 2
    rows = [
        "#" * width,
        *band(top_room, top_open)[:4],
        "#" + "." * (width - 2) + "#",
        "#P" + "." * (width - 4) + "P#",
        *band(bottom_room, passage),
        "#" * door + "D" + "#" * (width - door - 1),
    ]
    rows[1:5] = band(top_room, top_open)
    flats = [k for k in range(slots) if k != middle]
    arenas = {}
    for i, k in enumerate(flats):
        arenas[rooms[i]] = [(4 * k + 1, 1, 4 * k + 3, 3)]
        arenas[rooms[len(flats) + i]] = [(4 * k + 1, 8, 4 * k + 3, 10)]
    return Building(APARTMENTS, rows, arenas, roof="slate")


SCHOOL = town.DRAWN["Willow Creek School"]
LIBRARY = town.DRAWN["Willow Creek Library"]

HOUSES = (
    family_house("Hale family's house", "Milo Hale's room", "orange"),
    family_house("Okafor family's house", "Zara Okafor's room", "purple"),
    couple_house("Brennan family's house", "red"),
    couple_house("Sato family's house", "blue"),
)

APARTMENT_ROOMS = [
    f"{name}'s room"
    for name in (
        "Owen Price",
        "Leah Kim",
        "Sam Whitaker",
        "Priya Nair",
        "Felix Grant",
        "Ruby Castillo",
        "Jonas Berg",
        "Clara Mendes",
        "Dev Patel",
        "Hazel Quinn",
        "Marcus Reed",
        "Lucy Tran",
    )
]

EAST_X = 60
BUILDINGS = town.BUILDINGS + [
    *[(h, EAST_X + 13 * i, 3) for i, h in enumerate(HOUSES)],
    (apartment_block(APARTMENT_ROOMS), EAST_X, 21),
    (SCHOOL, 90, 21),
    (LIBRARY, 105, 21),
]

WILLOW_CREEK_N25 = town.widened(WIDTH, MAZE_NAME, BUILDINGS, (70, 71, 84, 85, 98, 99), shared_homes=(APARTMENTS,))
