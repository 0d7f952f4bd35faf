"""Perception learns each map tile once: the tree is what adding every tile each time gives.
On the original Smallville's map, walked the way a persona walks (overlapping views)."""

from __future__ import annotations

import json
import random

from reverie.memory.spatial import SpatialMemory
from reverie.world.maze import Maze


def test_tiles_learned_once_give_the_tree_of_tiles_added_every_time(smallville_dir):
    maze = Maze.load(smallville_dir / "static_dirs" / "assets", "the_ville")
    once, every_time = SpatialMemory(), SpatialMemory()
    rng = random.Random(3)
    here = (72, 14)
    for _ in range(300):  # a random walk: each view overlaps the last
        here = (
            min(maze.width - 1, max(0, here[0] + rng.choice((-3, 0, 3)))),
            min(maze.height - 1, max(0, here[1] + rng.choice((-3, 0, 3)))),
        )
        for tile in maze.get_nearby_tiles(here, 4):
            once.learn_tile(tile, maze.access_tile(tile))
            every_time.add_tile_info(maze.access_tile(tile))
    assert json.dumps(once.tree) == json.dumps(every_time.tree)  # the same places in the same order (the file)
    assert sum(len(arenas) for sectors in once.tree.values() for arenas in sectors.values()) > 5
