"""Shared fixtures: where the original Smallville data lives, and the settings of a test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

SHARED = PROJECT_ROOT.parent / "shared"
SMALLVILLE = SHARED / "smallville"


@pytest.fixture(scope="session")
def smallville_dir() -> Path:
    """The original release's data (kept beside the clone for compatibility tests only)."""
    if not SMALLVILLE.is_dir():
        pytest.fail(f"the original Smallville data is expected at {SMALLVILLE}")
    return SMALLVILLE


@pytest.fixture
def write_config(tmp_path):
    """Write a config.toml into tmp_path (text given) and return its path."""

    def _write(text: str = "", name: str = "config.toml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return _write


@pytest.fixture(scope="session")
def the_ville_recording(tmp_path_factory, smallville_dir):
    """One real run of the original 3-agent base with the bundled model, recorded once per
    session: (config, storage, cassette, seconds). See tests/the_ville_run.py."""
    from tests.the_ville_run import record_the_ville

    return record_the_ville(tmp_path_factory.mktemp("the_ville_recording"), smallville_dir)


@pytest.fixture(scope="session")
def readme_first_run(tmp_path_factory):
    """The README's first command on the bundled model, run once per session (a
    tests.willow_run.FirstRun): the first-run test checks its morning, the capture test reads
    its trace."""
    from tests.willow_run import run_the_readme_first_command

    return run_the_readme_first_command(tmp_path_factory.mktemp("readme_first_run"))


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    """(assets, storage) folders with a freshly generated default world (the world and worldgen tests)."""
    from reverie.worldgen.generate import generate

    root = tmp_path_factory.mktemp("generated")
    generate(root / "assets", root / "storage")
    return root / "assets", root / "storage"
