"""Path-tester mode: collect a spatial-memory tree from where the browser's camera goes."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from pathlib import Path

from reverie.jsonio import write_json_atomic
from reverie.world.maze import Maze

RADIUS = 8


def add_tiles(tree: dict, maze: Maze, tile: tuple[int, int]) -> None:
    """Add every tile within the radius that shares ``tile``'s sector and arena."""
    here = maze.access_tile(tile)
    for x, y in maze.get_nearby_tiles(tile, RADIUS):
        t = maze.access_tile((x, y))
        if not t["world"] or t["sector"] != here["sector"] or t["arena"] != here["arena"]:
            continue
        node = tree.setdefault(t["world"], {})
        if t["sector"]:
            node = node.setdefault(t["sector"], {})
            if t["arena"]:
                objects = node.setdefault(t["arena"], [])
                if t["game_object"] and t["game_object"] not in objects:
                    objects.append(t["game_object"])


def path_tester_loop(
    maze: Maze,
    temp_storage: Path,
    *,
    say: Callable[[str], object] = print,
    poll_s: float = 1.0,
    rounds: int | None = None,
) -> dict:
    env_file = Path(temp_storage) / "path_tester_env.json"
    out_file = Path(temp_storage) / "path_tester_out.json"
    tree: dict = {}
    n = 0
    while rounds is None or n < rounds:
        n += 1
        try:
            if env_file.exists():
                data = json.loads(env_file.read_text(encoding="utf-8"))
                env_file.unlink(missing_ok=True)
                tile = (math.ceil(data["x"] / maze.sq_tile_size), math.ceil(data["y"] / maze.sq_tile_size) + 1)
                add_tiles(tree, maze, tile)
                write_json_atomic(out_file, tree)
                say(json.dumps(tree, indent=2))
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            pass  # a half-written or odd file: wait for the next one
        time.sleep(poll_s)
    return tree
