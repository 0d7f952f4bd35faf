"""Fixtures of the world tests: the original maze, and the default world generated once."""

from __future__ import annotations

import pytest

from reverie.worldgen.generate import generate
from reverie.world.maze import Maze


@pytest.fixture(scope="session")
def the_ville(smallville_dir) -> Maze:
    return Maze.load(smallville_dir / "static_dirs" / "assets", "the_ville")


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    """(assets, storage) folders with a freshly generated default world."""
    root = tmp_path_factory.mktemp("generated")
    generate(root / "assets", root / "storage")
    return root / "assets", root / "storage"
