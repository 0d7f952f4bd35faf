"""decide_to_talk / decide_to_react: enum answers; the talk fail-safe is the original's "yes"
(the gates before it are tested in tests/persona/test_social_loop.py)."""

from __future__ import annotations

import json

import pytest

from reverie import PROJECT_ROOT

from reverie.tasks.decide_reaction import (
    NEVER_TALKED,
    ReactReply,
    TalkReply,
    describe_retrieved,
    last_chat_sentence,
    react_fail_safe,
    talk_fail_safe,
)
from reverie.tasks.decide_reaction import DECIDE_TO_REACT, DECIDE_TO_TALK
from reverie.prompt_tools.fixtures import inputs_with


def test_answers_are_enums_for_the_grammar():
    assert TalkReply.model_json_schema()["properties"]["start_conversation"]["enum"] == ["yes", "no"]
    assert ReactReply.model_json_schema()["properties"]["wait_or_continue"]["enum"] == ["wait", "continue"]


@pytest.mark.parametrize("raw, answer", [("Yes", "yes"), (" no. ", "no"), (True, "yes"), (False, "no")])
def test_answer_forms_are_read(raw, answer):
    assert TalkReply.model_validate({"reason": "", "start_conversation": raw}).start_conversation == answer


@pytest.mark.parametrize(
    "last_chat",
    [NEVER_TALKED, "They last talked on February 13, 2023, 10:05:00, conversing about class."],
)
def test_talk_fail_safe_is_yes_whoever_meets(last_chat):
    inputs = {
        "last_chat": last_chat,
        "init_status": "Maria Lopez is studying",
        "target_status": "Klaus Mueller is eating lunch",
    }
    assert talk_fail_safe(inputs_with(DECIDE_TO_TALK, **inputs), {}).start_conversation == "yes"


def test_the_question_has_no_lean():
    """The original asked only whether the one would start a conversation with the other."""
    text = (PROJECT_ROOT / "prompts" / "decide_to_talk.toml").read_text()
    assert "interrupt" not in text and "busy" not in text
    assert "Would {init_name} start a conversation with {target_name}?" in text


def test_react_fail_safe_carries_on():
    assert react_fail_safe(inputs_with(DECIDE_TO_REACT), {}).wait_or_continue == "continue"


def test_context_and_last_chat_sentences():
    assert describe_retrieved(["Klaus is reading"], ["Klaus likes coffee."]) == "Klaus is reading.\nKlaus likes coffee."
    assert describe_retrieved([], []) == "Nothing in particular."
    # A perception stored at every look is said once, where it first stands.
    looks = [
        "Zara is waiting to start school",
        "Zara is baking",
        "Zara is waiting to start school",
        "Zara is waiting to start school.",
    ]
    assert describe_retrieved(looks, ["Zara is baking."]).splitlines() == [
        "Zara is waiting to start school.",
        "Zara is baking.",
    ]
    assert last_chat_sentence("", "") == NEVER_TALKED
    assert last_chat_sentence("February 13, 2023, 10:05:00", "conversing about class") == (
        "They last talked on February 13, 2023, 10:05:00, conversing about class."
    )


# --- through the facade (scripted chat model: fixed replies, not a real model) ----------

from tests.tasks.planning_support import REACT, REACT_ACTS, TALK, scripted_llm  # noqa: E402

from reverie.tasks.decide_reaction import decide_to_react, decide_to_talk  # noqa: E402


def test_talk_answer_is_followed():
    """Scripted replies "no" and "yes"."""
    llm, _ = scripted_llm(
        '{"reason": "busy", "start_conversation": "no"}', '{"reason": "a regular", "start_conversation": "yes"}'
    )
    assert decide_to_talk(llm, TALK) is False
    assert decide_to_talk(llm, TALK) is True


def test_talk_failure_is_yes():
    """Scripted replies that are never valid: yes, at a first meeting and after an earlier chat."""
    llm, _ = scripted_llm('{"reason": "hm", "start_conversation": "maybe"}')
    assert decide_to_talk(llm, TALK) is True
    assert decide_to_talk(llm, TALK, last_chat_time="February 13, 2023, 10:05:00", last_chat_about="the party") is True


def test_react_wait_and_failure():
    """Scripted: "wait", then replies that are never valid (carry on)."""
    llm, _ = scripted_llm('{"reason": "one shower", "wait_or_continue": "wait"}', "3", "3", "3")
    assert decide_to_react(llm, REACT, **REACT_ACTS) is True
    assert decide_to_react(llm, REACT, **REACT_ACTS) is False


@pytest.mark.parametrize("task, reply", [(DECIDE_TO_REACT, ReactReply), (DECIDE_TO_TALK, TalkReply)])
def test_a_looping_reason_as_long_as_allowed_leaves_room_for_the_answer(task, reply):
    """The bundled model's reason in day_32: "Theo Alvare," until the string's bound. With the old
    bound the reply ran past max_tokens before its answer, three attempts in a row; now the
    longest reason and the longest answer fit (counted by the bundled model's tokenizer)."""
    from llama_cpp import Llama

    from reverie.llm.models import bundled_model_path
    from reverie.llm.prompt_spec import load_prompt

    bound = reply.model_json_schema()["properties"]["reason"]["maxLength"]
    answer_key = next(key for key in reply.model_fields if key != "reason")
    longest_answer = max(reply.model_json_schema()["properties"][answer_key]["enum"], key=len)
    worst = json.dumps({"reason": ("Theo Alvare," * 50)[:bound], answer_key: longest_answer})
    tokens = Llama(str(bundled_model_path()), vocab_only=True, verbose=False).tokenize(worst.encode(), add_bos=False)
    max_tokens = load_prompt(PROJECT_ROOT / "prompts" / f"{task.name}.toml").max_tokens
    assert len(tokens) <= max_tokens
