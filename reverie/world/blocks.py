"""Reading and writing the original matrix files.

Quirks of the format (kept when writing, tolerated when reading): values separated by
``", "``, no newline at the end of a file, fields that may carry stray spaces.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from reverie.errors import UserError

LAYERS = ("collision", "sector", "arena", "game_object", "spawning_location")
BLOCK_TABLES = {
    "world": "world_blocks.csv",
    "sector": "sector_blocks.csv",
    "arena": "arena_blocks.csv",
    "game_object": "game_object_blocks.csv",
    "spawning_location": "spawning_location_blocks.csv",
}


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"missing world file {path} — import or generate the world first") from None


def read_meta(matrix_dir: Path) -> dict:
    path = matrix_dir / "maze_meta_info.json"
    try:
        return json.loads(_read(path))
    except json.JSONDecodeError as exc:
        raise UserError(f"{path} is not valid JSON ({exc})") from None


def read_grid(path: Path, width: int, height: int) -> list[list[str]]:
    """One line of width*height ids -> rows[y][x] of stripped strings."""
    cells = [c.strip() for c in _read(path).split(",")]
    if cells and cells[-1] == "":
        cells.pop()
    if len(cells) != width * height:
        raise UserError(f"{path} has {len(cells)} cells, expected {width}x{height}={width * height}")
    return [cells[y * width : (y + 1) * width] for y in range(height)]


def read_rows(path: Path) -> list[list[str]]:
    """A header-less block table -> rows of stripped fields (blank lines skipped)."""
    rows = []
    for line in _read(path).splitlines():
        if line.strip():
            rows.append([field.strip() for field in line.split(",")])
    return rows


def read_names(path: Path) -> dict[str, str]:
    """Block table -> {id: name}. Like the original, keep only the first and last field."""
    return {row[0]: row[-1] for row in read_rows(path)}


def format_grid(rows: Sequence[Sequence[int | str]]) -> str:
    return ", ".join(str(v) for row in rows for v in row)


def format_rows(rows: Sequence[Sequence[int | str]]) -> str:
    return "\n".join(", ".join(str(v) for v in row) for row in rows)
