"""Turn the town plan into grids: characters, addresses, collisions and drawn layers."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

from reverie.worldgen import legend as lg
from reverie.worldgen import town
from reverie.worldgen.art import building as art_building
from reverie.worldgen.art import furniture as art_furniture
from reverie.worldgen.art import ground as art_ground
from reverie.worldgen.art.ground import E, N, S, W
from reverie.worldgen.art.paint import rng
from reverie.worldgen.tileset import TileSet

T = TypeVar("T")

LAYER_NAMES = (
    "Bottom Ground",
    "Exterior Ground",
    "Exterior Decoration L1",
    "Exterior Decoration L2",
    "Interior Ground",
    "Wall",
    "Interior Furniture L1",
    "Interior Furniture L2 ",
    "Foreground L1",
    "Foreground L2",
)
ARENA_FLOORS = {
    "bedroom": "wood",
    "bathroom": "bath tile",
    "kitchen": "kitchen tile",
    "living room": "wood light",
    "art studio": "wood light",
    "office": "carpet",
    "meeting room": "carpet",
    "cafe": "wood dark",
    "cafe kitchen": "kitchen tile",
    "shop": "stone",
    "storeroom": "stone",
    "classroom": "wood light",
    "teachers' room": "carpet",
    "reading room": "carpet",
}


@dataclass
class WorldGrid:
    width: int
    height: int
    world: str
    chars: list[list[str]]
    sector: list[list[str]]
    arena: list[list[str]]
    game_object: list[list[str]]
    spawn: list[list[str]]
    collision: list[list[bool]]
    layers: dict[str, list[list[tuple[str, int] | None]]] = field(default_factory=dict)
    tilesets: list[TileSet] = field(default_factory=list)
    roofs: list[list[str]] = field(default_factory=list)
    inside: list[list[bool]] = field(default_factory=list)


def _grid(w: int, h: int, value: T) -> list[list[T]]:
    return [[value] * w for _ in range(h)]


def plan_chars(plan: town.TownPlan = town.WILLOW_CREEK) -> list[list[str]]:
    """The character map of the whole town (see ``legend``)."""
    w, h = plan.width, plan.height
    chars = _grid(w, h, lg.GRASS)

    def fill(x0: int, y0: int, x1: int, y1: int, ch: str) -> None:
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                chars[y][x] = ch

    for y in range(h):
        for x in range(w):
            if x < 2 or x >= w - 2 or y < 2 or y >= h - 2:
                chars[y][x] = lg.TREE
    for rect in plan.streets:
        fill(*rect, lg.PATH)
    for b, bx, by in plan.buildings:
        for dy, row in enumerate(b.rows):
            for dx, ch in enumerate(row):
                chars[by + dy][bx + dx] = ch
        for dx, ch in enumerate(b.rows[-1]):
            if ch == lg.DOOR:  # a path from the door down to the next street
                x, y0 = bx + dx, by + len(b.rows)
                y = y0
                while chars[y][x] != lg.PATH:
                    chars[y][x] = lg.PATH
                    y += 1
                if chars[y0][x - 2] == lg.GRASS:
                    chars[y0][x - 2] = lg.BUSH
    px0, py0, _, _ = plan.park
    for dy, row in enumerate(plan.park_rows):
        for dx, ch in enumerate(row):
            if ch != ".":
                chars[py0 + dy][px0 + dx] = ch
    for ch, tiles in ((lg.TREE, plan.trees), (lg.FLOWERS, plan.flower_tiles), (lg.LAMP, plan.lamps)):
        for x, y in tiles:
            if chars[y][x] == lg.GRASS:
                chars[y][x] = ch
    return chars


def _rects(rects: Iterable[town.Rect]) -> Iterator[tuple[int, int]]:
    for x0, y0, x1, y1 in rects:
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                yield x, y


def build(plan: town.TownPlan = town.WILLOW_CREEK) -> WorldGrid:
    w, h = plan.width, plan.height
    chars = plan_chars(plan)
    g = WorldGrid(
        w,
        h,
        plan.world,
        chars,
        _grid(w, h, ""),
        _grid(w, h, ""),
        _grid(w, h, ""),
        _grid(w, h, ""),
        _grid(w, h, False),
        roofs=_grid(w, h, ""),
        inside=_grid(w, h, False),
    )
    names: list[list[dict[str, str]]] = _grid(w, h, {})
    for b, bx, by in plan.buildings:
        for x, y in _rects([(bx, by, bx + len(b.rows[0]) - 1, by + len(b.rows) - 1)]):
            g.sector[y][x], g.roofs[y][x], names[y][x] = b.sector, b.roof, b.names
            g.inside[y][x] = True
        for arena, rects in b.arenas.items():
            for x, y in _rects([(bx + x0, by + y0, bx + x1, by + y1) for x0, y0, x1, y1 in rects]):
                if chars[y][x] != lg.WALL:
                    g.arena[y][x] = arena
    for arena, rects in plan.park_arenas.items():
        for x, y in _rects(rects):
            g.sector[y][x], g.arena[y][x] = plan.park_sector, arena

    pieces = _find_pieces(chars)
    owner = {}
    for ch, x0, y0, pw, ph in pieces:
        spec = lg.PIECES[ch]
        for x, y in _rects([(x0, y0, x0 + pw - 1, y0 + ph - 1)]):
            owner[(x, y)] = (ch, spec)
            g.collision[y][x] = spec.blocking
            if spec.obj and not spec.blocking:
                g.game_object[y][x] = names[y][x].get(ch, spec.obj)
    for y in range(h):
        for x in range(w):
            ch = chars[y][x]
            if ch in lg.SOLID:
                g.collision[y][x] = True
            elif ch in lg.LOOK:
                g.game_object[y][x] = _use_object(ch, x, y, owner, names[y][x])
            elif ch == lg.FLOWERS and g.arena[y][x]:
                g.game_object[y][x] = lg.FLOWER_OBJECT
            elif ch in lg.SPAWNS:
                g.spawn[y][x] = lg.SPAWNS[ch]
    _draw_layers(g, pieces)
    return g


def _find_pieces(chars: list[list[str]]) -> list[tuple[str, int, int, int, int]]:
    claimed: set[tuple[int, int]] = set()
    pieces: list[tuple[str, int, int, int, int]] = []
    h, w = len(chars), len(chars[0])
    for y in range(h):
        for x in range(w):
            ch = chars[y][x]
            if ch not in lg.PIECES or (x, y) in claimed:
                continue
            spec = lg.PIECES[ch]
            pw, ph = spec.w, spec.h
            if spec.run:
                while x + pw < w and chars[y][x + pw] == ch:
                    pw += 1
            cells = [(x + dx, y + dy) for dy in range(ph) for dx in range(pw)]
            if any(chars[cy][cx] != ch or (cx, cy) in claimed for cx, cy in cells):
                raise ValueError(f"piece {ch!r} at ({x}, {y}) needs {pw}x{ph} tiles of it")
            claimed.update(cells)
            pieces.append((ch, x, y, pw, ph))
    return pieces


def _use_object(ch: str, x: int, y: int, owner: dict, names: dict[str, str]) -> str:
    for dx, dy in lg.LOOK[ch]:
        found = owner.get((x + dx, y + dy))
        if found and found[1].blocking and found[1].obj:
            name = names.get(found[0], found[1].obj)
            return f"behind the {name}" if ch == lg.BEHIND else name
    raise ValueError(f"use tile {ch!r} at ({x}, {y}) has no furniture with an object next to it")


def _mask(g: WorldGrid, x: int, y: int, same: Callable[[str], bool]) -> int:
    m = 0
    for bit, dx, dy in ((N, 0, -1), (E, 1, 0), (S, 0, 1), (W, -1, 0)):
        nx, ny = x + dx, y + dy
        if not (0 <= nx < g.width and 0 <= ny < g.height) or same(g.chars[ny][nx]):
            m |= bit
    return m


def _floor_kind(g: WorldGrid, x: int, y: int) -> str:
    if g.arena[y][x] in ARENA_FLOORS:
        return ARENA_FLOORS[g.arena[y][x]]
    for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1)):
        arena = g.arena[y + dy][x + dx]
        if arena in ARENA_FLOORS:
            return ARENA_FLOORS[arena]
    return "wood"


def _draw_layers(g: WorldGrid, pieces: list[tuple[str, int, int, int, int]]) -> None:
    out, ins = TileSet("willow_creek_outdoor"), TileSet("willow_creek_indoor")
    g.tilesets = [out, ins]
    g.layers = {name: _grid(g.width, g.height, None) for name in LAYER_NAMES}
    L = g.layers
    for y in range(g.height):
        for x in range(g.width):
            v = rng("grass-tile", x, y).choice((0, 0, 0, 1, 1, 2))
            L["Bottom Ground"][y][x] = out.ref(f"grass:{v}", partial(art_ground.grass, v))
            ch = g.chars[y][x]
            if ch == lg.PATH:
                m = _mask(g, x, y, lambda c: c in (lg.PATH, lg.DOOR, lg.PLAZA))
                L["Exterior Ground"][y][x] = out.ref(f"path:{m}", partial(art_ground.path, m))
            elif ch == lg.PLAZA or (ch in (lg.USE, "U") and _mask(g, x, y, lambda c: c in (lg.PLAZA, "U"))):
                v = (x + 2 * y) % 2
                L["Exterior Ground"][y][x] = out.ref(f"plaza:{v}", partial(art_ground.plaza, v))
            elif ch == lg.WATER:
                m = _mask(g, x, y, lambda c: c == lg.WATER)
                L["Exterior Ground"][y][x] = out.ref(f"water:{m}", partial(art_ground.water, m))
            elif ch == lg.FLOWERS:
                m = _mask(g, x, y, lambda c: c == lg.FLOWERS)
                L["Exterior Ground"][y][x] = out.ref(f"flowers:{m}", partial(art_ground.flower_bed, m))
            elif ch == lg.BUSH:
                v = (x + y) % 2
                L["Exterior Decoration L1"][y][x] = out.ref(f"bush:{v}", partial(art_ground.bush, v))
            elif ch in (lg.TREE, lg.LAMP):  # two tiles tall: the top is drawn over walkers
                if ch == lg.TREE:
                    v = (x * 5 + y * 3) % 3
                    parts = out.ref_piece(f"tree:{v}", partial(art_ground.tree, v))
                else:
                    parts = out.ref_piece("lamp", art_ground.lamp)
                L["Exterior Decoration L1"][y][x] = parts[(0, 1)]
                if y > 0:
                    L["Foreground L1"][y - 1][x] = parts[(0, 0)]
            if g.inside[y][x]:
                _draw_inside(g, ins, x, y)
    for ch, x0, y0, pw, ph in pieces:
        spec = lg.PIECES[ch]
        ts = out if spec.outdoor else ins
        layer = "Exterior Decoration L1" if spec.outdoor else "Interior Furniture L1"
        if spec.run:
            for i in range(pw):
                part = "single" if pw == 1 else "left" if i == 0 else "right" if i == pw - 1 else "mid"
                L[layer][y0][x0 + i] = ts.ref(f"run:{ch}:{part}", partial(spec.draw, part))
            continue
        parts = ts.ref_piece(f"piece:{ch}:{pw}x{ph}", partial(spec.draw, pw, ph))
        for (cx, cy), ref in parts.items():
            L[layer][y0 + cy][x0 + cx] = ref
    for y in range(g.height):
        for x in range(g.width):
            if g.chars[y][x] == lg.CHAIR:
                L["Interior Furniture L1"][y][x] = ins.ref("piece:chair", lambda: art_furniture.chair(1, 1))


def _draw_inside(g: WorldGrid, ins: TileSet, x: int, y: int) -> None:
    ch, roof = g.chars[y][x], g.roofs[y][x]
    if ch == lg.WALL:
        m = _mask(g, x, y, lambda c: c == lg.WALL)
        below = g.chars[y + 1][x] if y + 1 < g.height else lg.WALL
        face = "" if below == lg.WALL else ("in" if g.inside[y + 1][x] and below != lg.DOOR else "out")
        window = (
            face == "out" and m & E and m & W and x % 3 == 1 and lg.DOOR not in (g.chars[y][x - 1], g.chars[y][x + 1])
        )
        g.layers["Wall"][y][x] = ins.ref(
            f"wall:{roof}:{m}:{face}:{int(bool(window))}", lambda: art_building.wall(roof, m, face, bool(window))
        )
        return
    kind = _floor_kind(g, x, y)
    g.layers["Interior Ground"][y][x] = ins.ref(f"floor:{kind}", lambda: art_building.floor(kind))
    if ch == lg.DOOR:
        inner = _floor_kind(g, x, y - 1)
        g.layers["Wall"][y][x] = ins.ref(f"door:{roof}:{inner}", lambda: art_building.door(roof, inner))
