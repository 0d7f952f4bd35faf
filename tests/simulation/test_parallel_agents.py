"""Personas think side by side when the model server has several slots.

The quick tests check the grouping, the worker pool, and that an in-process model is never
called from two threads at once. The real thing, our 3-agent base world on a real 4-slot
llama.cpp server, recorded and replayed one persona after another into the same movement
files, is tests/simulation/test_llama_server_run.py (its helpers are these).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from reverie import PROJECT_ROOT
from reverie.config import BackendSettings, load_settings
from reverie.llm import LLM
from reverie.llm.fake_model import FakeChatModel
from reverie.memory import Scratch
from reverie.simulation.concurrency import cognition_workers, interaction_groups, run_groups
from reverie.simulation.simulation import Simulation
from reverie.tasks.registry import product_tasks
from reverie.world.maze import Maze

BASE = "base_willow_creek"
NAMES = ["Nora Bennett", "Theo Alvarez", "Iris Novak"]


@pytest.fixture(scope="module")
def base_settings():
    return load_settings(PROJECT_ROOT / "config.toml")


def sim_settings(base_settings, root: Path, *, kind: str, slots: int):
    """The project's defaults with storage in ``root`` (the base linked in, never written) and one planning pass."""
    s = base_settings.model_copy(deep=True)
    s.paths.storage, s.paths.temp_storage = root / "storage", root / "temp_storage"
    if not (s.paths.storage / BASE).exists():
        s.paths.storage.mkdir(parents=True)
        (s.paths.storage / BASE).symlink_to(base_settings.paths.storage / BASE, target_is_directory=True)
    s.simulation.schedule_passes = 1
    s.backend.kind, s.backend.parallel_slots = kind, slots
    return s


def movement_bytes(sim: Simulation) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((sim.storage.dir / "movement").glob("*.json"))}


def ledger(sim: Simulation) -> list[dict]:
    return [json.loads(line) for line in sim.storage.ledger_path.read_text().splitlines()]


def peak_in_flight(entries: list[dict], slack_s: float = 0.002) -> int:
    """Most asks in flight at once, from the ledger's end times and latencies (ms-rounded: shrunk by ``slack_s``)."""
    edges = []
    for e in entries:
        start, end = e["ts"] - e["latency_s"] + slack_s, e["ts"] - slack_s
        if end > start:
            edges += [(start, 1), (end, -1)]
    peak = now = 0
    for _, delta in sorted(edges, key=lambda edge: (edge[0], edge[1])):  # an end before a start at the same time
        now += delta
        peak = max(peak, now)
    return peak


# -- the grouping and the pool ---------------------------------------------------------------


@pytest.fixture(scope="module")
def maze(base_settings):
    return Maze.load(base_settings.paths.assets, "willow_creek")


def place(maze, tiles: dict[str, tuple[int, int]], *, vision: dict | None = None, chatting: dict | None = None) -> dict:
    """Stand-in personas (name, scratch) with their events on ``tiles``; undone by ``unplace``."""
    personas = {}
    for name, tile in tiles.items():
        scratch = SimpleNamespace(
            curr_tile=list(tile), vision_r=(vision or {}).get(name, 4), chatting_with=(chatting or {}).get(name)
        )
        personas[name] = SimpleNamespace(name=name, scratch=scratch)
        maze.add_event_to_tile((name, "is", "idle", "idle"), tile)
    return personas


def unplace(maze, personas: dict) -> None:
    for name, persona in personas.items():
        maze.remove_subject_events_from_tile(name, tuple(persona.scratch.curr_tile))


def test_groups_join_personas_within_sight_of_each_other(maze):
    cases = [
        # far apart: everyone alone
        (dict(A=(5, 5), B=(18, 5), C=(34, 5)), {}, {}, [["A"], ["B"], ["C"]]),
        # A and C within 4 tiles; B alone; the group keeps persona order
        (dict(A=(5, 5), B=(34, 5), C=(8, 7)), {}, {}, [["A", "C"], ["B"]]),
        # a chain: A sees B, B sees C, A and C far apart — one group
        (dict(A=(5, 5), B=(9, 5), C=(13, 5)), {}, {}, [["A", "B", "C"]]),
        # one-sided sight is enough: C (radius 8) sees A, A (radius 1) does not see C
        (dict(A=(5, 5), B=(34, 5), C=(12, 5)), {"A": 1, "C": 8}, {}, [["A", "C"], ["B"]]),
        # talking to each other from afar
        (dict(A=(5, 5), B=(18, 5), C=(34, 5)), {}, {"C": "A", "A": "C"}, [["A", "C"], ["B"]]),
    ]
    for tiles, vision, chatting, expected in cases:
        personas = place(maze, tiles, vision=vision, chatting=chatting)
        try:
            assert interaction_groups(personas, maze) == expected, (tiles, vision, chatting)
        finally:
            unplace(maze, personas)


class InFlight:
    """Counts concurrent sections; ``peak`` is the most seen at once."""

    def __init__(self):
        self.lock, self.now, self.peak, self.calls = threading.Lock(), 0, 0, 0

    def __enter__(self):
        with self.lock:
            self.now += 1
            self.calls += 1
            self.peak = max(self.peak, self.now)

    def __exit__(self, *exc):
        with self.lock:
            self.now -= 1


def test_the_pool_bounds_the_groups_in_flight_and_keeps_each_group_in_order():
    meter, done = InFlight(), []
    groups = [["a1", "a2", "a3"], ["b1"], ["c1", "c2"], ["d1"], ["e1"]]

    def work(name):
        with meter:
            time.sleep(0.02)
        done.append(name)
        return name.upper()

    assert run_groups(groups, work, 2) == {n: n.upper() for g in groups for n in g}
    assert meter.peak == 2
    for group in groups:
        assert [n for n in done if n in group] == group
    meter.peak = 0
    run_groups(groups, work, 1)
    assert meter.peak == 1


def test_a_failure_in_one_group_is_raised_in_the_caller():
    def work(name):
        time.sleep(0.01)
        if name == "b2":
            raise ValueError("b2 broke")
        return name

    with pytest.raises(ValueError, match="b2 broke"):
        run_groups([["a1"], ["b1", "b2", "b3"], ["c1"]], work, 3)


def test_only_a_server_with_several_slots_runs_concurrently():
    backend = lambda kind, slots: BackendSettings(kind=kind, parallel_slots=slots)  # noqa: E731
    assert cognition_workers(backend("openai", 4)) == 4
    assert cognition_workers(backend("openai", 1)) == 1
    assert cognition_workers(backend("llama_cpp", 4)) == 1
    assert cognition_workers(backend("openai", 4), replaying=True) == 1


# -- the step: which backends run personas side by side ---------------------------------------


class StandIn:
    """A persona stand-in: its move only counts how many moves run at once."""

    def __init__(self, name: str, tile: tuple[int, int], meter: InFlight):
        self.name, self.meter = name, meter
        self.scratch = Scratch(name=name, curr_tile=tile)

    def current_event(self):
        return (self.name, None, None, None)

    def move(self, maze, personas, tile, curr_time, *, rng, llm, occupied=None):
        with self.meter:
            time.sleep(0.03)
        return tile, "x", f"standing @ {self.name}"


@pytest.mark.parametrize(
    "kind, slots, tiles, peak",
    [
        ("llama_cpp", 3, [(5, 5), (18, 5), (34, 5)], 1),  # in process: one at a time, whatever the slots
        ("openai", 1, [(5, 5), (18, 5), (34, 5)], 1),
        ("openai", 3, [(5, 5), (18, 5), (34, 5)], 3),
        ("openai", 2, [(5, 5), (18, 5), (34, 5)], 2),
        ("openai", 3, [(5, 5), (8, 5), (11, 5)], 1),  # within sight of each other: one group
    ],
)
def test_a_step_runs_personas_side_by_side_only_on_a_multi_slot_server(
    base_settings, maze, tmp_path, kind, slots, tiles, peak
):
    from reverie.simulation.storage import fork

    s = sim_settings(base_settings, tmp_path, kind=kind, slots=slots)
    meter = InFlight()
    personas = {name: StandIn(name, tile, meter) for name, tile in zip(NAMES, tiles)}
    for name, tile in zip(NAMES, tiles):
        maze.add_event_to_tile((name, None, None, None), tile)
    try:
        sim = Simulation(s, fork(s.paths.storage, BASE, "standins"), world=maze, personas=personas)
        env = {name: {"maze": "willow_creek", "x": x, "y": y} for name, (x, y) in zip(NAMES, tiles)}
        movement = sim.step(env)
    finally:
        for name, tile in zip(NAMES, tiles):
            maze.remove_subject_events_from_tile(name, tile)
    assert meter.calls == 3 and meter.peak == peak
    assert list(movement["persona"]) == NAMES, "movement keeps persona order"
    assert [m["movement"] for m in movement["persona"].values()] == [list(t) for t in tiles]


# -- whole steps, with a fake model that counts the calls in flight ---------------------------


def fake_run(base_settings, root: Path, *, kind: str, slots: int, steps: int = 2) -> tuple[Simulation, FakeChatModel]:
    """A few steps on the fake chat model in its fail-safe-only mode (every ask ends in its
    fail-safe); each call takes a few milliseconds, so calls in flight can overlap."""
    s = sim_settings(base_settings, root, kind=kind, slots=slots)
    model = FakeChatModel(delay_s=0.004)
    llm = LLM(s, tasks=product_tasks(), chat_models={"strong": model, "cheap": model}, ledger_path=root / "calls.jsonl")
    sim = Simulation.fork(s, BASE, "fake", llm=llm)
    sim.run(steps)
    return sim, model


@pytest.mark.slow  # loads the embedding model: over 10 s from cold
def test_an_in_process_model_is_never_called_from_two_threads(base_settings, tmp_path, caplog):
    """Two steps from midnight with a scripted fake chat model (not a real model: it only counts
    the calls in flight, and every ask ends in its fail-safe): in process, one call at a time
    even with parallel_slots = 3; against a 3-slot server, overlapping calls and the same files."""
    with caplog.at_level(logging.WARNING, logger="reverie.simulation.simulation"):
        local, local_model = fake_run(base_settings, tmp_path / "local", kind="llama_cpp", slots=3)
    served, served_model = fake_run(base_settings, tmp_path / "served", kind="openai", slots=3)
    try:
        assert "parallel_slots = 3 applies to an OpenAI-compatible server" in caplog.text
        assert local_model.call_count > 30 and local_model.peak_in_flight == 1
        # The same run against a (pretend) 3-slot server overlaps its calls, at most 3 at a time...
        assert served_model.call_count == local_model.call_count and 1 < served_model.peak_in_flight <= 3
        # ...and decides exactly as the sequential one.
        assert movement_bytes(served) == movement_bytes(local) and len(movement_bytes(local)) == 2
    finally:
        local.close()
        served.close()
