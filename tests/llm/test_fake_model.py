"""The shipped fake chat model (reverie.llm.fake_model): the scripts a test can give it, and
its fail-safe-only mode under the real chain. It is a fake, not a model: these tests are
about the fake itself, which the failure-path and smoke tests of every room rely on."""

from __future__ import annotations

import threading

from llm_support import CHOICES, INPUTS, TASK, TASKS, WakeUp
from reverie.llm import LLM
from reverie.llm.fake_model import NEVER_VALID, FakeChatModel


def ask(model: FakeChatModel, prompt: str | None = None) -> str:
    return str(model.invoke("hi", **({"response_format": {"name": prompt}} if prompt else {})).content)


def test_replies_come_in_order_and_the_last_one_repeats():
    model = FakeChatModel(replies=["one", {"hour": 7}])
    assert [ask(model) for _ in range(3)] == ["one", '{"hour": 7}', '{"hour": 7}']
    assert model.call_count == 3 and model.calls[0].user_text == "hi"


def test_per_prompt_scripts_count_each_prompt_and_other_prompts_never_validate():
    model = FakeChatModel(replies={"a": ["a1", "a2"], "b": "b"})
    assert [ask(model, "a"), ask(model, "b"), ask(model, "a"), ask(model, "a"), ask(model, "c"), ask(model)] == [
        "a1",
        "b",
        "a2",
        "a2",
        NEVER_VALID,
        NEVER_VALID,
    ]
    assert model.prompts() == {"a": 3, "b": 1, "c": 1, None: 1}


def test_a_rule_answers_from_the_call_and_none_means_never_valid():
    model = FakeChatModel(replies=lambda call: {"echo": call.prompt} if call.prompt else None, usage=None)
    reply = model.invoke("hi", response_format={"name": "p", "schema": {}})
    assert reply.content == '{"echo": "p"}' and reply.usage_metadata is None
    assert ask(model) == NEVER_VALID


def test_fail_safe_only_ends_every_ask_in_its_fail_safe(settings, tmp_path):
    model = FakeChatModel()
    llm = LLM(
        settings, tasks=TASKS, chat_models={"strong": model, "cheap": model}, ledger_path=tmp_path / "calls.jsonl"
    )
    answer = llm.ask(TASK, INPUTS, choices=CHOICES)
    assert answer == WakeUp(hour=7, place="bedroom")  # the test task's fail-safe
    # Its junk reply is the same each time: asked afresh once at the repeat, then the fail-safe.
    assert model.call_count == 3 == settings.repair.max_attempts
    assert llm.ledger.last["fallback"] is True and llm.ledger.last["prompt_tokens"] == 100 * model.call_count


def test_a_valid_scripted_reply_is_the_answer(settings):
    model = FakeChatModel(replies={TASK: [{"hour": 8, "place": "kitchen"}]})
    llm = LLM(settings, tasks=TASKS, chat_models={"strong": model, "cheap": model})
    assert llm.ask(TASK, INPUTS, choices=CHOICES) == WakeUp(hour=8, place="kitchen")
    assert model.call_count == 1 and model.calls[0].prompt == TASK and model.calls[0].schema


def test_calls_from_threads_are_all_kept_and_overlap_is_measured():
    model = FakeChatModel(delay_s=0.05)
    threads = [threading.Thread(target=ask, args=(model,)) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert model.call_count == 3 and 2 <= model.peak_in_flight <= 3
