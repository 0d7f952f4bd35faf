"""The repair loop's transitions that test_llm_repair.py does not walk: a failed call, a lost
server, a reply refused on the last attempt, and a replayed recording of every kind of turn.

Every model here is the scripted fake chat model (not a real model), or one that raises what a
model server's client raises: these are failure paths a real model produces only by chance.
"""

from __future__ import annotations

import json

import pytest
from llm_support import CHOICES, INPUTS, TASK, TASKS, USAGE, WakeUp

from reverie.llm import LLM
from reverie.llm.fake_model import FakeCall, FakeChatModel
from reverie.llm.server_errors import AskFailed, BackendLost, ServerFailing

VALID = '{"hour": 8, "place": "kitchen"}'
WRONG = '{"hour": 25, "place": "garden"}'
WRONG_AGAIN = '{"hour": 26, "place": "garden"}'
FAIL_SAFE = WakeUp(hour=7, place="bedroom")


def make_llm(settings, model, **kwargs) -> LLM:
    return LLM(settings, tasks=TASKS, chat_models={"strong": model, "cheap": model}, **kwargs)


def raising(error: Exception) -> FakeChatModel:
    """A fake model whose every call raises ``error`` (as a server's client would)."""

    def reply(call: FakeCall) -> str:
        raise error

    return FakeChatModel(replies=reply, usage=USAGE)


def test_a_refused_call_is_not_repaired_and_the_fail_safe_is_used(settings, tmp_path):
    """A request the server refuses (a 400) is no reply to correct: no second call, the fail-safe."""
    model = raising(AskFailed("refused (HTTP 400: the prompt is too long)"))
    llm = make_llm(settings, model, ledger_path=tmp_path / "calls.jsonl")
    assert llm.ask(TASK, INPUTS, choices=CHOICES) == FAIL_SAFE
    assert len(model.calls) == 1
    line = json.loads((tmp_path / "calls.jsonl").read_text())
    assert line["fallback"] is True and line["attempts"] == 1
    assert line["errors"] == ["attempt 1: model call failed: refused (HTTP 400: the prompt is too long)"]


def test_a_lost_server_is_not_repaired_and_no_fail_safe_stands_in(settings, tmp_path):
    """A server that failed for good raises out of the ask after one call; no fail-safe answer."""
    model = raising(ServerFailing("the model server failed 4 times in a row"))
    llm = make_llm(settings, model, ledger_path=tmp_path / "calls.jsonl")
    with pytest.raises(BackendLost):
        llm.ask(TASK, INPUTS, choices=CHOICES)
    assert len(model.calls) == 1
    with pytest.raises(BackendLost):  # and every later ask, without calling the model
        llm.ask(TASK, INPUTS, choices=CHOICES)
    assert len(model.calls) == 1


def test_a_new_wrong_reply_on_the_last_attempt_ends_in_the_fail_safe_without_another_call(settings, tmp_path):
    """Two attempts allowed: a wrong reply, a different wrong one, then no third call."""
    settings.repair.max_attempts = 2
    model = FakeChatModel(replies=[WRONG, WRONG_AGAIN, VALID], usage=USAGE)
    llm = make_llm(settings, model, ledger_path=tmp_path / "calls.jsonl")
    assert llm.ask(TASK, INPUTS, choices=CHOICES) == FAIL_SAFE
    assert len(model.calls) == 2
    line = json.loads((tmp_path / "calls.jsonl").read_text())
    assert line["attempts"] == 2 and not any("asked" in error for error in line["errors"])


def test_a_model_that_is_not_a_cassette_gets_no_recording_key(settings):
    """Live turns carry only the model's own keywords (a cassette's key never reaches a model)."""
    model = FakeChatModel(replies=[WRONG, VALID], usage=USAGE)
    make_llm(settings, model).ask(TASK, INPUTS, choices=CHOICES)
    assert [sorted(call.kwargs) for call in model.calls] == [["max_tokens", "response_format"]] + [
        ["max_tokens", "response_format", "temperature"]
    ]


def test_a_replayed_ask_asks_no_model_whatever_its_turns_were(settings, tmp_path):
    """Recorded: two repair turns, a repeat asked afresh, a valid reply; then a repair turn, a
    repeat asked afresh and a repeat after that (the fail-safe). Replayed with no model at all:
    the same answers and the same ledger."""
    settings.repair.max_attempts = 4
    model = FakeChatModel(replies=[WRONG, WRONG_AGAIN, WRONG, VALID, WRONG, WRONG, WRONG], usage=USAGE)
    tape = tmp_path / "calls.tape.jsonl"
    recorder = make_llm(settings, model, record=tape, ledger_path=tmp_path / "recorded.jsonl")
    klaus = dict(INPUTS, name="Klaus")
    recorded = [recorder.ask(TASK, INPUTS, choices=CHOICES), recorder.ask(TASK, klaus, choices=CHOICES)]
    assert recorded == [WakeUp(hour=8, place="kitchen"), FAIL_SAFE] and len(model.calls) == 7
    assert all("taped" not in call.kwargs for call in model.calls), "the recording key reached the model"

    settings.models.cheap.path = settings.models.strong.path = str(tmp_path / "no-such-model.gguf")
    player = LLM.from_settings(settings, tasks=TASKS, replay=tape, ledger_path=tmp_path / "replayed.jsonl")
    replayed = [player.ask(TASK, INPUTS, choices=CHOICES), player.ask(TASK, klaus, choices=CHOICES)]
    assert replayed == recorded
    assert player._models is None, "no chat model was built"

    def ledger(name: str) -> list[tuple]:
        lines = [json.loads(line) for line in (tmp_path / name).read_text().splitlines()]
        return [(line["attempts"], line["fallback"], line["errors"]) for line in lines]

    assert ledger("replayed.jsonl") == ledger("recorded.jsonl")
    assert [errors[-1].split(": ", 1)[1] for _, _, errors in ledger("replayed.jsonl")] == [
        "the same reply as attempt 1; asked afresh with another seed",
        "the same reply as attempt 1; not asked again",
    ]
