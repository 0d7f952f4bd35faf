"""The README's first command (its `run` part, exactly as written there) on the bundled model:
a morning in Willow Creek where all three residents wake, leave home, and two of them meet
(in a shared place, or anywhere they stop to talk). Checked in the run's movement files and its timeline."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.tasks.day_rules import is_sleeping
from reverie.world.maze import Maze
from tests.willow_run import BASE, readme_run_args

ASSETS = PROJECT_ROOT / "environment" / "frontend_server" / "static_dirs" / "assets"


def test_the_readme_first_command_runs_a_morning():
    args = readme_run_args()
    assert args[0] == "run" and "--start" in args and "--compress" in args


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_the_readme_first_command_shows_a_morning_where_residents_wake_leave_home_and_meet(readme_first_run):
    """The model's behaviour is the point: on the bundled model's own decisions, every resident
    wakes, leaves home, and two meet: in a shared place, or talking wherever they met (a real run,
    shared with the capture test)."""
    run, storage = readme_first_run.run, readme_first_run.storage
    print(run.stdout)
    assert run.returncode == 0, run.stderr[-3000:]
    (sim,) = [p for p in storage.iterdir() if p.name != BASE]
    maze = Maze.load(ASSETS, "willow_creek")
    steps = sorted(int(p.stem) for p in (sim / "movement").glob("*.json"))
    assert steps and steps[0] > 0  # the clock was moved to the morning, and compress took it

    import json

    awake, outside, sectors_at, talking = set(), set(), [], []
    for step in steps:
        persona = json.loads((sim / "movement" / f"{step}.json").read_text())["persona"]
        here = {}
        talking.append(sum(1 for move in persona.values() if move["description"].startswith("conversing about")))
        for name, move in persona.items():
            if not is_sleeping(move["description"].split(" @ ")[0]):
                awake.add(name)
            sector = maze.access_tile(tuple(move["movement"])).get("sector", "")
            if sector != f"{name}'s house":
                outside.add(name)
            here[name] = sector
        sectors_at.append(here)
    names = set(sectors_at[0])
    assert awake == names, f"still asleep: {names - awake}"
    assert outside == names, f"never left home: {names - outside}"
    met = [
        (step, sector)
        for step, here in zip(steps, sectors_at)
        for sector in set(here.values())
        if sector and not sector.endswith("'s house") and sum(1 for s in here.values() if s == sector) >= 2
    ]
    # Meeting: two in one shared place, or two talking (where they met: a street counts)
    assert met or max(talking) >= 2, "no two residents were ever in the same shared place, and none talked"

    timeline = (sim / "timeline.md").read_text(encoding="utf-8")
    for name in names:
        lines = re.findall(rf"\*\*{re.escape(name)}\*\* [^:]*: (.+)", timeline)
        assert any(not is_sleeping(line.split(" @ ")[0]) for line in lines), f"the timeline never shows {name} awake"
    assert "what happened:" in run.stdout and f"/demo/{sim.name}/{steps[0]}/3/" in run.stdout


def test_a_bad_start_time_is_one_line_naming_the_format(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(f'[paths]\nstorage = "{tmp_path / "storage"}"\n', encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "reverie", "--config", str(config), "run", "--start", "25:00", "--steps", "1"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert "--start '25:00': give a time of day as HH:MM" in run.stderr
    assert not (tmp_path / "storage").exists() or not any((tmp_path / "storage").iterdir())  # nothing was forked


def test_a_run_without_a_name_gets_one_that_is_not_a_base_name():
    from reverie.console.runner import generated_name
    from reverie.simulation.storage import check_sim_name, is_base, SimStorage

    name = generated_name(BASE)
    assert re.fullmatch(r"willow_creek-\d{8}-\d{6}", name)
    check_sim_name(name)
    assert not is_base(SimStorage(Path("/nonexistent"), name))
