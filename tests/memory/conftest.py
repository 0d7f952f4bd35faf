"""Fixtures of the memory tests: the 3-agent base simulation and a memory with chosen vectors."""

from __future__ import annotations

from pathlib import Path

import pytest

from reverie.config import Settings
from memory_helpers import BASE_SIM, PERSONAS
from reverie.memory import VectorIndex


@pytest.fixture(scope="session")
def base_personas(smallville_dir) -> dict[str, Path]:
    """name -> the original bootstrap_memory folder (read only)."""
    root = smallville_dir / "storage" / BASE_SIM / "personas"
    return {name: root / name / "bootstrap_memory" for name in PERSONAS}


@pytest.fixture
def index(tmp_path) -> VectorIndex:
    """A real Chroma store in a fresh simulation folder."""
    return VectorIndex(Settings(), tmp_path / "sim")
