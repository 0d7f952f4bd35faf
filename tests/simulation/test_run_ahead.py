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


def run(base_settings, url: str, *, fork: str, scheduler: Scheduler, slots: int, minutes: int,
        start: str = "07:00") -> tuple[Path, dict]:
    s = base_settings.model_copy(deep=True)
    s.backend.kind, s.backend.base_url, s.backend.parallel_slots = "openai", url, slots
    s.simulation.scheduler = scheduler
    s.simulation.schedule_passes = 1
    report = run_bench(s, fork=fork, start=start, minutes=minutes, packed=True, keep=True)
    return Path(report["sim_dir"]), report


def files(sim_dir: Path) -> dict[str, bytes]:
    """Every file of movement/ and personas/ (scratch, spatial and associative memory), by path."""
    out = {}
    for part in ("movement", "personas"):
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


@pytest.mark.parametrize("fork,minutes", [("base_willow_creek", 120), ("base_willow_creek_n25", 120)])
def test_out_of_order_writes_the_lockstep_runs_files(base_settings, server, fork, minutes):
    started = time.perf_counter()
    lock_dir, lock = run(base_settings, server.url, fork=fork, scheduler=Scheduler.LOCKSTEP, slots=1, minutes=minutes)
    lock_s = time.perf_counter() - started
    ahead_dir, ahead = run(base_settings, server.url, fork=fork, scheduler=Scheduler.OUT_OF_ORDER, slots=16,
                           minutes=minutes)
    print(f"{fork}: lockstep {lock_s:.0f} s, out of order {time.perf_counter() - started - lock_s:.0f} s")
    chats, waits = what_happened(lock_dir)
    assert chats and waits, f"the run must hold a conversation and a reaction ({chats} chat steps, {waits} waiting)"
    assert lock["steps"] == ahead["steps"] == minutes * 6
    a, b = files(lock_dir), files(ahead_dir)
    assert sorted(a) == sorted(b)
    differ = [path for path in a if a[path] != b[path]]
    assert not differ, f"{len(differ)} files differ, first {differ[:5]}"
    assert lock["totals"]["calls"] == ahead["totals"]["calls"]
