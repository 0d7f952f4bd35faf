"""The social loop the original's way: the gates decide who may talk, decide_to_talk's
fail-safe is "yes" once they pass, and a line that fails is "..."; two of them in a row end the talk.

Every test here runs on the scripted fake chat model (reverie/llm/fake_model.py, not a real
model): they are the failure paths, where no reply validates. The world is real: the base
town forked into a temporary folder, its embedder and Chroma. The bundled model's own
answers to these prompts are measured by ``prompts eval`` (see docs/FIDELITY.md).
"""

from __future__ import annotations

import json
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
        llm,
        identity="Name: Theo Alvarez",
        speaker="Theo Alvarez",
        listener="Nora Bennett",
        memories=[],
        past_context="",
        location="cafe in Willow Bean Cafe",
        current_context="Theo is drinking coffee.",
        conversation=[("Nora Bennett", "Hi Theo! Will you come to the party?")],
    )
    assert (line, end) == (FAILED_LINE, False)


def _cafe_talk(tmp_path, replies=None):
    """Nora and Theo side by side in the cafe at 10:00 (Iris asleep), one step run: the
    gates pass and the talk is held with the scripted replies (``None``: none validates)."""
    model = FakeChatModel(replies=replies)
    with forked_sim(tmp_path, "base_willow_creek", "cafe", model, at="10:00") as sim:
        nora, theo, iris = meet_at_the_cafe(sim)
        sim.run(1)
        assert model.prompts()["decide_to_talk"] >= 1
        assert nora.scratch.chatting_with == theo.name and theo.scratch.chatting_with == nora.name
        assert iris.scratch.chatting_with is None  # asleep: no talk
        assert nora.scratch.chatting_end_time > sim.curr_time - timedelta(seconds=sim.sec_per_step)
        return nora.scratch.chat, sim.llm.ledger.summary()


def _line(text: str, end: bool = False) -> str:
    return json.dumps({"utterance": text, "end": end})


def test_two_people_who_meet_talk_and_two_failed_lines_end_it(tmp_path):
    """Every model reply unusable: the gates pass, so they talk (the fail-safe yes); each line
    falls back to "..." and the second in a row ends the talk (docs/FIDELITY.md), where the
    original went on to its cap of 8 rounds; both then stand in the conversation."""
    transcript, asks = _cafe_talk(tmp_path)
    assert [line for _, line in transcript] == [FAILED_LINE, FAILED_LINE]
    assert len({speaker for speaker, _ in transcript}) == 2
    # Each speaker's relationship summary is asked once for the whole conversation (the
    # original asked it before every line).
    assert asks["iterative_chat_utterance"]["calls"] == 2
    assert asks["relationship_summary"]["calls"] == 2


def test_a_model_that_can_only_repeat_its_line_ends_the_talk(tmp_path):
    """The bundled model's loop in faithful mode: every line is the opening line again, sent
    back as already said until its fail-safe; the two fail-safes in a row end the talk after
    3 lines instead of 16 (each of them 3 attempts)."""
    transcript, asks = _cafe_talk(tmp_path, {"iterative_chat_utterance": _line("Will you come to the party?")})
    assert [line for _, line in transcript] == ["Will you come to the party?", FAILED_LINE, FAILED_LINE]
    assert asks["iterative_chat_utterance"]["calls"] == 3
    assert asks["iterative_chat_utterance"]["fallbacks"] == 2


def test_one_silent_line_at_a_time_does_not_end_the_talk(tmp_path):
    """A speaker's "..." between new lines is a pause: the talk runs to the original's turn cap."""
    said = [
        _line(f"Here is news number {n} from the cafe.") if n % 2 else _line(FAILED_LINE)
        for n in range(1, 2 * MAX_ROUNDS + 1)
    ]
    transcript, asks = _cafe_talk(tmp_path, {"iterative_chat_utterance": said})
    assert len(transcript) == 2 * MAX_ROUNDS
    assert [line for _, line in transcript].count(FAILED_LINE) == MAX_ROUNDS
    assert asks["iterative_chat_utterance"]["calls"] == 2 * MAX_ROUNDS
