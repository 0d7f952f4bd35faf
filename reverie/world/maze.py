"""The maze: a grid of tiles with addresses (world:sector:arena:game_object) and events.

Loaded from ``<assets>/<maze_name>/matrix/`` in the original format. Coordinates are
``(x, y)`` = (column, row) everywhere; ``tiles[y][x]`` holds the tile dict.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from reverie.world import blocks

Tile = tuple[int, int]
Event = tuple  # (subject, predicate, object, description)
LEVELS = ("world", "sector", "arena", "game_object")
SPAWN_PREFIX = "<spawn_loc>"


class Maze:
    def __init__(
        self,
        name: str,
        width: int,
        height: int,
        sq_tile_size: int,
        world: str,
        tiles: list[list[dict]],
        collision_maze: list[list[str]],
    ):
        self.maze_name = name
        self.width = self.maze_width = width
        self.height = self.maze_height = height
        self.sq_tile_size = sq_tile_size
        self.world = world
        self.tiles = tiles
        # Raw block ids as in the file ("0" = free), and the same as booleans.
        self.collision_maze = collision_maze
        self.collision = [[cell != "0" for cell in row] for row in collision_maze]
        self.address_tiles: dict[str, set[Tile]] = {}
        for y, row in enumerate(tiles):
            for x, tile in enumerate(row):
                for address in tile_addresses(tile):
                    self.address_tiles.setdefault(address, set()).add((x, y))

    # -- loading ---------------------------------------------------------------------------
    @classmethod
    def load(cls, assets_dir: Path | str, maze_name: str) -> Maze:
        matrix = Path(assets_dir) / maze_name / "matrix"
        meta = blocks.read_meta(matrix)
        width, height = int(meta["maze_width"]), int(meta["maze_height"])
        special = matrix / "special_blocks"
        world_rows = blocks.read_rows(special / blocks.BLOCK_TABLES["world"])
        world = world_rows[0][-1] if world_rows else ""
        names = {
            layer: blocks.read_names(special / blocks.BLOCK_TABLES[layer])
            for layer in ("sector", "arena", "game_object", "spawning_location")
        }
        grids = {
            layer: blocks.read_grid(matrix / "maze" / f"{layer}_maze.csv", width, height) for layer in blocks.LAYERS
        }
        tiles = []
        for y in range(height):
            row = []
            for x in range(width):
                tile: dict[str, Any] = {"world": world}
                for layer, table in names.items():
                    tile[layer] = table.get(grids[layer][y][x], "")
                tile["collision"] = grids["collision"][y][x] != "0"
                tile["events"] = set()
                if tile["game_object"]:
                    # Every object starts idle: its blank event.
                    tile["events"].add((":".join(tile[level] for level in LEVELS), None, None, None))
                row.append(tile)
            tiles.append(row)
        return cls(maze_name, width, height, int(meta.get("sq_tile_size", 32)), world, tiles, grids["collision"])

    # -- reading ---------------------------------------------------------------------------
    def in_bounds(self, tile: Tile) -> bool:
        return 0 <= tile[0] < self.width and 0 <= tile[1] < self.height

    def access_tile(self, tile: Tile) -> dict:
        return self.tiles[tile[1]][tile[0]]

    def is_blocked(self, tile: Tile) -> bool:
        return self.collision[tile[1]][tile[0]]

    def get_tile_path(self, tile: Tile, level: str) -> str:
        """Address of the tile down to ``level`` (world, sector, arena or game_object)."""
        details = self.access_tile(tile)
        depth = LEVELS.index(level) + 1
        return ":".join(details[name] for name in LEVELS[:depth])

    def get_nearby_tiles(self, tile: Tile, r: int) -> list[Tile]:
        """Tiles of the square of radius r around ``tile``, clipped to the map.

        The last column and row of the map are included (docs/FIDELITY.md).
        """
        x0, x1 = max(0, tile[0] - r), min(self.width - 1, tile[0] + r)
        y0, y1 = max(0, tile[1] - r), min(self.height - 1, tile[1] + r)
        return [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]

    def arena_view(self, tile: Tile, r: int) -> list[tuple[Tile, float]]:
        """The tiles within radius ``r`` that share ``tile``'s arena, with their distance from it
        (what a persona there can see events on). The map's places never change, so each
        (tile, r) is worked out once."""
        cache = self.__dict__.setdefault("_arena_views", {})
        key = (tuple(tile), r)
        if key not in cache:
            arena = self.arena_of(tile)
            cache[key] = [(t, math.dist(t, tile)) for t in self.get_nearby_tiles(tile, r) if self.arena_of(t) == arena]
        return cache[key]

    def arena_of(self, tile: Tile) -> str:
        """``get_tile_path(tile, "arena")``, worked out once per tile (the map's places never change)."""
        cache = self.__dict__.setdefault("_arenas", {})
        key = (int(tile[0]), int(tile[1]))
        arena = cache.get(key)
        if arena is None:
            arena = cache[key] = self.get_tile_path(key, "arena")
        return arena

    # -- events ----------------------------------------------------------------------------
    def add_event_to_tile(self, event: Event, tile: Tile) -> None:
        self.access_tile(tile)["events"].add(tuple(event))

    def remove_event_from_tile(self, event: Event, tile: Tile) -> None:
        self.access_tile(tile)["events"].discard(tuple(event))

    def turn_event_from_tile_idle(self, event: Event, tile: Tile) -> None:
        events = self.access_tile(tile)["events"]
        event = tuple(event)
        if event in events:
            events.remove(event)
            events.add((event[0], None, None, None))

    def remove_subject_events_from_tile(self, subject: str, tile: Tile) -> None:
        events = self.access_tile(tile)["events"]
        for event in [e for e in events if e[0] == subject]:
            events.remove(event)


def tile_addresses(tile: dict) -> Iterable[str]:
    """The addresses a tile belongs to (each level on its own, as in the original)."""
    for depth in (2, 3, 4):
        if tile[LEVELS[depth - 1]]:
            yield ":".join(tile[name] for name in LEVELS[:depth])
    if tile["spawning_location"]:
        yield f"{SPAWN_PREFIX}{tile['spawning_location']}"
