"""Typed asks (``llm.ask(TASK, Inputs(...))``), the language-model interface's defaults, the
retry wrapper kept apart from the repair loop, and the backend kind as a type.

The chat model here is the scripted fake (reverie.llm.fake_model), not a real model: these
tests are about the plumbing around it, which gives every ask the same prompt whichever way
its inputs are written."""

from __future__ import annotations

import json

import pytest

from llm_support import CHOICES, INPUTS, TASK, TASKS, WAKE_UP_TASK, WakeUp, WakeUpInputs
from reverie.config import BackendKind, BackendSettings, ConfigError, load_settings
from reverie.llm import LLM
from reverie.llm.fake_model import FakeChatModel
from reverie.llm.language_model import LanguageModel
from reverie.llm.retry_model import RetryingModel, RetryPolicy
from reverie.llm.server_errors import BackendLost
from reverie.llm.task import Task, TaskRegistry, given_values
from reverie.tasks.wake_up_hour import WAKE_UP_HOUR

VALID = {"hour": 8, "place": "kitchen"}


def make_llm(settings, tmp_path, model: FakeChatModel, tasks: TaskRegistry = TASKS) -> LLM:
    return LLM(
        settings,
        tasks=tasks,
        chat_models={"strong": model, "cheap": model},
        ledger_path=tmp_path / "calls.jsonl",
        trace_path=tmp_path / "trace.jsonl",
    )


def traced(tmp_path) -> list[dict]:
    return [json.loads(line) for line in (tmp_path / "trace.jsonl").read_text(encoding="utf-8").splitlines()]


def test_a_typed_ask_sends_and_records_what_the_same_ask_by_name_does(settings, tmp_path):
    model = FakeChatModel(replies=[VALID])
    llm = make_llm(settings, tmp_path, model)
    typed = llm.ask(WAKE_UP_TASK, WakeUpInputs(**INPUTS), choices=CHOICES)
    by_name = llm.ask(TASK, INPUTS, choices=CHOICES)
    assert isinstance(typed, WakeUp) and typed == by_name == WakeUp(**VALID)
    assert model.calls[0].messages == model.calls[1].messages  # a cassette keys on these
    first, second = traced(tmp_path)
    assert first["inputs"] == second["inputs"] == INPUTS and list(first["inputs"]) == list(INPUTS)


def test_inputs_left_to_their_default_are_not_given():
    class WithDefault(WakeUpInputs):
        note: str = "unused"

    assert given_values(WithDefault(name="Ann", lifestyle="x", earliest=5)) == {
        "name": "Ann",
        "lifestyle": "x",
        "earliest": 5,
    }


def test_a_task_the_llm_was_not_given_is_refused(settings, tmp_path):
    model = FakeChatModel(replies=[VALID])
    llm = make_llm(settings, tmp_path, model, tasks=TaskRegistry([WAKE_UP_TASK]))
    twin = Task(name=TASK, inputs=WakeUpInputs, schema=WakeUp, fail_safe=WAKE_UP_TASK.fail_safe)
    with pytest.raises(KeyError, match="not the one this LLM was given"):
        llm.ask(twin, WakeUpInputs(**INPUTS), choices=CHOICES)
    with pytest.raises(KeyError, match="not the one this LLM was given"):
        llm.ask(WAKE_UP_HOUR, WAKE_UP_HOUR.inputs(identity="i", lifestyle="l", first_name="f"))
    assert model.call_count == 0


def test_an_answerer_without_a_server_keeps_the_interfaces_defaults():
    class Canned(LanguageModel):
        def ask(self, task, inputs, *, choices=None, persona=None, config=None):
            return WakeUp(**VALID)

    canned = Canned()
    canned.check_backend()
    canned.reconnect()
    canned.set_clock(3, "08:00")
    assert canned.backend_lost is None and canned.replaying is False
    assert canned.ask(WAKE_UP_TASK, WakeUpInputs(**INPUTS)) == WakeUp(**VALID)


def test_a_dropped_connection_is_retried_below_the_repair_loop(settings, tmp_path):
    """The fake model drops the first connection, then answers: one attempt, not a repair."""
    settings.backend.retry_pause_s = 0
    dropped = []

    def rule(call):
        if not dropped:
            dropped.append(call)
            raise ConnectionError("connection reset by peer")
        return VALID

    model = FakeChatModel(replies=rule)
    llm = make_llm(settings, tmp_path, model)
    assert llm.ask(WAKE_UP_TASK, WakeUpInputs(**INPUTS), choices=CHOICES) == WakeUp(**VALID)
    assert len(dropped) == 1 and model.call_count == 2  # the dropped try and the one that came back
    assert llm.ledger.last["attempts"] == 1 and llm.ledger.last["fallback"] is False


def test_the_retry_policy_stops_after_its_retries_and_pauses_longer_each_time():
    pauses, tries = [], []

    def fails():
        tries.append(1)
        raise ConnectionError("refused")

    policy = RetryPolicy(server=True, where="http://x/v1", retries=2, first_pause_s=0.5)
    with pytest.raises(BackendLost, match=r"^\[backend\] the model server at http://x/v1 cannot be reached"):
        policy.call(fails, sleep=pauses.append)
    assert len(tries) == 3 and pauses == [0.5, 1.0]


def test_a_bug_of_ours_is_not_retried():
    tries = []

    def bug():
        tries.append(1)
        raise KeyError("ours")

    with pytest.raises(KeyError):
        RetryPolicy(server=False, where="in process").call(bug, sleep=lambda s: None)
    assert len(tries) == 1


def test_the_wrapper_binds_the_model_it_wraps():
    model = FakeChatModel(replies=[VALID])
    wrapped = RetryingModel(model, RetryPolicy(server=False, where="in process")).bind(max_tokens=7)
    assert isinstance(wrapped, RetryingModel)
    wrapped.invoke("hi")
    assert model.calls[0].kwargs["max_tokens"] == 7


def test_the_backend_kind_is_a_type_written_as_before(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[backend]\nkind = "openai"\n', encoding="utf-8")
    assert load_settings(path).backend.kind is BackendKind.OPENAI and BackendKind.OPENAI.server
    backend = BackendSettings()
    assert backend.kind is BackendKind.LLAMA_CPP and not backend.kind.server
    backend.kind = "openai"  # code that sets the string gets the kind
    assert backend.kind is BackendKind.OPENAI and json.dumps(backend.kind) == '"openai"'
    path.write_text('[backend]\nkind = "tgi"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="kind"):
        load_settings(path)
