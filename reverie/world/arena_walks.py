"""How many steps a resident needs to walk into an arena: the least number of steps from a tile
to any tile of the arena, on the collision grid with 4 neighbours (as residents walk).

A persona perceives only the tiles of its own arena (``Maze.arena_view``), so two residents can
see each other only once one has walked into the other's arena; walls and doors make that walk
far longer than the straight line between them. Each arena's distances are worked out once, when
first asked: the map's places never change.
"""

from __future__ import annotations

import math

from reverie.world.maze import Maze, Tile
from reverie.world.pathfinding import NEIGHBOURS, distances_from


class ArenaWalks:
    def __init__(self, maze: Maze):
        self.maze = maze
        self._tiles: dict[str, list[Tile]] | None = None
        self._steps: dict[str, dict[Tile, int]] = {}

    def steps(self, arena: str, tile: Tile) -> float:
        """The fewest steps from ``tile`` onto a free tile of ``arena`` (0 on any of its tiles);
        ``math.inf`` where no walk leads there."""
        tile = (int(tile[0]), int(tile[1]))
        if self.maze.arena_of(tile) == arena:
            return 0
        field = self._steps.get(arena)
        if field is None:
            field = self._steps[arena] = distances_from(self.maze, self._free_tiles().get(arena, ()))
        if tile in field:
            return field[tile]
        # A walk that starts on a blocked tile (a resident may stand on one) first steps onto a free neighbour.
        near = [field[n] for n in ((tile[0] + dx, tile[1] + dy) for dx, dy in NEIGHBOURS) if n in field]
        return min(near) + 1 if near else math.inf

    def _free_tiles(self) -> dict[str, list[Tile]]:
        """Each arena's free tiles: a walk ends on one (paths cross free tiles only)."""
        if self._tiles is None:
            self._tiles = {}
            for y in range(self.maze.height):
                for x in range(self.maze.width):
                    if not self.maze.collision[y][x]:
                        self._tiles.setdefault(self.maze.arena_of((x, y)), []).append((x, y))
        return self._tiles
