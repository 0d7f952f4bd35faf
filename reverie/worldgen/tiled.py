"""Block ids, the matrix tables and the Tiled JSON map of a built world."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from reverie.worldgen.art.paint import T, rng
from reverie.worldgen.build import LAYER_NAMES, WorldGrid
from reverie.worldgen.tileset import COLUMNS

BLOCKS_NAME = "blocks"
BLOCK_LAYERS = (
    "Collisions",
    "Object Interaction Blocks",
    "Arena Blocks",
    "Sector Blocks",
    "World Blocks",
    "Spawning Blocks",
    "Special Blocks Registry",
)


@dataclass
class Blocks:
    """Block ids (Tiled GIDs of the blocks tileset) for every named place."""

    first_gid: int
    collision: int
    world: int
    sectors: dict[str, int]
    arenas: dict[tuple[str, str], int]
    objects: dict[str, int]
    spawns: dict[tuple[str, str, str], int]

    @property
    def count(self) -> int:
        return 2 + len(self.sectors) + len(self.arenas) + len(self.objects) + len(self.spawns)


def first_gids(g: WorldGrid) -> dict[str, int]:
    gids, nxt = {}, 1
    for ts in g.tilesets:
        gids[ts.name] = nxt
        nxt += len(ts.images)
    gids[BLOCKS_NAME] = nxt
    return gids


def assign_blocks(g: WorldGrid, first_gid: int) -> Blocks:
    """Ids in order of first appearance (row by row), so they are stable for a given plan."""
    # Each table takes its keys in order of first appearance (None), then their ids in that order.
    sectors: dict[Any, Any] = {}
    arenas: dict[Any, Any] = {}
    objects: dict[Any, Any] = {}
    spawns: dict[Any, Any] = {}
    nxt = first_gid + 2
    for y in range(g.height):
        for x in range(g.width):
            s, a, o, sp = g.sector[y][x], g.arena[y][x], g.game_object[y][x], g.spawn[y][x]
            for table, key, present in (
                (sectors, s, s),
                (arenas, (s, a), a),
                (objects, o, o),
                (spawns, (s, a, sp), sp),
            ):
                if present and key not in table:
                    table[key] = None
    for table in (sectors, arenas, objects, spawns):
        for key in table:
            table[key] = nxt
            nxt += 1
    return Blocks(first_gid, first_gid, first_gid + 1, sectors, arenas, objects, spawns)


def block_grids(g: WorldGrid, b: Blocks) -> dict[str, list[list[int]]]:
    """The five matrix grids (collision, sector, arena, game_object, spawning_location)."""

    def grid(f):
        return [[f(x, y) for x in range(g.width)] for y in range(g.height)]

    return {
        "collision": grid(lambda x, y: b.collision if g.collision[y][x] else 0),
        "sector": grid(lambda x, y: b.sectors.get(g.sector[y][x], 0)),
        "arena": grid(lambda x, y: b.arenas.get((g.sector[y][x], g.arena[y][x]), 0)),
        "game_object": grid(lambda x, y: b.objects.get(g.game_object[y][x], 0)),
        "spawning_location": grid(lambda x, y: b.spawns.get((g.sector[y][x], g.arena[y][x], g.spawn[y][x]), 0)),
    }


def block_tables(g: WorldGrid, b: Blocks) -> dict[str, list[list]]:
    w = g.world
    return {
        "world": [[b.world, w]],
        "sector": [[i, w, s] for s, i in b.sectors.items()],
        "arena": [[i, w, s, a] for (s, a), i in b.arenas.items()],
        "game_object": [[i, w, "<all>", o] for o, i in b.objects.items()],
        "spawning_location": [[i, w, s, a, sp] for (s, a, sp), i in b.spawns.items()],
    }


def blocks_image(b: Blocks) -> Image.Image:
    """One flat colour per block id (the layers that use them are hidden in the game)."""
    rows = -(-b.count // 10)
    img = Image.new("RGBA", (10 * T, rows * T), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    for i in range(b.count):
        r = rng("block", i)
        color = (r.randint(40, 230), r.randint(40, 230), r.randint(40, 230), 255)
        if i == 0:
            color = (200, 40, 40, 255)
        x, y = (i % 10) * T, (i // 10) * T
        d.rectangle((x, y, x + T - 1, y + T - 1), fill=color, outline=(20, 20, 20, 255))
    return img


def tiled_map(g: WorldGrid, b: Blocks, grids: dict, images: dict[str, str]) -> dict:
    """The Tiled 1.8 JSON map; ``images`` maps a tileset name to its path from visuals/."""
    gids = first_gids(g)
    layers: list[dict] = []

    def add(name, data, visible=True, opacity=1):
        layers.append(
            {
                "data": data,
                "height": g.height,
                "id": len(layers) + 1,
                "name": name,
                "opacity": opacity,
                "type": "tilelayer",
                "visible": visible,
                "width": g.width,
                "x": 0,
                "y": 0,
            }
        )

    for name in LAYER_NAMES:
        add(name, [0 if ref is None else gids[ref[0]] + ref[1] for row in g.layers[name] for ref in row])
    flat = {k: [v for row in grid for v in row] for k, grid in grids.items()}
    add("Collisions", flat["collision"], opacity=0.4)
    add("Object Interaction Blocks", flat["game_object"], visible=False)
    add("Arena Blocks", flat["arena"], visible=False)
    add("Sector Blocks", flat["sector"], visible=False)
    add("World Blocks", [b.world] * (g.width * g.height), visible=False)
    add("Spawning Blocks", flat["spawning_location"], visible=False)
    registry = [0] * (g.width * g.height)
    for i in range(b.count):
        registry[i] = b.first_gid + i
    add("Special Blocks Registry", registry, visible=False)

    tilesets = []
    for ts in g.tilesets:
        img_h = max(1, -(-len(ts.images) // COLUMNS)) * T
        tilesets.append(_tileset(ts.name, gids[ts.name], images[ts.name], COLUMNS, img_h))
    blocks = _tileset(BLOCKS_NAME, b.first_gid, images[BLOCKS_NAME], 10, -(-b.count // 10) * T)
    blocks["tiles"] = [{"id": 0, "properties": [{"name": "collide", "type": "bool", "value": True}]}]
    tilesets.append(blocks)
    return {
        "compressionlevel": -1,
        "height": g.height,
        "infinite": False,
        "layers": layers,
        "nextlayerid": len(layers) + 1,
        "nextobjectid": 1,
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "tiledversion": "1.8.6",
        "tileheight": T,
        "tilesets": tilesets,
        "tilewidth": T,
        "type": "map",
        "version": "1.8",
        "width": g.width,
    }


def _tileset(name, firstgid, image, columns, img_h):
    return {
        "columns": columns,
        "firstgid": firstgid,
        "image": image,
        "imageheight": img_h,
        "imagewidth": columns * T,
        "margin": 0,
        "name": name,
        "spacing": 0,
        "tilecount": columns * (img_h // T),
        "tileheight": T,
        "tilewidth": T,
    }
