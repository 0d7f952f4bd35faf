"""`call -- load history` and `call -- analysis` with the bundled model."""

from __future__ import annotations

import builtins
import io

import pytest

from reverie.memory import PersonaMemory
from reverie.simulation.history import read_history
from reverie.console.interactive import Server
from reverie.simulation.simulation import Simulation

from .conftest import BASE, NAMES

pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]
HISTORY = "the_ville/agent_history_init_n3.csv"


def test_load_history_stores_whispers_as_thoughts_with_poignancy(settings):
    sim = Simulation.fork(settings, BASE, "hist")
    out = io.StringIO()
    server = Server(sim, settings, headless=True, out=out)
    assert server.handle(f"call -- load history {HISTORY}") is None
    expected = dict(read_history(settings.paths.assets / HISTORY).rows)
    assert "error" not in out.getvalue(), out.getvalue()
    for name in NAMES:
        thoughts = sim.personas[name].a_mem.seq_thought
        assert len(thoughts) == len(expected[name]) == 5
        for node in thoughts:
            assert 1 <= node.poignancy <= 10 and node.description.strip()
            assert node.created == sim.curr_time
    assert server.handle("fin") == 0
    reloaded = PersonaMemory.load(sim.storage.persona_dir("Maria Lopez"))
    assert len(reloaded.associative.seq_thought) == 5
    assert {n.poignancy for n in reloaded.associative.seq_thought} <= set(range(1, 11))


def test_interview_two_turns_prints_the_answers(settings, monkeypatch):
    sim = Simulation.fork(settings, BASE, "talk")
    out = io.StringIO()
    server = Server(sim, settings, headless=True, out=out)
    lines = iter(["What do you do for a living?", "What are you planning this week?", "end_convo"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(lines))
    assert server.handle("call -- analysis Isabella Rodriguez") is None
    text = out.getvalue()
    answers = [line for line in text.splitlines() if line.startswith("Isabella Rodriguez: ")]
    reminders = [line for line in text.splitlines() if line.startswith("(Reminder")]
    assert len(answers) + len(reminders) == 2, text
    assert all(len(a) > len("Isabella Rodriguez: ") + 3 for a in answers)
    assert not sim.personas["Isabella Rodriguez"].a_mem.seq_thought  # nothing written to memory
