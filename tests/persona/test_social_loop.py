"""The social loop the original's way: the gates decide who may talk, decide_to_talk's
fail-safe is "yes" once they pass, and a line that fails goes on as "..." until the turn cap.

Every test here runs on the scripted fake chat model (reverie/llm/fake_model.py, not a real
model): they are the failure paths, where no reply validates. The world is real: the base
town forked into a temporary folder, its embedder and Chroma. The bundled model's own
answers to these prompts are measured by ``prompts eval`` (see docs/FIDELITY.md).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from types import SimpleNamespace

import pytest

from reverie.llm.fake_model import FakeChatModel
from reverie.memory import Scratch
from reverie.persona.converse import MAX_ROUNDS
from reverie.persona.react import lets_talk
from reverie.tasks.chat_utterance import FAILED_LINE, iterative_chat_utterance

from tests.forked_base import forked_sim
from tests.integration.test_conversation import CAFE, meet_at_the_cafe
from tests.tasks.planning_support import scripted_llm

NOON = datetime(2023, 2, 13, 12, 10)
NEVER_VALID = '{"reason": "hm", "start_conversation": "maybe"}'


def _persona(name: str, doing: str = "working at the counter", last_chat=None, **scratch) -> SimpleNamespace:
    s = Scratch(name=name, curr_time=NOON, act_address=f"{CAFE}:counter", act_description=doing, **scratch)
    return SimpleNamespace(name=name, scratch=s, a_mem=SimpleNamespace(get_last_chat=lambda other: last_chat))


# They talked this morning: the old fail-safe said no to anyone but a first meeting.
MORNING_CHAT = SimpleNamespace(created=datetime(2023, 2, 13, 8, 0), description="conversing about the weather")


FOCUSED = {"curr_event": SimpleNamespace(subject="Theo Alvarez"), "events": [], "thoughts": []}


def test_past_the_gates_a_failed_answer_means_talk():
    """Scripted replies that never validate: the fail-safe is the original's "yes", also for a
    pair that talked earlier today (their buffer spent)."""
    llm, model = scripted_llm(NEVER_VALID)
    nora = _persona("Nora Bennett", last_chat=MORNING_CHAT, chatting_with_buffer={"Theo Alvarez": 0})
    assert lets_talk(nora, _persona("Theo Alvarez", "drinking coffee"), FOCUSED, llm) is True
    assert "They last talked on February 13, 2023, 08:00:00" in model.calls[0].user_text
    assert model.prompts()["decide_to_talk"] >= 1


def test_the_models_no_is_followed():
    llm, _ = scripted_llm('{"reason": "she is busy", "start_conversation": "no"}')
    assert lets_talk(_persona("Nora Bennett"), _persona("Theo Alvarez", "drinking coffee"), FOCUSED, llm) is False


@pytest.mark.parametrize("gate", ["asleep", "23:00", "chatting", "buffer", "waiting", "no action"])
def test_a_closed_gate_means_no_and_asks_nothing(gate):
    """Each of the original's gates alone stops the talk before any model call."""
    nora, theo = _persona("Nora Bennett"), _persona("Theo Alvarez", "drinking coffee")
    if gate == "asleep":
        theo.scratch.act_description = "sleeping"
    elif gate == "23:00":
        nora.scratch.curr_time = NOON.replace(hour=23)
    elif gate == "chatting":
        theo.scratch.chatting_with = "Iris Novak"
    elif gate == "buffer":
        nora.scratch.chatting_with_buffer = {"Theo Alvarez": 120}
    elif gate == "waiting":
        theo.scratch.act_address = "<waiting> 20 14"
    else:
        theo.scratch.act_description = None
    llm, model = scripted_llm(NEVER_VALID)
    assert lets_talk(nora, theo, FOCUSED, llm) is False
    assert model.call_count == 0


def test_a_spent_buffer_opens_the_gate_again():
    llm, _ = scripted_llm(NEVER_VALID)
    nora = _persona("Nora Bennett", chatting_with_buffer={"Theo Alvarez": 0})
    assert lets_talk(nora, _persona("Theo Alvarez", "drinking coffee"), FOCUSED, llm) is True


def test_a_failed_line_is_the_originals_pause_and_does_not_end_the_talk():
    """Scripted replies that never validate, in the middle of a conversation."""
    llm, _ = scripted_llm('{"utterance": "", "end": true}')
    line, end = iterative_chat_utterance(
        llm, identity="Name: Theo Alvarez", speaker="Theo Alvarez", listener="Nora Bennett", memories=[],
        past_context="", location="cafe in Willow Bean Cafe", current_context="Theo is drinking coffee.",
        conversation=[("Nora Bennett", "Hi Theo! Will you come to the party?")])
    assert (line, end) == (FAILED_LINE, False)


@pytest.fixture
def cafe(tmp_path):
    model = FakeChatModel()  # no reply ever validates: every prompt on its fail-safe
    with forked_sim(tmp_path, "base_willow_creek", "cafe", model, at="10:00") as sim:
        yield sim, model


def test_two_people_who_meet_talk_and_failed_lines_run_to_the_turn_cap(cafe):
    """Nora and Theo side by side in the cafe at 10:00, every model reply unusable: the gates
    pass, so they talk (the fail-safe yes), and the talk goes on with "..." lines until the
    original's cap of 8 rounds ends it; both then stand in the conversation."""
    sim, model = cafe
    nora, theo, iris = meet_at_the_cafe(sim)

    sim.run(1)
    assert model.prompts()["decide_to_talk"] >= 1
    assert nora.scratch.chatting_with == theo.name and theo.scratch.chatting_with == nora.name
    transcript = nora.scratch.chat
    assert len(transcript) == 2 * MAX_ROUNDS
    assert [speaker for speaker, _ in transcript[:2]] in ([nora.name, theo.name], [theo.name, nora.name])
    assert {line for _, line in transcript} == {FAILED_LINE}
    assert nora.scratch.chatting_end_time > sim.curr_time - timedelta(seconds=sim.sec_per_step)
    assert iris.scratch.chatting_with is None  # asleep: no talk
