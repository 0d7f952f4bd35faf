"""What each character of the town plan means.

Furniture that blocks (counters, shelves, tables) is drawn on its own tiles, which are
collisions; the object's address goes to the free tiles next to it marked ``u`` (use it),
``c`` (a chair) or ``b`` ("behind the ..."), because walkers must stand on an object's
tiles. Furniture one sits or lies on (beds, sofas, benches) holds its own address.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reverie.worldgen.art import furniture as fu
from reverie.worldgen.art import ground as gr


@dataclass(frozen=True)
class Piece:
    draw: Callable[..., Any]  # art function (w, h) -> image, or (part) -> image for runs
    w: int = 1
    h: int = 1
    blocking: bool = True
    obj: str | None = None
    outdoor: bool = False
    run: bool = False  # a horizontal run of any length (counters)


PIECES: dict[str, Piece] = {
    "B": Piece(fu.bed, 1, 2, blocking=False, obj="bed"),
    "n": Piece(fu.nightstand),
    "S": Piece(fu.bookshelf, obj="bookshelf"),
    "W": Piece(fu.wardrobe, obj="wardrobe"),
    "T": Piece(fu.desk, 2, 1, obj="desk"),
    "R": Piece(fu.rug, 2, 2, blocking=False),
    "P": Piece(fu.plant),
    "F": Piece(fu.refrigerator, obj="refrigerator"),
    "C": Piece(fu.counter),
    "O": Piece(fu.stove, obj="stove"),
    "K": Piece(fu.kitchen_sink, obj="kitchen sink"),
    "Y": Piece(fu.dining_table, 2, 1, obj="dining table"),
    "X": Piece(fu.coffee_table, 2, 1),
    "L": Piece(fu.sofa, 2, 1, blocking=False, obj="sofa"),
    "I": Piece(fu.toilet, blocking=False, obj="toilet"),
    "A": Piece(fu.bathroom_sink, obj="bathroom sink"),
    "H": Piece(fu.shower, blocking=False, obj="shower"),
    "E": Piece(fu.easel, obj="easel"),
    "a": Piece(fu.art_shelf, obj="art supplies shelf"),
    "f": Piece(fu.filing_cabinet),
    "w": Piece(fu.whiteboard, 2, 1, obj="whiteboard"),
    "N": Piece(fu.meeting_table, 2, 2, obj="meeting table"),
    "M": Piece(fu.coffee_machine, 2, 1, obj="coffee machine"),
    "Q": Piece(fu.cafe_counter, obj="cafe counter", run=True),
    "G": Piece(fu.cafe_table, obj="cafe customer seating"),
    "V": Piece(fu.shop_shelf, obj="shop shelf"),
    "J": Piece(fu.storage_boxes, obj="storage boxes"),
    "Z": Piece(fu.shop_counter, obj="shop counter", run=True),
    "U": Piece(gr.fountain, 2, 2, obj="fountain", outdoor=True),
    "q": Piece(gr.picnic_table, 2, 1, obj="picnic table", outdoor=True),
    "h": Piece(gr.bench, 2, 1, blocking=False, obj="park bench", outdoor=True),
}

WALL, DOOR, DOORWAY, FLOOR = "#", "D", "o", "."
USE, CHAIR, BEHIND = "u", "c", "b"
SPAWNS = {"1": "sp-A", "2": "sp-B"}
TREE, PATH, WATER, FLOWERS, BUSH, GRASS, PLAZA, LAMP = "t", "=", "~", "*", "p", ",", ":", "l"
FLOWER_OBJECT = "flower garden"
SOLID = (WALL, WATER, TREE, BUSH, LAMP)  # always collisions

# Where a use tile looks for its furniture: "b" looks south first (it stands behind a
# counter), the others look north first.
LOOK = {BEHIND: ((0, 1), (0, -1), (-1, 0), (1, 0)), USE: ((0, -1), (-1, 0), (1, 0), (0, 1))}
LOOK[CHAIR] = LOOK[USE]
