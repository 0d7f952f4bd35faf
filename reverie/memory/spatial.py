"""The places a persona knows: ``{world: {sector: {arena: [object, ...]}}}``.

Seeded from ``spatial_memory.json`` and extended by perception; it never shrinks. The
option lists of the action-location prompts come from here. Unknown places give empty
lists, never an error (docs/FIDELITY.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reverie.address import Place
from reverie.jsonio import read_json, write_json_atomic

# world -> sector -> arena -> the objects there
SpatialTree = dict[str, dict[str, dict[str, list[str]]]]

SPATIAL_FILE = "spatial_memory.json"


class SpatialMemory:
    def __init__(self, tree: SpatialTree | None = None):
        self.tree: SpatialTree = tree if tree is not None else {}
        self._learned: set[tuple[int, int]] = set()  # the map tiles added since this memory was made

    @classmethod
    def load(cls, path: str | Path) -> SpatialMemory:
        return cls(read_json(path) or {})

    def save(self, path: str | Path) -> None:
        write_json_atomic(path, self.tree, indent=2)

    def learn_tile(self, xy: tuple[int, int], tile: dict[str, Any]) -> None:
        """``add_tile_info`` once per map tile: the map's places never change and the tree never
        shrinks, so a tile added once adds nothing again."""
        if xy not in self._learned:
            self._learned.add(xy)
            self.add_tile_info(tile)

    def add_tile_info(self, tile: dict[str, Any]) -> None:
        """Insert a tile's world -> sector -> arena -> object path; empty names stop the descent."""
        world, sector, arena, obj = (tile.get(k) or "" for k in ("world", "sector", "arena", "game_object"))
        if not world:
            return
        sectors = self.tree.setdefault(world, {})
        if not sector:
            return
        arenas = sectors.setdefault(sector, {})
        if not arena:
            return
        objects = arenas.setdefault(arena, [])
        if obj and obj not in objects:
            objects.append(obj)

    # -- lists -----------------------------------------------------------------------
    def sectors(self, world: str) -> list[str]:
        return list(self.tree.get(world, {}))

    def arenas(self, sector_address: str) -> list[str]:
        """Arenas under "world:sector"."""
        world, _, sector = sector_address.partition(":")
        if not sector:
            return []
        return list(self.tree.get(world, {}).get(sector, {}))

    def objects(self, arena_address: str) -> list[str]:
        """Objects under "world:sector:arena" (retrying the arena lower-cased, as the original)."""
        parts = Place(arena_address).parts
        if len(parts) < 3 or not parts[2]:
            return []
        world, sector, arena = parts[0], parts[1], ":".join(parts[2:])
        arenas = self.tree.get(world, {}).get(sector, {})
        found = arenas.get(arena)
        if found is None:
            found = arenas.get(arena.lower(), [])
        return list(found)

    # -- comma strings for prompts -----------------------------------------------------
    def accessible_sectors_str(self, world: str) -> str:
        return ", ".join(self.sectors(world))

    def accessible_arenas_str(self, sector_address: str) -> str:
        return ", ".join(self.arenas(sector_address))

    def accessible_objects_str(self, arena_address: str) -> str:
        return ", ".join(self.objects(arena_address))
