"""`call -- load history` and `call -- analysis` with the bundled model's answers.

The model only drives our code here (whispers stored as rated thoughts, an interview's turns
printed), so its replies are recordings (tests/recorded_replies.py, tests/recordings/); a call a
recording lacks goes to the model itself."""

from __future__ import annotations

import io
import sys

import pytest

from reverie.memory import PersonaMemory
from reverie.simulation.history import read_history
from reverie.console.interactive import Server
from reverie.simulation.simulation import Simulation
from reverie.simulation.storage import fork
from tests.recorded_replies import recorded_llm

from .conftest import BASE, NAMES

pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]
HISTORY = "the_ville/agent_history_init_n3.csv"


def forked(settings, sim_code: str, recording: str) -> Simulation:
    """A fork of the base whose model answers come from ``recording`` (tests/recordings/)."""
    storage = fork(settings.paths.storage, BASE, sim_code)
    llm = recorded_llm(settings, recording, ledger_path=storage.ledger_path, trace_path=storage.trace_path)
    return Simulation.open(settings, sim_code, storage=storage, llm=llm)


def test_load_history_stores_whispers_as_thoughts_with_poignancy(settings):
    sim = forked(settings, "hist", "the_ville_load_history")
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
    sim = forked(settings, "talk", "the_ville_interview")
    out = io.StringIO()
    server = Server(sim, settings, headless=True, out=out)
    # The typed lines on standard input (whichever `input` the loop holds, it reads from there).
    monkeypatch.setattr(
        sys, "stdin", io.StringIO("What do you do for a living?\nWhat are you planning this week?\nend_convo\n")
    )
    assert server.handle("call -- analysis Isabella Rodriguez") is None
    text = out.getvalue()
    answers = [line for line in text.splitlines() if line.startswith("Isabella Rodriguez: ")]
    reminders = [line for line in text.splitlines() if line.startswith("(Reminder")]
    assert len(answers) + len(reminders) == 2, text
    assert all(len(a) > len("Isabella Rodriguez: ") + 3 for a in answers)
    assert not sim.personas["Isabella Rodriguez"].a_mem.seq_thought  # nothing written to memory
