"""The call trace (reverie.llm.call_trace): each ask kept whole in llm_trace.jsonl.

The repaired and fail-safe tests use FakeChatModel (a scripted fake model), so that a wrong
reply, its correction and a second attempt happen for sure; the slow test makes one real
call on the bundled SmolLM2 model and checks the trace against what the ledger counted.
"""

from __future__ import annotations

import json

import pytest

from llm_support import CHOICES, INPUTS, TASK, TASKS
from reverie.llm import LLM
from reverie.llm.fake_model import FakeChatModel

VALID = '{"hour": 8, "place": "kitchen"}'
TOO_EARLY = '{"hour": 5, "place": "kitchen"}'
CLOCK = (12, "February 13, 2023, 07:10:00")


def make_llm(settings, tmp_path, model=None) -> LLM:
    models = {"strong": model, "cheap": model} if model else None
    llm = LLM(
        settings,
        tasks=TASKS,
        chat_models=models,
        ledger_path=tmp_path / "llm_calls.jsonl",
        trace_path=tmp_path / "llm_trace.jsonl",
    )
    llm.set_clock(*CLOCK)
    return llm


def traced(tmp_path) -> list[dict]:
    return [json.loads(line) for line in (tmp_path / "llm_trace.jsonl").read_text(encoding="utf-8").splitlines()]


def test_a_repaired_call_keeps_each_reply_its_correction_and_the_value_used(settings, scripted, tmp_path):
    """Scripted fake model: a reply the validator refuses (too early), then a valid one."""
    model = scripted(TOO_EARLY, VALID)
    llm = make_llm(settings, tmp_path, model)
    answer = llm.ask(TASK, INPUTS, choices=CHOICES, persona="Maria Lopez")

    [call] = traced(tmp_path)
    assert call["outcome"] == "repaired" and call["fallback"] is False
    assert call["value"] == answer.model_dump(mode="json") == {"hour": 8, "place": "kitchen"}
    assert call["inputs"] == INPUTS and call["choices"] == CHOICES
    assert (call["persona"], call["step"], call["game_time"]) == ("Maria Lopez", *CLOCK)
    first, second = call["attempts"]
    assert first["reply"] == TOO_EARLY and second["reply"] == VALID
    # The correction recorded is the very text the model got back on its second attempt.
    sent_second = model.calls[1].messages
    assert sent_second[-1].content == first["correction"] and "6 or later" in first["correction"]
    assert second["correction"] is None and second["problems"] == []
    # The first attempt's messages, as sent, and where the template lies in the prompt file.
    assert [m["content"] for m in call["messages"]] == [m.content for m in model.calls[0].messages]
    assert call["prompt_file"] == f"{TASK}.toml"
    source = (settings.paths.prompts / call["prompt_file"]).read_text().splitlines()
    assert source[call["user_line"] - 1].startswith("user =") and source[call["system_line"] - 1].startswith("system =")
    assert llm.ledger.last["attempts"] == 2  # the ledger still counts the call as before


def test_a_fallback_keeps_every_refused_reply_and_the_fail_safe_value(settings, scripted, tmp_path):
    """Scripted fake model whose replies never validate: three attempts, then the task's fail-safe."""
    llm = make_llm(settings, tmp_path, scripted("no", "still no", "never"))
    answer = llm.ask(TASK, INPUTS, choices=CHOICES)

    [call] = traced(tmp_path)
    assert call["outcome"] == "fallback" and call["fallback"] is True
    assert call["value"] == answer.model_dump(mode="json") == {"hour": 7, "place": "bedroom"}
    assert [a["reply"] for a in call["attempts"]] == ["no", "still no", "never"]
    assert all(a["problems"] and a["correction"] for a in call["attempts"])
    assert call["errors"] == llm.ledger.last["errors"]


def test_trace_off_in_the_config_writes_nothing_and_the_bound_stops_the_file(settings, scripted, tmp_path):
    """Scripted fake model: [trace] calls = false writes no trace; a tiny max_mb keeps the file under it."""
    settings.trace.calls = False
    make_llm(settings, tmp_path, scripted(VALID)).ask(TASK, INPUTS, choices=CHOICES)
    assert not (tmp_path / "llm_trace.jsonl").exists() and (tmp_path / "llm_calls.jsonl").exists()

    settings.trace.calls, settings.trace.max_mb = True, 3000 / 1024 / 1024  # room for about one call
    llm = make_llm(settings, tmp_path, scripted(VALID))
    for _ in range(4):
        llm.ask(TASK, INPUTS, choices=CHOICES)
    size = (tmp_path / "llm_trace.jsonl").stat().st_size
    assert 0 < size <= 3000 and len(traced(tmp_path)) < 4 and llm.trace.full
    assert len((tmp_path / "llm_calls.jsonl").read_text().splitlines()) == 1 + 4  # the ledger goes on


@pytest.mark.slow
def test_a_bundled_model_call_is_traced_as_the_ledger_counted_it(settings, tmp_path):
    """The bundled SmolLM2 model, in process: one real call, traced whole."""
    llm = make_llm(settings, tmp_path)
    answer = llm.ask(TASK, dict(INPUTS, earliest=5), choices=CHOICES, persona="Maria Lopez")

    [call] = traced(tmp_path)
    line = llm.ledger.last
    assert len(call["attempts"]) == line["attempts"] >= 1
    assert call["fallback"] == line["fallback"] and call["value"] == answer.model_dump(mode="json")
    assert all(a["reply"] for a in call["attempts"])
    assert call["outcome"] in ("valid", "repaired", "fallback")
    assert (call["outcome"] == "valid") == (line["attempts"] == 1 and not line["fallback"])
    assert "Maria" in call["messages"][-1]["content"]
