"""A village for whole runs: the original the_ville assets and 3-agent base, in a temp folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings

BASE = "base_the_ville_isabella_maria_klaus"
NAMES = ["Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"]


def make_village(root: Path, smallville: Path, *, autosave_every: int = 5) -> Path:
    """assets/ and storage/ that link to the original data (never copied), and a config.toml."""
    assets, storage = root / "assets", root / "storage"
    assets.mkdir(parents=True)
    storage.mkdir()
    for item in (smallville / "static_dirs" / "assets").iterdir():
        (assets / item.name).symlink_to(item)
    (storage / BASE).symlink_to(smallville / "storage" / BASE)
    config = root / "config.toml"
    config.write_text(
        "[paths]\n"
        f'assets = "{assets}"\nstorage = "{storage}"\n'
        f'temp_storage = "{root / "temp_storage"}"\ncompressed_storage = "{root / "compressed"}"\n'
        f'prompts = "{PROJECT_ROOT / "prompts"}"\n'
        "[simulation]\n"
        f'default_fork = "{BASE}"\nautosave_every = {autosave_every}\n'
        "schedule_passes = 1\n",  # one planning pass keeps the real-model runs short
        encoding="utf-8",
    )
    return config


@pytest.fixture
def village(tmp_path, smallville_dir):
    return make_village(tmp_path / "village", smallville_dir)


@pytest.fixture
def settings(village):
    return load_settings(village)


def reverie_cmd(config: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    """``python -m reverie --config CONFIG ARGS...`` in a child process."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.run([sys.executable, "-m", "reverie", "--config", str(config), *args],
                          cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, **kwargs)
