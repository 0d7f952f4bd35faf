"""conversation_packed: the whole conversation in one call, its lines checked as they come back.

The real LLM facade over a scripted fake chat model (fixed replies; not a real model): what
is checked is what the unit sends back to the model and how a reply becomes the transcript.
The bundled model answers this prompt in tests/tasks/test_all_prompts.py like every other prompt.
"""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import AIMessage

from reverie.llm.reply_parser import ReplyParser
from reverie.llm.schema import call_schema
from reverie.prompt_tools.fixtures import load_fixture
from reverie.tasks.conversation_packed import CONVERSATION_PACKED, ConversationReply, packed_conversation
from tests.tasks.planning_support import last_user_text, scripted_llm

ISABELLA, MARIA = "Isabella Rodriguez", "Maria Lopez"
GOOD = [
    "Hi Maria! Studying hard again today?",
    "Hi Isabella! Yes, my exam is on Thursday.",
    "Good luck! Come to my Valentine's Day party tomorrow at 5 pm.",
    "I will! See you there.",
]


def _talk_and_topic(llm):
    case = dict(load_fixture("conversation_packed").cases[0].inputs)
    for key in ("initiator_memories", "partner_memories"):
        case[key] = [line.removeprefix("- ") for line in case[key].splitlines()]
    return packed_conversation(llm, **case)


def _talk(llm):
    return _talk_and_topic(llm)[0]


def _reply(lines: list[str], about: str = "Maria's exam and the party") -> str:
    return json.dumps({"lines": lines, "about": about})


def _fell_back(llm) -> bool:
    return llm.ledger.summary()["conversation_packed"]["fallbacks"] == 1


def test_one_call_gives_the_lines_to_the_speakers_in_turn_initiator_first():
    llm, model = scripted_llm(_reply(GOOD[:3]))
    convo = _talk(llm)
    assert model.call_count == 1
    assert convo == [(ISABELLA, GOOD[0]), (MARIA, GOOD[1]), (ISABELLA, GOOD[2])]


def test_a_speakers_name_in_front_of_a_line_is_dropped():
    llm, model = scripted_llm(_reply([f"{ISABELLA}: {GOOD[0]}", f"Maria: {GOOD[1]}", f'"{GOOD[2]}"']))
    assert _talk(llm) == [(ISABELLA, GOOD[0]), (MARIA, GOOD[1]), (ISABELLA, GOOD[2])]
    assert model.call_count == 1 and not _fell_back(llm)


def test_a_line_said_twice_ends_the_conversation_before_it():
    """The bundled model loops when a talk runs out: the lines before the first repeat are the
    conversation, with no second call."""
    llm, model = scripted_llm(_reply([GOOD[0], GOOD[1], GOOD[2], GOOD[1], GOOD[2]]))
    convo = _talk(llm)
    assert model.call_count == 1 and not _fell_back(llm)
    assert convo == [(ISABELLA, GOOD[0]), (MARIA, GOOD[1]), (ISABELLA, GOOD[2])]


def test_a_line_said_twice_before_two_lines_is_sent_back():
    llm, model = scripted_llm(_reply([GOOD[0], GOOD[0], GOOD[1]]), _reply(GOOD))
    convo = _talk(llm)
    assert model.call_count == 2
    assert "line 2 repeats an earlier line word for word" in last_user_text(model)
    assert [line for _, line in convo] == GOOD


def test_a_one_line_conversation_is_sent_back():
    llm, model = scripted_llm(_reply(GOOD[:1]), _reply(GOOD[:2]))
    convo = _talk(llm)
    assert model.call_count == 2 and "at least 2 lines" in last_user_text(model)
    assert convo == [(ISABELLA, GOOD[0]), (MARIA, GOOD[1])]


def test_a_line_that_says_nothing_is_sent_back():
    llm, model = scripted_llm(_reply([GOOD[0], "Maria Lopez: ...", GOOD[2]]), _reply(GOOD))
    _talk(llm)
    assert model.call_count == 2 and "line 2 is a placeholder" in last_user_text(model)


def test_a_call_that_never_validates_means_no_conversation():
    """Every reply one line long: the fail-safe is "no conversation" ([]), for the caller to
    hold the talk line by line."""
    llm, model = scripted_llm(_reply(GOOD[:1]))
    assert _talk(llm) == []
    assert model.call_count >= 2 and _fell_back(llm)


def test_the_topic_comes_with_the_lines_checked_as_a_summary_is():
    """The reply's topic is the conversation's activity; a lead-in ("They are talking about") is
    dropped, as summarize_conversation drops it."""
    llm, model = scripted_llm(_reply(GOOD, about="They are talking about Maria's exam and the party."))
    convo, topic = _talk_and_topic(llm)
    assert model.call_count == 1 and len(convo) == 4
    assert topic == "Maria's exam and the party"


@pytest.mark.parametrize("about", ["the weather at the harbour", "party", "..."])
def test_a_topic_that_fails_its_checks_is_left_empty_and_the_lines_stand(about):
    """Not from the conversation, one word, a placeholder:
    the topic is left empty (the caller then asks summarize_conversation) and nothing is sent back."""
    llm, model = scripted_llm(_reply(GOOD, about=about))
    convo, topic = _talk_and_topic(llm)
    assert model.call_count == 1 and not _fell_back(llm)
    assert [line for _, line in convo] == GOOD and topic == ""


def test_a_reply_cut_off_inside_its_lines_keeps_them_and_leaves_the_topic_to_the_summary():
    """The bundled model loops a line until max_tokens (6 of 24 captured calls once the topic
    came last): closed where it stopped, the lines are kept, with no topic, instead of the
    reply being sent back as cut off for the missing field."""
    case = load_fixture("conversation_packed").cases[0]
    parser = ReplyParser(
        reply_model=ConversationReply,
        call_schema=call_schema(ConversationReply, {}),
        inputs=dict(case.inputs),
        task=CONVERSATION_PACKED,
        task_name="conversation_packed",
    )
    cut = (
        '{"lines": ["Morning, Maria! Ready for the exam?", "Yes, Isabella! I am going to wake up at 1:30 am. '
        'I am going to wake up at 2:00 am.", "Good luck, Maria! I am going to wake up at 3:00 am. I am go'
    )
    reply, problems = parser.check(AIMessage(content=cut, response_metadata={"finish_reason": "length"}))
    assert problems == []
    assert len(reply.lines) == 3 and reply.lines[2] == "Good luck, Maria! I am going to wake up at 3:00 am. I am"
    assert reply.about == ""
