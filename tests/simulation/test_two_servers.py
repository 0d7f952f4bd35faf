"""One run over two real llama.cpp ``llama-server`` processes on loopback (``[[backend.servers]]``),
through LiteLLM's Router: the calls land on both, the ledger names the server of each, and a
server killed mid-run hands its calls to the other (LiteLLM's cooldown and retry) with nothing lost. A real model on purpose: the connections that drop,
the grammars and the answers are the servers'."""

from __future__ import annotations

import json
import sys
import threading
import time

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.simulation.simulation import Simulation
from tests.loopback_server import free_port, llama_server
from tests.simulation.test_parallel_agents import BASE, NAMES, sim_settings

# What a call lost to the kill would leave in the ledger: a failed model call, a server failure.
KILL_MARKS = ("model call failed", "unreachable", "connection dropped", "deadline", "lost")


def _lines(path) -> list[dict]:
    try:
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    except (OSError, ValueError):
        return []


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_packed_run_uses_both_servers_and_survives_one_killed_mid_run(tmp_path, capsys):
    base_settings = load_settings(PROJECT_ROOT / "config.toml")
    n_ctx, steps = base_settings.models.strong.n_ctx, 2
    first: list = []
    second: list = []
    with (
        llama_server(tmp_path / "a.log", slots=2, n_ctx=n_ctx) as url_a,
        llama_server(tmp_path / "b.log", slots=2, n_ctx=n_ctx, started=second) as url_b,
    ):
        s = sim_settings(base_settings, tmp_path / "run", kind="openai", slots=1)
        s.simulation.packed_actions = True
        s.backend.servers = [
            {"base_url": url_a, "server": "llama.cpp", "parallel_slots": 2},
            {"base_url": url_b, "server": "llama.cpp", "parallel_slots": 2},
        ]
        sim = Simulation.fork(s, BASE, "two_servers")
        ledger_path = sim.storage.ledger_path
        killed_at: list[float] = []

        def kill_b_once_it_answered() -> None:  # mid-run: after B has answered a few asks, calls in flight
            deadline = time.monotonic() + 600
            while time.monotonic() < deadline and not killed_at:
                if sum(1 for c in _lines(ledger_path) if c.get("server") == url_b) >= 2:
                    second[0].kill()
                    killed_at.append(time.time())
                time.sleep(0.05)

        killer = threading.Thread(target=kill_b_once_it_answered, daemon=True)
        try:
            assert sim.cognition_workers == 4, "the run's slots are the servers' sum"
            killer.start()
            assert sim.run(steps) == steps
            assert sim.llm.backend_lost is None
            sim.save()
        finally:
            killed_at.append(0.0)  # stops the watcher if the run ended first
            killer.join()
            sim.close()
        first.clear()
    calls = _lines(ledger_path)
    kill = killed_at[0]
    before = [c for c in calls if c["ts"] <= kill]
    after = [c for c in calls if c["ts"] > kill + 0.5]
    per_server = {url: sum(1 for c in calls if url in (c.get("server") or "")) for url in (url_a, url_b)}
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("[backend]")]
    print(
        f"\n{len(calls)} asks; per server {per_server}; killed B after {len(before)} asks; "
        f"{len(after)} asks after; fail-safes {sum(1 for c in calls if c['fallback'])}\n" + "\n".join(said)
    )
    assert "litellm" in sys.modules, "the calls went through LiteLLM's Router"
    assert kill > 0, "B was killed while the run went on"
    assert {c.get("server") for c in before} >= {url_a, url_b}, "before the kill, both servers answered"
    assert after and all(c["server"] == url_a for c in after), "after the kill, every call went to A"
    assert any("lost" in line and url_b in line for line in said), "the loss was said in one line"
    assert {c["persona"] for c in calls} == set(NAMES)
    assert all(c["attempts"] >= 1 and c["server"] for c in calls), "every ask was answered by a server"
    caused = [c for c in calls if any(mark in e for e in (c["errors"] or []) for mark in KILL_MARKS)]
    assert not caused, f"asks that the kill cost a fail-safe or an error: {caused[:2]}"


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_doctor_names_a_dead_server_in_one_line(tmp_path, capsys):
    from reverie.doctor.doctor import Doctor

    settings = load_settings(PROJECT_ROOT / "config.toml")
    dead = f"http://127.0.0.1:{free_port()}/v1"
    with llama_server(tmp_path / "a.log", slots=1, n_ctx=settings.models.strong.n_ctx) as url:
        s = settings.model_copy(deep=True)
        s.backend.kind = "openai"
        s.backend.servers = [{"base_url": url, "parallel_slots": 1}, {"base_url": dead, "parallel_slots": 1}]
        check = Doctor(s).model_loads()
    assert not check.ok
    assert dead in check.detail and url not in check.detail and "\n" not in check.line()
    print(check.line())
