"""The default town on a real 4-slot llama.cpp ``llama-server`` with ``parallel_slots = 4``: a valid run,
personas thinking side by side, each on its own slot, with the server's prompt cache reported;
recorded, then replayed one persona after another, it writes byte-identical movement files (the
same decisions, asked in another order). A real model on purpose: the slots, the cache and the
answers are the server's."""

from __future__ import annotations

import time
from collections import Counter

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.simulation.simulation import Simulation
from tests.loopback_server import llama_server
from tests.simulation.test_parallel_agents import BASE, NAMES, ledger, movement_bytes, peak_in_flight, sim_settings


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_default_town_runs_on_four_slots(tmp_path, capsys):
    base_settings = load_settings(PROJECT_ROOT / "config.toml")
    assert base_settings.simulation.default_fork == BASE
    steps, slots = 3, 4
    cassette = tmp_path / "calls.cassette.jsonl"
    with llama_server(tmp_path / "server.log", slots=slots, n_ctx=base_settings.models.strong.n_ctx) as url:
        s = sim_settings(base_settings, tmp_path / "run", kind="openai", slots=slots)
        s.backend.base_url, s.backend.slot_pinning = url, True
        started = time.monotonic()
        sim = Simulation.fork(s, BASE, "four_slots", record=cassette)
        try:
            assert sim.cognition_workers == slots
            assert sim.run(steps) == steps
            sim.save()
        finally:
            sim.close()
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("[backend]")]
    calls = ledger(sim)
    valid = sum(1 for c in calls if not c["fallback"])
    cached = sum(c["cached_tokens"] or 0 for c in calls)
    prompt = sum(c["prompt_tokens"] for c in calls)
    print(
        f"\n{said[0]}\n{steps} steps, {len(calls)} asks ({valid} valid), at most {peak_in_flight(calls)} in flight, "
        f"cache hit {cached / prompt:.2f}, {time.monotonic() - started:.0f} s"
    )
    assert len(said) == 1 and "identified from /props; 4 slots" in said[0]
    assert len(movement_bytes(sim)) == steps and {c["persona"] for c in calls} == set(NAMES)
    assert len(calls) > 20, "step 0 plans three first days"
    assert 1 < peak_in_flight(calls) <= len(NAMES)
    assert all(c["cached_tokens"] is not None for c in calls), "the server reports its cache on every reply"
    assert cached > prompt / 3, "each persona's stable prefix stays in its slot"
    assert valid > len(calls) / 2, "most asks end in a checked answer, not a fail-safe"

    sequential_settings = sim_settings(base_settings, tmp_path / "sequential", kind="openai", slots=1)
    sequential_settings.backend.base_url = "http://127.0.0.1:9/v1"  # never called: every reply is replayed
    sequential = Simulation.fork(sequential_settings, BASE, "sequential", replay=cassette)
    try:
        assert sequential.cognition_workers == 1
        assert sequential.run(steps) == steps
    finally:
        sequential.close()
    assert movement_bytes(sequential) == movement_bytes(sim)
    asked = lambda run: Counter((c["persona"], c["prompt"], c["attempts"]) for c in ledger(run))  # noqa: E731
    assert asked(sequential) == asked(sim), "the same asks, in another order"
