"""Checks on a world and the personas living in it (any maze, ours or the original).

    python -m reverie.world.checks SIM_CODE [--config PATH]

* every arena can be reached from every spawn tile;
* every arena and object named in the block tables has tiles, and every object tile can
  be stood on (it is not a collision) and lies in an arena;
* every persona's living area and every place in its spatial memory resolves.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from reverie.world import blocks
from reverie.world.maze import SPAWN_PREFIX, Maze
from reverie.world.pathfinding import distances


def check_maze(maze: Maze) -> list[str]:
    """Problems of the world itself, one line each ([] when it is sound)."""
    problems = []
    arenas = {a for a in maze.address_tiles if not a.startswith(SPAWN_PREFIX) and a.count(":") == 2}
    spawn_tiles = sorted({t for a, tiles in maze.address_tiles.items() if a.startswith(SPAWN_PREFIX) for t in tiles})
    if not spawn_tiles:
        problems.append("the world has no spawn tile")
    for y, row in enumerate(maze.tiles):
        for x, tile in enumerate(row):
            if tile["game_object"] and tile["collision"]:
                problems.append(f"object tile ({x}, {y}) '{tile['game_object']}' is a collision tile")
            if tile["game_object"] and not tile["arena"]:
                problems.append(f"object tile ({x}, {y}) '{tile['game_object']}' is in no arena")
            if tile["spawning_location"] and tile["collision"]:
                problems.append(f"spawn tile ({x}, {y}) is a collision tile")
    regions: list[dict] = []  # spawns in one connected region reach the same tiles
    for spawn in spawn_tiles:
        reach = next((r for r in regions if spawn in r), None)
        if reach is None:
            reach = distances(maze, spawn)
            regions.append(reach)
        for arena in sorted(arenas):
            if not any(t in reach for t in maze.address_tiles[arena]):
                problems.append(f"arena '{arena}' cannot be reached from spawn tile {spawn}")
    return problems


def check_tables(maze: Maze, assets_dir: Path) -> list[str]:
    """Arenas and objects named in the block tables that no tile of the maze carries."""
    special = Path(assets_dir) / maze.maze_name / "matrix" / "special_blocks"
    used_arenas = {(t["sector"], t["arena"]) for row in maze.tiles for t in row if t["arena"]}
    used_objects = {t["game_object"] for row in maze.tiles for t in row if t["game_object"]}
    problems = []
    for row in blocks.read_rows(special / blocks.BLOCK_TABLES["arena"]):
        if (row[-2], row[-1]) not in used_arenas:
            problems.append(f"arena '{row[-2]}:{row[-1]}' of the block table has no tile")
    for row in blocks.read_rows(special / blocks.BLOCK_TABLES["game_object"]):
        if row[-1] not in used_objects:
            problems.append(f"object '{row[-1]}' of the block table has no tile")
    return problems


def check_persona(maze: Maze, name: str, scratch: dict, spatial: dict) -> list[str]:
    problems = []
    living = scratch.get("living_area") or ""
    if living not in maze.address_tiles:
        problems.append(f"{name}: living area '{living}' is not in the world")
    for world, sectors in spatial.items():
        for sector, arenas in sectors.items():
            for arena, objects in arenas.items():
                address = f"{world}:{sector}:{arena}"
                if address not in maze.address_tiles:
                    problems.append(f"{name}: known arena '{address}' is not in the world")
                    continue
                for obj in objects:
                    if f"{address}:{obj}" not in maze.address_tiles:
                        problems.append(f"{name}: known object '{address}:{obj}' is not in the world")
    return problems


def check_simulation(assets_dir: Path, storage_dir: Path, sim_code: str) -> list[str]:
    """Load a simulation's maze and personas and check them all."""
    sim = Path(storage_dir) / sim_code
    meta = json.loads((sim / "reverie" / "meta.json").read_text(encoding="utf-8"))
    maze = Maze.load(assets_dir, meta["maze_name"])
    problems = check_maze(maze) + check_tables(maze, assets_dir)
    env_file = sim / "environment" / "0.json"
    env = json.loads(env_file.read_text(encoding="utf-8")) if env_file.exists() else {}
    for name in meta["persona_names"]:
        mem = sim / "personas" / name / "bootstrap_memory"
        scratch = json.loads((mem / "scratch.json").read_text(encoding="utf-8"))
        spatial = json.loads((mem / "spatial_memory.json").read_text(encoding="utf-8"))
        problems += check_persona(maze, name, scratch, spatial)
        if name in env:
            tile = (env[name]["x"], env[name]["y"])
            if not maze.in_bounds(tile) or maze.is_blocked(tile):
                problems.append(f"{name}: start tile {tile} is outside the map or blocked")
    return problems


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m reverie.world.checks`` (also read by the docs' reference)."""
    parser = argparse.ArgumentParser(prog="python -m reverie.world.checks", description=__doc__.splitlines()[0])
    parser.add_argument("sim_code", help="the simulation to check (a folder of the storage folder)")
    parser.add_argument("--config", help="config file")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from reverie.config import load_settings

    settings = load_settings(args.config, check_files=False)
    problems = check_simulation(settings.paths.assets, settings.paths.storage, args.sim_code)
    for line in problems:
        print(line)
    print("ok" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
