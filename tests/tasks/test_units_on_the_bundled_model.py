"""The memory, reflection, conversation and interview functions on the real bundled model:
whatever the small model answers, cognition gets plain values of the promised shape; where the
small model's own answer passes the checks (the ledger says it was no fail-safe), that answer
is what cognition gets. On this model and seed, relationship_summary and insights end in their
fail-safes (insights: with the grammar's words-only pattern the model writes "The 1st" for an
insight; without it, it copied the statements with their numbers, "1. Isabella Rodriguez is
opening Hobbs Cafe", which the checks took for an insight)."""

from __future__ import annotations

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.llm import LLM
from reverie.tasks.chat_utterance import iterative_chat_utterance
from reverie.tasks.conversation_summary import PREFIX, summarize_conversation
from reverie.tasks.convo_thoughts import thought_and_memo
from reverie.prompt_tools.evaluate import read_ledger
from reverie.prompt_tools.fixtures import load_fixture
from reverie.tasks.focal_points import focal_points
from reverie.tasks.insights import insights
from reverie.tasks.interview import next_convo_line, safety_score, summarize_ideas
from reverie.tasks.poignancy import chat_poignancy, event_poignancy
from reverie.tasks.relationship_summary import relationship_summary
from reverie.tasks.whisper import whisper_inner_thought
from reverie.tasks.registry import product_tasks
from tests.tasks.planning_support import answered

pytestmark = pytest.mark.slow

ISABELLA, MARIA = "Isabella Rodriguez", "Maria Lopez"
STATEMENTS = [
    "Isabella Rodriguez is opening Hobbs Cafe",
    "Maria Lopez is studying for her physics exam at Hobbs Cafe",
    "Isabella Rodriguez is decorating the cafe for the Valentine's Day party",
    "Isabella Rodriguez is inviting Maria Lopez to the party",
]
CHAT = [
    (ISABELLA, "Hi Maria! I'm hosting a Valentine's Day party here tomorrow from 5 to 7 pm. Will you come?"),
    (MARIA, "I'd love to! Can I bring Klaus?"),
    (ISABELLA, "Of course. See you tomorrow!"),
]


@pytest.fixture(scope="module")
def llm(tmp_path_factory):
    settings = load_settings(PROJECT_ROOT / "config.toml")
    ledger = tmp_path_factory.mktemp("ledger") / "llm_calls.jsonl"
    return LLM.from_settings(settings, tasks=product_tasks(), ledger_path=ledger)


@pytest.fixture(scope="module")
def identity():
    return load_fixture("event_poignancy").cases[0].inputs["identity"]


def test_scores_are_whole_numbers_from_1_to_10(llm, identity):
    for value in (
        event_poignancy(
            llm, persona_name=ISABELLA, identity=identity, description="Isabella Rodriguez is opening Hobbs Cafe"
        ),
        chat_poignancy(
            llm, persona_name=ISABELLA, identity=identity, description="conversing about the party tomorrow"
        ),
        safety_score(llm, comment="What are you doing today?", persona_name=ISABELLA),
    ):
        assert type(value) is int and 1 <= value <= 10


def test_reflection_gives_questions_and_cited_insights(llm):
    questions = focal_points(llm, persona_name=ISABELLA, statements=STATEMENTS, n=3)
    assert 1 <= len(questions) <= 3 and all(isinstance(q, str) and q for q in questions)
    found = insights(llm, persona_name=ISABELLA, statements=STATEMENTS, n=5)
    assert 1 <= len(found) <= 5
    for text, evidence in found:
        assert text and evidence and all(0 <= i < len(STATEMENTS) for i in evidence)


def test_conversation_functions_give_sentences_and_a_real_end_flag(llm, identity):
    line, end = iterative_chat_utterance(
        llm,
        identity=identity,
        speaker=ISABELLA,
        listener=MARIA,
        memories=STATEMENTS,
        past_context="",
        location="cafe in Hobbs Cafe",
        current_context="Isabella Rodriguez sees Maria Lopez studying.",
        conversation=[],
    )
    assert isinstance(line, str) and line and end is False  # nobody ends a talk before it starts
    assert relationship_summary(llm, speaker=ISABELLA, listener=MARIA, statements=STATEMENTS)
    topic = summarize_conversation(llm, utterances=CHAT).removeprefix(PREFIX)  # the code adds the prefix
    assert topic.strip() and answered(llm, "summarize_conversation")
    assert all(thought_and_memo(llm, persona_name=MARIA, partner_name=ISABELLA, utterances=CHAT))


def test_interview_and_whisper_give_text(llm, identity):
    summary = summarize_ideas(llm, persona_name=ISABELLA, statements=STATEMENTS, question="What are your plans?")
    answer = next_convo_line(
        llm,
        persona_name=ISABELLA,
        identity=identity,
        interlocutor="Interviewer",
        conversation=[("Interviewer", "What are your plans?")],
        summary=summary,
    )
    assert summary and answer
    thought = whisper_inner_thought(llm, persona_name=ISABELLA, whisper="you and Maria Lopez are close friends")
    assert "Isabella" in thought and "you" not in thought.lower().split()


def test_every_call_is_in_the_ledger(llm):
    lines = read_ledger(llm.ledger.path)
    assert {line["prompt"] for line in lines} >= {"event_poignancy", "insights", "iterative_chat_utterance"}
    # Every other prompt got the small model's own answer (perhaps after a correction), not its fail-safe.
    assert {line["prompt"] for line in lines if line["fallback"]} <= {"relationship_summary", "insights"}
