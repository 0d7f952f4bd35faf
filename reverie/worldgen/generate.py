"""Write the default world, Willow Creek, with everything it needs, from code.

    python -m reverie.worldgen.generate [--assets DIR] [--storage DIR]

Writes (deterministically: the same bytes on every run)
  <assets>/willow_creek/matrix/...           the maze in the original matrix format
  <assets>/willow_creek/visuals/...          the Tiled map and its tileset images
  <assets>/willow_creek/agent_history_init_n3.csv
  <assets>/characters/...                    sprite sheets, atlas.json, portraits
  <assets>/speech_bubble/v3.png
  <storage>/base_willow_creek/...            the base simulation with three personas
and the same for the town grown for 25 residents: <assets>/willow_creek_n25/...,
<assets>/willow_creek_n25/agent_history_init_n25.csv, <storage>/base_willow_creek_n25/...
(with reverie/seeds.json: statements whispered at the start, and what evaluation asks), and for
Alder Bay, a second town of 12 residents described in prose: <assets>/alder_bay/...,
<storage>/base_alder_bay/... (with its seeds).
Defaults are the ``[paths]`` of the config file.
"""

from __future__ import annotations

import argparse
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import Image

from reverie.world import blocks
from reverie.worldgen import base_sim, build, town, town_alder, town_n25
from reverie.worldgen import tiled as tl
from reverie.worldgen.art import characters
from reverie.worldgen.personas_alder import PERSONAS_ALDER
from reverie.worldgen.personas_alder import SEEDS as ALDER_SEEDS
from reverie.worldgen.personas_data import PERSONAS
from reverie.worldgen.personas_n25 import PERSONAS_N25, SEEDS


class Writer:
    """Writes files and remembers them; a file whose bytes are unchanged is not touched."""

    def __init__(self) -> None:
        self.written: list[Path] = []

    def bytes(self, path: Path, data: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        self.written.append(path)

    def text(self, path: Path, text: str) -> None:
        self.bytes(path, text.encode("utf-8"))

    def json(self, path: Path, obj: Any, compact: bool = False) -> None:
        text = json.dumps(obj, separators=(",", ":")) if compact else json.dumps(obj, indent=2)
        self.text(path, text + "\n")

    def png(self, path: Path, img: Image.Image) -> None:
        buf = io.BytesIO()
        img.save(buf, format="PNG")
        self.bytes(path, buf.getvalue())


def write_world(out: Writer, maze_dir: Path, plan: town.TownPlan = town.WILLOW_CREEK) -> build.WorldGrid:
    g = build.build(plan)
    gids = tl.first_gids(g)
    b = tl.assign_blocks(g, gids[tl.BLOCKS_NAME])
    grids = tl.block_grids(g, b)
    matrix = maze_dir / "matrix"
    out.json(
        matrix / "maze_meta_info.json",
        {
            "world_name": g.world.lower(),
            "maze_width": g.width,
            "maze_height": g.height,
            "sq_tile_size": 32,
            "special_constraint": "",
        },
    )
    for layer in blocks.LAYERS:
        out.text(matrix / "maze" / f"{layer}_maze.csv", blocks.format_grid(grids[layer]))
    for table, rows in tl.block_tables(g, b).items():
        out.text(matrix / "special_blocks" / blocks.BLOCK_TABLES[table], blocks.format_rows(rows))
    visuals = maze_dir / "visuals"
    images = {ts.name: f"map_assets/{ts.name}.png" for ts in g.tilesets}
    images[tl.BLOCKS_NAME] = "map_assets/blocks.png"
    for ts in g.tilesets:
        out.png(visuals / images[ts.name], ts.image())
    out.png(visuals / images[tl.BLOCKS_NAME], tl.blocks_image(b))
    out.json(visuals / f"{plan.maze_name}.json", tl.tiled_map(g, b, grids, images), compact=True)
    return g


def generate(assets: Path, storage: Path) -> list[Path]:
    """Write every file of the default world; returns the paths written."""
    out = Writer()
    maze_dir = Path(assets) / town.MAZE_NAME
    g = write_world(out, maze_dir)
    characters.write_all(out, Path(assets), PERSONAS)
    base_sim.write(out, Path(storage), g, PERSONAS)
    base_sim.write_history(out, maze_dir / "agent_history_init_n3.csv", PERSONAS)
    write_n25(out, Path(assets), Path(storage))
    write_alder(out, Path(assets), Path(storage))
    return out.written


def write_n25(out: Writer, assets: Path, storage: Path) -> None:
    """The town grown for 25 residents, its base simulation and history."""
    _write_town(out, assets, storage, town_n25.WILLOW_CREEK_N25, PERSONAS_N25, SEEDS)


def write_alder(out: Writer, assets: Path, storage: Path) -> None:
    """Alder Bay, the second town (residents described in prose), its base simulation and history."""
    _write_town(out, assets, storage, town_alder.ALDER_BAY, PERSONAS_ALDER, ALDER_SEEDS)


def _write_town(
    out: Writer, assets: Path, storage: Path, plan: town.TownPlan, personas: Sequence[Any], seeds: Sequence[Any]
) -> None:
    """A generated town's world, characters, base simulation and history file."""
    maze_dir = assets / plan.maze_name
    g = write_world(out, maze_dir, plan)
    characters.write_all(out, assets, personas)
    base_sim.write(
        out,
        storage,
        g,
        personas,
        sim_code=f"base_{plan.maze_name}",
        maze_name=plan.maze_name,
        shared_homes=plan.shared_homes,
        seeds=seeds,
    )
    base_sim.write_history(out, maze_dir / f"agent_history_init_n{len(personas)}.csv", personas)


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m reverie.worldgen.generate`` (also read by the docs' reference)."""
    parser = argparse.ArgumentParser(prog="python -m reverie.worldgen.generate", description=__doc__.splitlines()[0])
    parser.add_argument("--assets", type=Path, help="assets folder (default: [paths] assets)")
    parser.add_argument("--storage", type=Path, help="storage folder (default: [paths] storage)")
    parser.add_argument("--config", help="config file")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.assets is None or args.storage is None:
        from reverie.config import load_settings

        settings = load_settings(args.config, check_files=False)
        args.assets = args.assets or settings.paths.assets
        args.storage = args.storage or settings.paths.storage
    written = generate(args.assets, args.storage)
    print(f"wrote {len(written)} files of the default world under {args.assets} and {args.storage}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
