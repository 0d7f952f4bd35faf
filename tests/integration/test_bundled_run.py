"""Whole runs of the 3-agent base of the original release.

One real run with the bundled model (recorded to a cassette); the other runs replay its
recorded replies, so they take the same decisions without loading the model.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time

import pytest

from reverie import PROJECT_ROOT
from reverie.memory import PersonaMemory
from reverie.world.maze import Maze

from tests.the_ville_run import BASE, NAMES, STEPS, make_village, replayed_server, reverie_argv, reverie_cmd

# The recorded run loads the bundled model: about half an hour on 2 busy cores.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(5400)]


@pytest.fixture(scope="module")
def recorded(the_ville_recording):
    """30 steps with the bundled model, recorded once per session: (config, storage, cassette, seconds)."""
    return the_ville_recording


def replaying(recorded, *args: str) -> list[str]:
    """The command line of a run on the recorded replies: ``run ARGS... --replay CASSETTE --no-progress``."""
    config, _, cassette, _ = recorded
    return reverie_argv(config, "run", *args, "--replay", str(cassette), "--no-progress")


def replayed_run(config, cassette, *args: str):
    """``run ARGS... --replay CASSETTE --no-progress`` under ``config``, which must succeed."""
    proc = reverie_cmd(config, "run", *args, "--replay", str(cassette), "--no-progress", timeout=1200)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


def movement_files(sim_dir):
    return sorted((sim_dir / "movement").glob("*.json"), key=lambda p: int(p.stem))


def test_thirty_headless_steps_with_the_bundled_model(recorded, smallville_dir):
    """The session's real run (the recording the other tests replay): 30 steps on the bundled
    model's own decisions give valid moves, memories, a ledger and a timeline."""
    config, storage, cassette, _ = recorded
    sim = storage / "rec"
    maze = Maze.load(smallville_dir / "static_dirs" / "assets", "the_ville")
    files = movement_files(sim)
    assert [int(p.stem) for p in files] == list(range(STEPS))
    for path in files:
        data = json.loads(path.read_text())
        assert set(data["persona"]) == set(NAMES)
        assert data["meta"]["curr_time"].startswith("February 13, 2023, 00:")
        for name, move in data["persona"].items():
            x, y = move["movement"]
            assert maze.in_bounds((x, y)) and not maze.is_blocked((x, y)), (path.name, name, x, y)
            action, _, address = move["description"].partition(" @ ")
            assert action.strip() and address.startswith(("the Ville:", "<persona>", "<waiting>")), move
            assert move["pronunciatio"]
    meta = json.loads((sim / "reverie" / "meta.json").read_text())
    assert meta["step"] == STEPS and meta["fork_sim_code"] == BASE
    for name in NAMES:
        memory = PersonaMemory.load(sim / "personas" / name / "bootstrap_memory")
        assert memory.scratch.name == name and memory.scratch.f_daily_schedule
        assert memory.associative.seq_event, f"{name} remembers no event"
    ledger = [json.loads(line) for line in (sim / "reverie" / "llm_calls.jsonl").read_text().splitlines()]
    assert ledger and {"prompt", "persona", "step", "attempts"} <= set(ledger[0])
    assert "## Monday February 13, 2023" in (sim / "timeline.md").read_text()
    assert cassette.stat().st_size > 0


def test_replayed_run_writes_byte_identical_movement(recorded):
    config, storage, cassette, _ = recorded
    replayed_run(config, cassette, "--sim", "replayed", "--overwrite", "--steps", str(STEPS))
    original = [p.read_bytes() for p in movement_files(storage / "rec")]
    replayed = [p.read_bytes() for p in movement_files(storage / "replayed")]
    assert len(replayed) == STEPS and replayed == original


def test_kill_9_then_resume(recorded):
    config, storage, cassette, _ = recorded
    sim = storage / "killed"
    shutil.rmtree(sim, ignore_errors=True)  # an earlier run's files would end the wait below at once
    cmd = replaying(recorded, "--sim", "killed", "--overwrite", "--steps", str(STEPS))
    proc = subprocess.Popen(cmd, cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 900
        # Replayed steps without model calls take milliseconds: kill early enough that the
        # run is surely not over, wherever between two autosaves the kill lands.
        while not (sim / "movement" / "12.json").exists():
            assert proc.poll() is None, "the run ended before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    for path in sim.rglob("*.json"):
        if "chroma" not in path.parts:
            json.loads(path.read_text())  # no half-written JSON anywhere
    saved_step = json.loads((sim / "reverie" / "meta.json").read_text())["step"]
    assert 0 < saved_step < STEPS and not (sim / "movement" / f"{STEPS - 1}.json").exists(), saved_step

    replayed_run(config, cassette, "--resume", "killed", "--steps", str(STEPS - saved_step))
    files = movement_files(sim)
    assert [int(p.stem) for p in files] == list(range(STEPS))
    assert [p.read_bytes() for p in files] == [p.read_bytes() for p in movement_files(storage / "rec")]
    assert json.loads((sim / "reverie" / "meta.json").read_text())["step"] == STEPS
    assert not list(sim.rglob(".*.tmp"))


def test_fin_then_fork_the_saved_simulation(recorded):
    config, storage, cassette, _ = recorded
    proc = reverie_cmd(
        config,
        *replayed_server(BASE, "part1", cassette, "run 3", "fin"),
        "--overwrite",
        "--headless",
        input="",
        timeout=1200,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "Enter option: fin" in proc.stdout
    part1 = storage / "part1"
    assert json.loads((part1 / "reverie" / "meta.json").read_text())["step"] == 3
    nodes1 = {
        name: json.loads(
            (part1 / "personas" / name / "bootstrap_memory" / "associative_memory" / "nodes.json").read_text()
        )
        for name in NAMES
    }
    assert all(nodes1.values())

    replayed_run(config, cassette, "--fork", "part1", "--sim", "part2", "--overwrite", "--steps", "2")
    part2 = storage / "part2"
    meta = json.loads((part2 / "reverie" / "meta.json").read_text())
    assert meta["step"] == 5 and meta["fork_sim_code"] == "part1"
    assert [int(p.stem) for p in movement_files(part2)] == list(range(5))
    for name in NAMES:
        nodes2 = json.loads(
            (part2 / "personas" / name / "bootstrap_memory" / "associative_memory" / "nodes.json").read_text()
        )
        for node_id, node in nodes1[name].items():
            assert nodes2[node_id] == node  # memories kept
    # The continued run took the same course as the uninterrupted one.
    assert (part2 / "movement" / "4.json").read_bytes() == (storage / "rec" / "movement" / "4.json").read_bytes()
    # The saved simulation itself was not touched by the fork.
    assert json.loads((part1 / "reverie" / "meta.json").read_text())["step"] == 3


def test_live_mode_waits_for_the_browser(recorded):
    """The file protocol: the backend processes step s only once environment/<s>.json exists."""
    config, storage, _, _ = recorded
    sim = storage / "live"
    cmd = replaying(recorded, "--live", "--sim", "live", "--overwrite", "--steps", "3")
    proc = subprocess.Popen(cmd, cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for step in range(3):
            deadline = time.monotonic() + 600
            while not (sim / "movement" / f"{step}.json").exists():
                assert proc.poll() is None, proc.stderr.read()[-2000:]
                assert time.monotonic() < deadline
                time.sleep(0.05)
            time.sleep(0.5)
            assert not (sim / "movement" / f"{step + 1}.json").exists()  # it waits for the browser
            moves = json.loads((sim / "movement" / f"{step}.json").read_text())["persona"]
            env = {n: {"maze": "the_ville", "x": m["movement"][0], "y": m["movement"][1]} for n, m in moves.items()}
            (sim / "environment" / f"{step + 1}.json").write_text(json.dumps(env))
        assert proc.wait(timeout=600) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    temp = config.parent / "temp_storage"
    assert json.loads((temp / "curr_sim_code.json").read_text()) == {"sim_code": "live"}
    assert "step" in json.loads((temp / "curr_step.json").read_text())
    for step in range(3):
        assert (sim / "movement" / f"{step}.json").read_bytes() == (
            storage / "rec" / "movement" / f"{step}.json"
        ).read_bytes()


def test_ctrl_c_saves_the_last_complete_step(recorded):
    _, storage, _, _ = recorded
    sim = storage / "interrupted"
    shutil.rmtree(sim, ignore_errors=True)  # an earlier run's files would end the wait below at once
    cmd = replaying(recorded, "--sim", "interrupted", "--overwrite", "--steps", str(STEPS))
    proc = subprocess.Popen(cmd, cwd=PROJECT_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 600
    while not (sim / "movement" / "2.json").exists():
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=600) == 130, proc.stderr.read()[-2000:]
    steps = [int(p.stem) for p in movement_files(sim)]
    meta = json.loads((sim / "reverie" / "meta.json").read_text())
    assert steps == list(range(meta["step"])) and 3 <= meta["step"] < STEPS


def test_imported_original_runs_like_the_linked_one(recorded, tmp_path, smallville_dir):
    """`assets import` from a clone laid out like the original repository, then 5 headless
    steps on the_ville: the replayed decisions give the same movement as the recorded run."""
    _, storage, cassette, _ = recorded
    front = tmp_path / "clone" / "environment" / "frontend_server"
    front.mkdir(parents=True)
    (front / "static_dirs").symlink_to(smallville_dir / "static_dirs", target_is_directory=True)
    (front / "storage").symlink_to(smallville_dir / "storage", target_is_directory=True)
    home = tmp_path / "home"
    config = home / "config.toml"
    home.mkdir()
    config.write_text(
        "[paths]\n"
        f'assets = "{home / "assets"}"\nstorage = "{home / "storage"}"\n'
        f'temp_storage = "{home / "temp"}"\ncompressed_storage = "{home / "compressed"}"\n'
        f'prompts = "{PROJECT_ROOT / "prompts"}"\n',
        encoding="utf-8",
    )
    imported = reverie_cmd(config, "assets", "import", str(tmp_path / "clone"), timeout=600)
    assert imported.returncode == 0, imported.stderr
    assert (
        not (home / "assets" / "the_ville").is_symlink()
        and (home / "storage" / BASE / "reverie" / "meta.json").is_file()
    )

    steps = 5
    replayed_run(config, cassette, "--fork", BASE, "--sim", "imported", "--steps", str(steps))
    ours = [p.read_bytes() for p in movement_files(home / "storage" / "imported")]
    assert len(ours) == steps and ours == [p.read_bytes() for p in movement_files(storage / "rec")][:steps]
