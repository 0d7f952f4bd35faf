"""Nora Bennett of our base world, loaded from a copy of her files, and the world's map."""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.memory import Embedder
from reverie.persona.options import CognitionOptions
from reverie.persona.persona import Persona
from reverie.world.maze import Maze

NAME = "Nora Bennett"
MORNING = datetime(2023, 2, 13, 9, 0)


@pytest.fixture(scope="module")
def world():
    settings = load_settings(PROJECT_ROOT / "config.toml")
    return settings, Maze.load(settings.paths.assets, "willow_creek")


def load_nora(settings, tmp_path: Path, options: CognitionOptions = CognitionOptions()) -> Persona:
    """Nora at 9 am on a tile of the map, from a copy of the base world's files in ``tmp_path``."""
    folder = tmp_path / "bootstrap_memory"
    shutil.copytree(settings.paths.storage / "base_willow_creek" / "personas" / NAME / "bootstrap_memory", folder)
    persona = Persona.load(NAME, folder, embedder=Embedder(settings), options=options)
    persona.scratch.curr_time = MORNING
    persona.scratch.curr_tile = (10, 10)
    return persona
