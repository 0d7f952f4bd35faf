"""Fixtures of the world tests: the original maze (the generated world is in tests/conftest.py)."""

from __future__ import annotations

import pytest

from reverie.world.maze import Maze


@pytest.fixture(scope="session")
def the_ville(smallville_dir) -> Maze:
    return Maze.load(smallville_dir / "static_dirs" / "assets", "the_ville")
