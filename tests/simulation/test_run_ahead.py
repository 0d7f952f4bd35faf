"""Residents who cannot meet run ahead of each other, and the run is the step loop's, byte for byte.

Both runs go through the bench server (an OpenAI-compatible server on loopback answering with
the scripted town model, here without delays): the lockstep run on one slot, today's
step-synchronous loop, and the out-of-order run on 16 slots, its groups thinking at different
steps on threads at once. The scripted model answers from each prompt alone, so the same
questions get the same answers, and every file the runs write must be equal: movement, the
personas' files (scratch, spatial and associative memory with its embeddings).
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.benchmarks.bench import run_bench
from reverie.benchmarks.model_server import BenchServer, Delays
from reverie.config import Scheduler, load_settings
from reverie.simulation.run_ahead import RunAhead

FAST = Delays(slots=16, base_s=0.0, prefill_tok_per_s=1e12, decode_tok_per_s=1e12)


@pytest.fixture(scope="module")
def server():
    with BenchServer(FAST) as bench:
        yield bench


@pytest.fixture(scope="module")
def base_settings():
    return load_settings(PROJECT_ROOT / "config.toml")


def run(
    base_settings,
    url: str,
    *,
    fork: str,
    scheduler: Scheduler,
    slots: int,
    minutes: int,
    start: str = "07:00",
    packed: bool = True,
) -> tuple[Path, dict]:
    s = base_settings.model_copy(deep=True)
    s.backend.kind, s.backend.base_url, s.backend.parallel_slots = "openai", url, slots
    s.simulation.scheduler = scheduler
    s.simulation.schedule_passes = 1
    report = run_bench(s, fork=fork, start=start, minutes=minutes, packed=packed, keep=True)
    return Path(report["sim_dir"]), report


def files(sim_dir: Path) -> dict[str, bytes]:
    """Every file of movement/ and personas/ (scratch, spatial and associative memory), by path, and
    of the checkpoint before the last (an autosave the residents running ahead wrote as they passed it)."""
    out = {}
    for part in ("movement", "personas", ".checkpoint.prev"):
        for path in sorted((sim_dir / part).rglob("*")):
            if path.is_file():
                out[str(path.relative_to(sim_dir))] = path.read_bytes()
    return out


def what_happened(sim_dir: Path) -> tuple[int, int]:
    """Steps with a conversation under way, and with someone waiting (a reaction), in movement/."""
    chats = waits = 0
    for path in (sim_dir / "movement").glob("*.json"):
        people = json.loads(path.read_text())["persona"].values()
        chats += any(p["chat"] for p in people)
        waits += any("waiting" in p["description"] for p in people)
    return chats, waits


def waits(call) -> dict:
    """decide_to_react, answered "wait": the scripted town model always goes on with its own plan,
    so this stand-in rule (a test's, not the model's) makes the waiting reaction happen."""
    return {"reason": f"{call.text('init_name')} waits.", "wait_or_continue": "wait"}


def party_town(root: Path):
    """Our 3-resident town with a party at the cafe from 9 am (its host and a guest seeded, as in
    test_scripted_town), so people gather: (settings, base to fork)."""
    from tests.fuzz.test_fuzz_runs import town
    from tests.simulation.test_scripted_town import GUEST, PARTY, _seed

    config, base = town(root, "party_base", packed_actions="true")
    base.write_meta({**base.read_meta(), "sec_per_step": 10})  # people walk a tile a step
    (base.dir / "reverie" / "seeds.json").write_text(
        json.dumps([_seed("Nora Bennett", PARTY, True), _seed("Iris Novak", GUEST, True)])
    )
    return load_settings(config), "party_base"


@pytest.mark.parametrize("town,minutes", [("party", 120), pytest.param("n25", 120, marks=pytest.mark.slow)])
def test_out_of_order_writes_the_lockstep_runs_files(base_settings, server, tmp_path, town, minutes, monkeypatch):
    """3 residents gathering for a party from 08:00 (conversations), and our 25 from 07:00 (conversations
    and waiting)."""
    from reverie.llm.scripted.rules import RULES
    from reverie.simulation import group_step

    monkeypatch.setitem(RULES, "decide_to_react", waits)
    early: list[str] = []  # members whose own part of a step ran beside their group mates'
    as_before = group_step.as_before
    monkeypatch.setattr(group_step, "as_before", lambda persona: early.append(persona.name) or as_before(persona))
    beside: list[str] = []  # members whose second part started before an earlier member's step was done
    may_finish = group_step.may_finish

    def counted(name: str, group: list[str], **kwargs) -> bool:
        ok = may_finish(name, group, **kwargs)
        if ok and any(m not in kwargs["done"] for m in group[: group.index(name)]):
            beside.append(name)
        return ok

    monkeypatch.setattr(group_step, "may_finish", counted)
    still: list[str] = []  # residents behind that the scheduler knew to lie still past their clock (asleep)
    still_until = RunAhead._still_until

    def lying(self, name: str) -> int:
        until = still_until(self, name)
        if until > self.clock[name]:
            still.append(name)
        return until

    monkeypatch.setattr(RunAhead, "_still_until", lying)
    if town == "party":
        (settings, fork), start = party_town(tmp_path), "08:00"
    else:
        settings, fork, start = base_settings, "base_willow_creek_n25", "07:00"
    started = time.perf_counter()
    lock_dir, lock = run(
        settings, server.url, fork=fork, scheduler=Scheduler.LOCKSTEP, slots=1, minutes=minutes, start=start
    )
    lock_s = time.perf_counter() - started
    threads: list[str] = []  # the names of the threads started during the out-of-order run
    start_thread = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda thread: threads.append(thread.name) or start_thread(thread))
    ahead_dir, ahead = run(
        settings, server.url, fork=fork, scheduler=Scheduler.OUT_OF_ORDER, slots=16, minutes=minutes, start=start
    )
    print(f"{fork}: lockstep {lock_s:.0f} s, out of order {time.perf_counter() - started - lock_s:.0f} s")
    print(f"{len(early)} own parts of a step ran beside their group's, {len(set(early))} residents")
    print(f"{len(beside)} second parts started beside an earlier member's, {len(set(beside))} residents")
    print(f"{len(still)} times a resident behind lay still past its clock, {len(set(still))} residents")
    scheduler_threads = [name for name in threads if name.startswith(("run-ahead", "own-"))]
    print(f"{len(scheduler_threads)} threads started for groups' steps and members' parts")
    try:
        # Kept for the run, at most one per resident in each pool; not one for every group's step.
        residents = len([p for p in (ahead_dir / "personas").iterdir() if p.is_dir()])
        assert 0 < len(scheduler_threads) <= 2 * residents, scheduler_threads[: 2 * residents + 1]
        assert early, "no member started its own part early: the test would not see it go wrong"
        assert beside, "no second part started beside an earlier member's: the test would not see it go wrong"
        assert still or town == "party", "nobody lay asleep behind: the test would not see the sleepers' bound go wrong"
        compare(lock_dir, lock, ahead_dir, ahead, minutes, waiting=town == "n25")
    finally:
        for sim_dir in (lock_dir, ahead_dir):
            shutil.rmtree(sim_dir.parents[1], ignore_errors=True)  # the bench's temporary folder


def test_asks_sent_together_write_the_files_of_asks_sent_one_after_another(
    base_settings, server, tmp_path, monkeypatch
):
    """The faithful action prompts, where a step's asks that need none of each other's answers go
    together (an action's emoji, triple and object state; the thoughts' triples; a reflection's
    insights): the 3 residents' party, one call at a time (lockstep on one slot) and out of order on
    16 slots, and the same files."""
    from reverie.llm import side_by_side

    sent_together: list[int] = []  # the asks of each set that went together

    class Counted(side_by_side.ThreadPoolExecutor):
        def __init__(self, max_workers: int, **kwargs):
            sent_together.append(max_workers)
            super().__init__(max_workers, **kwargs)

    monkeypatch.setattr(side_by_side, "ThreadPoolExecutor", Counted)
    settings, fork = party_town(tmp_path)
    minutes = 120

    def faithful(scheduler: Scheduler, slots: int) -> tuple[Path, dict]:
        return run(
            settings,
            server.url,
            fork=fork,
            scheduler=scheduler,
            slots=slots,
            minutes=minutes,
            start="08:00",
            packed=False,
        )

    one_dir, one = faithful(Scheduler.LOCKSTEP, 1)
    assert not sent_together, "one slot: every ask on its own"
    many_dir, many = faithful(Scheduler.OUT_OF_ORDER, 16)
    asked = many["per_prompt"]
    print(f"{len(sent_together)} sets of asks sent together, {sum(sent_together)} asks; {sorted(asked)}")
    try:
        assert "action_sector" in asked, "the faithful action prompts"
        assert len(sent_together) > 10 and max(sent_together) >= 3
        compare(one_dir, one, many_dir, many, minutes, waiting=False)
    finally:
        for sim_dir in (one_dir, many_dir):
            shutil.rmtree(sim_dir.parents[1], ignore_errors=True)


def compare(lock_dir: Path, lock: dict, ahead_dir: Path, ahead: dict, minutes: int, *, waiting: bool) -> None:
    chats, waits = what_happened(lock_dir)
    # A conversation is a reaction (decide_to_talk); the 3 residents never come to wait for each other
    # in two hours (decide_to_react is asked only of one walking to where another is busy).
    assert chats and (waits or not waiting), (
        f"the run must hold a conversation and a reaction ({chats} chat steps, {waits} waiting)"
    )
    assert lock["steps"] == ahead["steps"] == minutes * 6
    a, b = files(lock_dir), files(ahead_dir)
    assert any(path.startswith(".checkpoint.prev/personas/") for path in a), "an autosave within the run"
    assert sorted(a) == sorted(b)
    differ = [path for path in a if a[path] != b[path]]
    assert not differ, f"{len(differ)} files differ, first {differ[:5]}"
    assert lock["totals"]["calls"] == ahead["totals"]["calls"]


def test_a_run_killed_while_residents_run_ahead_resumes_with_whole_steps(base_settings, server, tmp_path):
    """kill -9 during an out-of-order run, then --resume: every file parses, every step is whole."""
    import os
    import signal
    import subprocess
    import sys

    from reverie.simulation.storage import SimStorage
    from tests.fuzz.test_fuzz_runs import check_files

    storage = tmp_path / "storage"
    storage.mkdir()
    (storage / "base_willow_creek").symlink_to(
        base_settings.paths.storage / "base_willow_creek", target_is_directory=True
    )
    config = tmp_path / "config.toml"
    config.write_text(
        f'[paths]\nstorage = "{storage}"\ntemp_storage = "{tmp_path / "temp"}"\n'
        f'[backend]\nkind = "openai"\nbase_url = "{server.url}"\nparallel_slots = 16\n'
        '[simulation]\nscheduler = "out_of_order"\nautosave_every = 12\nschedule_passes = 1\n'
        "packed_actions = true\n",
        encoding="utf-8",
    )
    env = {**os.environ, "REVERIE_CONFIG": str(config)}
    command = [sys.executable, "-m", "reverie", "run", "--no-progress"]
    sim = SimStorage(storage, "killed")
    proc = subprocess.Popen(
        [*command, "--fork", "base_willow_creek", "--sim", "killed", "--start", "07:00", "--steps", "2000"],
        env=env,
        cwd=PROJECT_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            written = len(list((sim.dir / "movement").glob("*.json"))) if (sim.dir / "movement").is_dir() else 0
            if written >= 40:  # past three checkpoints, with residents between steps
                break
            time.sleep(0.2)
        assert proc.poll() is None, "the run ended before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    killed_at = max(int(p.stem) for p in (sim.dir / "movement").glob("*.json"))

    done = subprocess.run(
        [*command, "--resume", "killed", "--steps", "30"],
        env=env,
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert check_files(sim) > 0
    meta = sim.read_meta()
    steps = sorted(int(p.stem) for p in (sim.dir / "movement").glob("*.json"))
    assert steps == list(range(steps[0], meta["step"])), "movement files are one per step, none missing"
    assert meta["step"] > killed_at - 12  # resumed from the last checkpoint before the kill, then 30 steps
    for step in steps:
        assert set(json.loads((sim.dir / "movement" / f"{step}.json").read_text())["persona"]) == set(
            meta["persona_names"]
        )
    env_next = sim.read_environment(meta["step"])
    assert env_next is not None and set(env_next) >= set(meta["persona_names"])
    for name in meta["persona_names"]:
        scratch = json.loads((sim.personas_dir / name / "bootstrap_memory" / "scratch.json").read_text())
        last = json.loads((sim.dir / "movement" / f"{meta['step'] - 1}.json").read_text())["meta"]["curr_time"]
        assert scratch["curr_time"] == last, f"{name} stands at another step than the checkpoint"


class Walker:
    """A persona stand-in that stands still and fails at one step (no model, no memory)."""

    def __init__(self, name: str, tile: tuple[int, int], fail_at: int | None):
        from reverie.memory import Scratch

        self.name, self.fail_at = name, fail_at
        self.scratch = Scratch(name=name, curr_tile=tile)

    def current_event(self):
        return (self.name, None, None, None)

    def move(self, maze, personas, tile, curr_time, *, rng, llm, occupied=None):
        self.scratch.set_time(curr_time)
        if self.fail_at is not None and curr_time >= self.fail_at:
            raise RuntimeError(f"{self.name} fails")
        return tile, "x", f"standing @ {self.name}"


def test_a_run_ahead_that_fails_midway_writes_the_steps_before_it(base_settings, tmp_path):
    """Residents far apart run ahead; one fails at its third step: the error reaches the caller,
    the others go on up to that step, so the steps before it are written whatever the threads'
    timing (as the step loop would), and no checkpoint holds residents at different steps."""
    from datetime import timedelta

    from reverie.simulation.simulation import Simulation
    from reverie.simulation.storage import fork
    from reverie.world.maze import Maze

    s = base_settings.model_copy(deep=True)
    s.paths.storage, s.paths.temp_storage = tmp_path / "storage", tmp_path / "temp"
    s.paths.storage.mkdir()
    (s.paths.storage / "base_willow_creek").symlink_to(
        base_settings.paths.storage / "base_willow_creek", target_is_directory=True
    )
    s.backend.kind, s.backend.parallel_slots, s.simulation.scheduler = "openai", 3, Scheduler.OUT_OF_ORDER
    storage = fork(s.paths.storage, "base_willow_creek", "walkers")
    meta = storage.read_meta()
    start = datetime_of(meta["curr_time"])
    tiles = [(5, 5), (30, 5), (55, 40)]
    names = list(meta["persona_names"])
    walkers = {
        n: Walker(n, t, start + timedelta(seconds=20) if i == 1 else None) for i, (n, t) in enumerate(zip(names, tiles))
    }
    for name in names:
        walkers[name].scratch.set_time(start - timedelta(seconds=10))  # not a first step: no seeds planted
    sim = Simulation(s, storage, world=Maze.load(s.paths.assets, meta["maze_name"]), personas=walkers)
    storage.write_environment(
        sim.step_no, {n: {"maze": meta["maze_name"], "x": t[0], "y": t[1]} for n, t in zip(names, tiles)}
    )
    assert sim.runs_ahead(headless=True)
    first = sim.step_no
    with pytest.raises(RuntimeError, match=f"{names[1]} fails"):
        sim.run(10)
    written = storage.steps_in("movement")
    assert sim.torn and written == [first, first + 1] and sim.step_no == first + 2
    for step in written:
        assert set(storage.read_movement(step)["persona"]) == set(names)
    sim.save()
    assert storage.read_meta()["step"] == first, "the checkpoint is the one before the run"


def datetime_of(text: str):
    from reverie.clock import parse_time

    return parse_time(text)
