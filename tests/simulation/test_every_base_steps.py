"""Every shipped base simulation forks and steps (after Mesa's "step every example").

Each `storage/base_*` we ship, and the original's the_ville when a clone of it lies beside the
project (imported as a user would, with `assets import`), is forked into a temporary folder
and run a few steps on the fake chat model (reverie.llm.fake_model.FakeChatModel, not a real
model: a fast smoke test):

- fail-safe only, from the base's own start (the night) and from 8 am (the day's actions):
  no reply ever validates, so every ask ends in its fail-safe;
- fixture replies, from 8 am: each prompt gets the valid replies of its fixture file, so
  some asks validate and their answers flow on through cognition (the rest end in their
  fail-safes).

Each step must write its movement file, with every persona on a tile of the map.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.llm import LLM
from reverie.llm.fake_model import FakeChatModel
from reverie.simulation.simulation import Simulation
from reverie.prompt_tools.fixtures import fixture_names, load_fixture
from reverie.tasks.registry import product_tasks
from reverie.worldgen import assets_import

STEPS = 3
SMALLVILLE = PROJECT_ROOT.parent / "shared" / "smallville"  # a clone of the original's data, if any
SHIPPED_STORAGE = PROJECT_ROOT / "environment" / "frontend_server" / "storage"
SHIPPED = sorted(
    p.name
    for p in SHIPPED_STORAGE.glob("base_*")
    if (p / "reverie" / "meta.json").is_file() and p.name != assets_import.BASE_SIM
)
THE_VILLE = assets_import.BASE_SIM  # the original's base, run only from a clone beside the project


def fixture_replies() -> dict[str, list]:
    """Per prompt, the valid replies of its fixture file."""
    return {name: load_fixture(name).valid for name in fixture_names() if load_fixture(name).valid}


def settings_in(root: Path):
    """The project's defaults with storage in ``root``."""
    s = load_settings(PROJECT_ROOT / "config.toml").model_copy(deep=True)
    s.paths.storage, s.paths.temp_storage = root / "storage", root / "temp_storage"
    s.paths.storage.mkdir(parents=True)
    s.simulation.schedule_passes, s.simulation.autosave_every = 1, 0
    return s


def prepare(base: str, root: Path):
    """Settings whose storage holds ``base``: a shipped one linked in (never written), or the
    original imported from the clone into assets and storage of their own."""
    s = settings_in(root)
    if base != THE_VILLE:
        (s.paths.storage / base).symlink_to(SHIPPED_STORAGE / base, target_is_directory=True)
        return s
    if not (SMALLVILLE / "storage" / THE_VILLE).is_dir():
        pytest.skip(f"no clone of the original at {SMALLVILLE}")
    clone = root / "clone" / "environment" / "frontend_server"
    clone.mkdir(parents=True)
    for part in ("static_dirs", "storage"):
        (clone / part).symlink_to(SMALLVILLE / part, target_is_directory=True)
    s.paths.assets = root / "assets"
    assets_import.import_original(clone, s.paths.assets, s.paths.storage)
    return s


@pytest.mark.parametrize(
    ("replies", "start"),
    [("fail_safe_only", None), ("fail_safe_only", "08:00"), ("fixture_replies", "08:00")],
    ids=["fail_safe_only-from_its_start", "fail_safe_only-from_8am", "fixture_replies-from_8am"],
)
@pytest.mark.parametrize("base", [*SHIPPED, THE_VILLE])
def test_every_base_forks_and_steps_on_the_fake_model(base, replies, start, tmp_path):
    s = prepare(base, tmp_path)
    model = FakeChatModel(replies=fixture_replies() if replies == "fixture_replies" else None)
    sim = Simulation.fork(
        s,
        base,
        "smoke",
        start=start,
        llm=LLM(
            s,
            tasks=product_tasks(),
            chat_models={"strong": model, "cheap": model},
            ledger_path=tmp_path / "calls.jsonl",
        ),
    )
    first = sim.step_no
    try:
        assert sim.run(STEPS) == STEPS
        names, maze = sim.persona_names, sim.maze
    finally:
        sim.close()
    assert names and model.call_count > 0
    movement_dir = s.paths.storage / "smoke" / "movement"
    steps = range(first, first + STEPS)
    assert sorted(p.name for p in movement_dir.iterdir()) == sorted(f"{step}.json" for step in steps)
    for step in steps:
        movement = json.loads((movement_dir / f"{step}.json").read_text(encoding="utf-8"))["persona"]
        assert sorted(movement) == sorted(names), f"step {step}"
        for name, entry in movement.items():
            tile = tuple(entry["movement"])
            assert maze.in_bounds(tile) and not maze.is_blocked(tile), f"step {step}: {name} on {tile}"
    ledger = [json.loads(line) for line in (tmp_path / "calls.jsonl").read_text(encoding="utf-8").splitlines()]
    if replies == "fail_safe_only":
        assert ledger and all(line["fallback"] for line in ledger)
    else:
        assert any(not line["fallback"] for line in ledger), "some fixture reply was taken"
