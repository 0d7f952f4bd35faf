"""A village for whole runs: the original the_ville assets and 3-agent base, in a temp folder."""

from __future__ import annotations

import pytest

from reverie.config import load_settings
from tests.the_ville_run import BASE, NAMES, make_village, reverie_cmd  # noqa: F401  (used by the tests here)


@pytest.fixture
def village(tmp_path, smallville_dir):
    return make_village(tmp_path / "village", smallville_dir)


@pytest.fixture
def settings(village):
    return load_settings(village)
