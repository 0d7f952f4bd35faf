"""A plain LangChain callback handler sees every model call of an ask, and the output parser.

The repaired-call tests use FakeChatModel (a scripted fake model: one wrong reply, then a
valid one), so that a second attempt happens for sure; the last test makes one real call
on the bundled SmolLM2 model.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.exceptions import OutputParserException
from langchain_core.messages import AIMessage
from pydantic import BaseModel, ConfigDict, field_validator

from llm_support import CHOICES, INPUTS, TASK, TASKS, WakeUp
from reverie.llm import LLM
from reverie.llm.reply_parser import ReplyParser
from reverie.llm.schema import call_schema
from reverie.llm.task import choice_field

VALID = '{"hour": 8, "place": "kitchen"}'
WRONG = '{"hour": 25, "place": "garden"}'
CLOCK = (12, "February 13, 2023, 07:10:00")


class Seen(BaseCallbackHandler):
    """Only what LangChain hands any handler: the chat model's starts and ends, parser errors."""

    def __init__(self):
        self.starts: list[dict] = []
        self.ends: list[dict] = []
        self.parser_errors: list[BaseException] = []
        self.lock = threading.Lock()

    def on_chat_model_start(self, serialized, messages, *, run_id, metadata=None, **kwargs: Any) -> None:
        with self.lock:
            self.starts.append({"run_id": run_id, "metadata": dict(metadata or {}), "messages": messages[0]})

    def on_llm_end(self, response, *, run_id, **kwargs: Any) -> None:
        message = response.generations[0][0].message
        with self.lock:
            self.ends.append({"run_id": run_id, "usage": dict(message.usage_metadata or {}), "text": message.content})

    def on_chain_error(self, error, *, run_id, **kwargs: Any) -> None:
        if isinstance(error, OutputParserException):
            self.parser_errors.append(error)


def make_llm(settings, model, tmp_path) -> LLM:
    llm = LLM(
        settings, tasks=TASKS, chat_models={"strong": model, "cheap": model}, ledger_path=tmp_path / "llm_calls.jsonl"
    )
    llm.set_clock(*CLOCK)
    return llm


def test_a_handler_given_to_ask_sees_both_attempts_with_tokens_and_metadata(settings, scripted, tmp_path):
    """Scripted: a wrong reply, then a valid one."""
    model = scripted(WRONG, VALID)
    llm, seen = make_llm(settings, model, tmp_path), Seen()

    answer = llm.ask(TASK, INPUTS, choices=CHOICES, persona="Maria Lopez", config={"callbacks": [seen], "tags": ["t"]})

    assert answer == WakeUp(hour=8, place="kitchen")
    assert [s["messages"] for s in seen.starts] == [call[0] for call in model.calls]
    assert [s["metadata"]["attempt"] for s in seen.starts] == [1, 2]
    for start in seen.starts:
        assert start["metadata"]["persona"] == "Maria Lopez"
        assert (start["metadata"]["step"], start["metadata"]["game_time"]) == CLOCK
        assert start["metadata"]["prompt"] == TASK
    assert [e["text"] for e in seen.ends] == [WRONG, VALID]
    assert [e["run_id"] for e in seen.ends] == [s["run_id"] for s in seen.starts]
    assert [(e["usage"]["input_tokens"], e["usage"]["output_tokens"]) for e in seen.ends] == [(40, 9), (40, 9)]
    # The first reply's problem reached the handler as the parser's exception, with its correction.
    (refused,) = seen.parser_errors
    assert refused.llm_output == WRONG and refused.send_to_llm
    assert refused.observation == model.calls[1][0][-1].content
    # The ledger, a handler of the same kind, wrote the same tokens and metadata.
    line = json.loads((tmp_path / "llm_calls.jsonl").read_text())
    assert (line["prompt_tokens"], line["completion_tokens"], line["attempts"]) == (80, 18, 2)
    assert (line["persona"], line["step"], line["game_time"]) == ("Maria Lopez", *CLOCK)


def test_a_handler_given_to_the_chain_sees_each_attempt(settings, scripted, tmp_path):
    """Scripted: a wrong reply, then a valid one; persona in the config's metadata."""
    model = scripted(WRONG, VALID)
    llm, seen = make_llm(settings, model, tmp_path), Seen()
    request = {"name": TASK, "inputs": INPUTS, "choices": CHOICES}

    answer = llm.chain.invoke(request, config={"callbacks": [seen], "metadata": {"persona": "Klaus Mueller"}})

    assert answer == WakeUp(hour=8, place="kitchen")
    assert len(seen.starts) == len(seen.ends) == len(model.calls) == 2
    assert {s["metadata"]["persona"] for s in seen.starts} == {"Klaus Mueller"}
    assert all(e["usage"]["total_tokens"] == 49 for e in seen.ends)
    assert llm.ledger.last["persona"] == "Klaus Mueller" and llm.ledger.last["attempts"] == 2


def test_a_wrong_choice_is_corrected_once_even_when_the_schema_objects_too():
    """No model: the parser alone, on a schema whose own validator also rejects the choice."""

    class Go(BaseModel):
        model_config = ConfigDict(extra="forbid")
        place: str = choice_field("places", max_length=40)

        @field_validator("place")
        @classmethod
        def _known(cls, value, info):
            if value not in info.context["choices"]["places"]:
                raise ValueError(f"{value!r} is not a place you know")
            return value

    parser = ReplyParser(reply_model=Go, call_schema=call_schema(Go, CHOICES), choices=CHOICES)
    result, problems = parser.check(AIMessage(content='{"place": "garden"}'))
    assert result is None
    assert [p.path for p in problems] == ["place"]
    assert "choose one of" in problems[0].message
    assert parser.parse('{"place": "Kitchen "}').place == "kitchen"


@pytest.mark.slow
def test_a_handler_sees_the_bundled_model_call(settings, tmp_path):
    """The bundled SmolLM2 model, in process: each attempt reaches the handler with its tokens."""
    llm, seen = LLM(settings, tasks=TASKS, ledger_path=tmp_path / "llm_calls.jsonl"), Seen()
    llm.set_clock(*CLOCK)
    llm.ask(TASK, dict(INPUTS, earliest=5), choices=CHOICES, persona="Maria Lopez", config={"callbacks": [seen]})

    line = llm.ledger.last
    assert len(seen.starts) == len(seen.ends) == line["attempts"] >= 1
    assert sum(e["usage"]["input_tokens"] for e in seen.ends) == line["prompt_tokens"] > 0
    assert sum(e["usage"]["output_tokens"] for e in seen.ends) == line["completion_tokens"] > 0
    assert all(s["metadata"]["persona"] == "Maria Lopez" and s["metadata"]["step"] == CLOCK[0] for s in seen.starts)
