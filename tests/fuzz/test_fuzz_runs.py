"""Whole fuzzed runs of the default town: two game days or more (until every stage was
reached) in process with the fuzzing chat model, and command-line runs against a failing
fake OpenAI-compatible server on loopback (HTTP errors, dropped connections, slow answers, then
no server at all, and a kill -9).

Both models are fakes for failure paths (tests/fuzz/fuzz_model.py, fake_server.py), not real
models. To fit two days in CI, a step is 10 game minutes (``sec_per_step = 600`` in the fork's
meta.json): 144 steps a day instead of 8,640, the same stages (new day, daytime,
conversations, reactions, reflection). Asserted: no exception escapes, no step hangs, every
JSON file and every ledger line parses, and ``run --resume`` continues.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.llm import LLM
from reverie.simulation.simulation import Simulation
from reverie.simulation.storage import SimStorage, fork
from reverie.tasks.registry import product_tasks
from tests.fuzz.fake_server import FakeServer
from tests.fuzz.fuzz_model import KINDS, FuzzChat
from tests.the_ville_run import reverie_argv, reverie_cmd

BASE = "base_willow_creek"
SHIPPED = PROJECT_ROOT / "environment" / "frontend_server" / "storage" / BASE
SEC_PER_STEP = 600
DAY = 24 * 3600 // SEC_PER_STEP
STEP_LIMIT_S = 60.0  # a hang, not a slow machine: the slowest step (the first: loading the embedder) takes ~10 CPU s


def town(root: Path, name: str, **simulation) -> tuple[Path, SimStorage]:
    """A config and a fork of the default town whose steps are ten game minutes."""
    storage = root / "storage"
    storage.mkdir(parents=True, exist_ok=True)
    (storage / BASE).symlink_to(SHIPPED, target_is_directory=True)
    sim = fork(storage, BASE, name)
    meta = sim.read_meta()
    sim.write_meta({**meta, "sec_per_step": SEC_PER_STEP})
    config = root / "config.toml"
    lines = [
        f'[paths]\nstorage = "{storage}"\ntemp_storage = "{root / "temp"}"\n',
        "[simulation]\nschedule_passes = 1\n" + "".join(f"{k} = {v}\n" for k, v in simulation.items()),
    ]
    config.write_text("".join(lines), encoding="utf-8")
    return config, sim


def check_files(sim: SimStorage) -> int:
    """Every JSON file of the simulation and every ledger line parses; returns how many files."""
    files = [p for p in sim.dir.rglob("*.json") if "chroma" not in p.parts]
    for path in files:
        json.loads(path.read_text(encoding="utf-8"))
    for line in sim.ledger_path.read_text(encoding="utf-8").splitlines():
        assert isinstance(json.loads(line), dict)
    return len(files)


def ledger_steps(sim: SimStorage) -> list:
    return [json.loads(line).get("step") for line in sim.ledger_path.read_text(encoding="utf-8").splitlines()]


# New day, daytime, conversation, reaction, reflection.
STAGES = (
    "wake_up_hour",
    "daily_plan",
    "identity_new_currently",
    "decide_to_talk",
    "iterative_chat_utterance",
    "decide_to_react",
    "focal_points",
    "insights",
)
# Fuzzed valid answers put an action at any known place (the grammar allows only real paths), so
# two residents come to one spot, and a reaction, less often than when a wrong place fell back to
# home or the named area: up to 20 days (the run stops at the first day after which all were seen;
# with seed 1 the first reaction came on day 16).
MAX_DAYS = 20


def missing_stages(sim: SimStorage) -> list[str]:
    """The stages no call of the ledger has asked yet."""
    asked = {json.loads(line).get("prompt") for line in sim.ledger_path.read_text(encoding="utf-8").splitlines()}
    return [stage for stage in STAGES if stage not in asked]


def assert_counted_once(sim: SimStorage) -> None:
    """No step's calls are in the ledger twice: the steps never go back."""
    steps = [s for s in ledger_steps(sim) if s is not None]
    assert steps == sorted(steps)


@pytest.mark.slow  # about 100 s: the embedding model and up to 20 fuzzed days
@pytest.mark.timeout(300)
def test_fuzzed_days_of_the_default_town_reach_every_stage(tmp_path):
    config, storage = town(tmp_path, "fuzzed", autosave_every=25)
    settings = load_settings(config)
    # One reply in three is valid (the kinds plus six more "valid"), so some days work out and
    # residents meet; the run goes on, a day at a time up to MAX_DAYS, until every stage below
    # was reached (a reaction is the rarest), so no lucky seed is needed.
    model = FuzzChat(seed=1, kinds=KINDS + ("valid",) * 6)
    llm = LLM(
        settings, tasks=product_tasks(), chat_models={"strong": model, "cheap": model}, ledger_path=storage.ledger_path
    )
    sim = Simulation.open(settings, "fuzzed", llm=llm)
    steps, slowest = 0, 0.0
    for day_steps in [2 * DAY + 10] + [DAY] * (MAX_DAYS - 2):  # never a multiple of autosave_every: see the kill
        if steps and not missing_stages(storage):
            break
        for _ in range(day_steps):
            started = time.process_time()  # CPU seconds: other processes on a busy machine do not count
            assert sim.run(1) == 1
            slowest = max(slowest, time.process_time() - started)
        steps += day_steps
    # A kill after the last autosave: the steps since are not in the checkpoint.
    killed_at, checkpoint = sim.step_no, sim.last_save_step
    sim.close()
    before = len(ledger_steps(storage))
    assert not missing_stages(storage), (missing_stages(storage), steps)
    assert slowest < STEP_LIMIT_S, f"a step took {slowest:.1f} CPU seconds"

    again = FuzzChat(seed=14)
    resumed = Simulation.open(
        settings,
        "fuzzed",
        resume=True,
        llm=LLM(
            settings,
            tasks=product_tasks(),
            chat_models={"strong": again, "cheap": again},
            ledger_path=storage.ledger_path,
        ),
    )
    assert resumed.step_no == checkpoint < killed_at
    after = len(ledger_steps(storage))
    assert all(s is None or s < checkpoint for s in ledger_steps(storage))
    assert resumed.run(5) == 5
    resumed.save()
    resumed.close()
    assert_counted_once(storage)
    files = check_files(storage)
    print(
        f"\nwhole-run fuzz: {steps + 5} steps ({(steps + 5) * SEC_PER_STEP / 86400:.1f} game days), "
        f"{model.replies + again.replies} replies, slowest step {slowest:.2f} CPU s, {files} JSON files parse; "
        f"ledger {before} lines at the kill (step {killed_at}), {after} after the rollback to step {checkpoint}"
    )


@pytest.mark.slow  # about 60 s: four command-line runs
@pytest.mark.timeout(420)
def test_a_run_against_a_failing_server_resumes_after_drops_a_kill_and_an_outage(tmp_path):
    # Slow answers come within the deadline (one past it is a lost server: the outage below).
    server = FakeServer(seed=7, slow_s=0.3).up()
    config, storage = town(tmp_path, "served", autosave_every=10)
    with config.open("a", encoding="utf-8") as fh:
        fh.write(
            f'[backend]\nkind = "openai"\nbase_url = "{server.base_url}"\ntimeout_s = 5\n'
            # About one request in ten fails: with 5 retries a call fails 6 times in a row about once in
            # a million calls, so the runs go on whatever the requests the kill's timing leaves to the dice.
            "retries = 5\nretry_pause_s = 0.01\n"
        )
    try:
        # Errors, drops and slow answers on a few percent of requests: retried, the run goes on.
        run = reverie_cmd(config, "run", "--resume", "served", "--steps", "40", "--no-progress", timeout=240)
        assert run.returncode == 0, run.stderr[-2000:]
        assert SimStorage(storage.root, "served").read_meta()["step"] == 40
        failures = sum(n for what, n in server.counts.items() if what != "reply")
        assert failures > 0

        # kill -9 mid-run, then resume: the ledger goes back to the checkpoint.
        child = subprocess.Popen(
            reverie_argv(config, "run", "--resume", "served", "--steps", "500", "--no-progress"),
            cwd=PROJECT_ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and child.poll() is None:
            saved = SimStorage(storage.root, "served").read_meta()["step"]
            if saved > 40 and sum(1 for s in ledger_steps(storage) if s is not None and s >= saved) >= 12:
                break  # a dozen calls made since the last autosave: they will be made again
            time.sleep(0.05)
        assert child.poll() is None, "the run ended before it could be killed"
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        at_kill = ledger_steps(storage)
        checkpoint = SimStorage(storage.root, "served").read_meta()["step"]
        kept = [s for s in at_kill if s is None or s < checkpoint]

        # The server goes away: the run stops with one line at the first step that asks, and that
        # step is not saved (no fail-safe of a missing server is kept). (The rollback has kept
        # exactly the lines of the steps before the checkpoint.)
        server.down()
        run = reverie_cmd(config, "run", "--resume", "served", "--steps", "20", "--no-progress", timeout=240)
        errors = [line for line in run.stderr.splitlines() if line.startswith("error:")]
        assert run.returncode == 2 and len(errors) == 1 and errors[0].startswith("error: [backend]"), run.stderr[-2000:]
        stopped = SimStorage(storage.root, "served").read_meta()["step"]
        assert checkpoint <= stopped < checkpoint + 20  # steps without calls (sleep) may have ran and been autosaved
        assert ledger_steps(storage) == kept, "no call of the failed step is kept"

        # Back up: resume starts from the last checkpoint and asks the failed step's prompts again.
        server.up()
        run = reverie_cmd(config, "run", "--resume", "served", "--steps", "10", "--no-progress", timeout=240)
        assert run.returncode == 0, run.stderr[-2000:]
        assert SimStorage(storage.root, "served").read_meta()["step"] == stopped + 10
        assert any(s is not None and s >= stopped for s in ledger_steps(storage)), "asked again"
    finally:
        server.down()
    assert_counted_once(storage)
    files = check_files(storage)
    print(
        f"\nserver fuzz: {sum(server.counts.values())} requests, {dict(server.counts)}; kill at ledger "
        f"{len(at_kill)} lines (checkpoint step {checkpoint}), {len(kept)} kept by the rollback; {files} JSON files parse"
    )
