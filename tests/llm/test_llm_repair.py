"""The repair loop, fail-safe, strict mode and the ledger, driven by a scripted fake model.

Every model here is ScriptedChat (scripted replies): these tests cover the failure paths
that a real model produces only by chance. The real-model paths are in test_llm_backends.py.
"""

from __future__ import annotations

import copy
import json
import logging

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from reverie.llm import LLM, StructuredOutputError
from llm_support import CHOICES, INPUTS, TASK, TASKS, WakeUp

VALID = '{"hour": 8, "place": "kitchen"}'
WRONG = '{"hour": 25, "place": "garden"}'
WRONG_AGAIN = '{"hour": 26, "place": "garden"}'
WRONG_THIRD = '{"hour": 27, "place": "garden"}'


def make_llm(settings, model, **kwargs) -> LLM:
    return LLM(settings, tasks=TASKS, chat_models={"strong": model, "cheap": model}, **kwargs)


def test_invalid_then_valid_reaches_the_model_with_the_errors(settings, scripted, tmp_path):
    """Scripted: one wrong reply, then a valid one."""
    model = scripted(WRONG, VALID)
    inputs, choices = copy.deepcopy(INPUTS), copy.deepcopy(CHOICES)
    llm = make_llm(settings, model, ledger_path=tmp_path / "llm_calls.jsonl")

    answer = llm.ask(TASK, inputs, choices=choices, persona="Maria Lopez")

    assert answer == WakeUp(hour=8, place="kitchen")
    assert len(model.calls) == 2
    first, second = model.calls[0][0], model.calls[1][0]
    assert second[: len(first)] == first, "the second call extends the first conversation"
    assert second[-2] == AIMessage(content=WRONG)
    correction = second[-1]
    assert isinstance(correction, HumanMessage)
    assert "hour: got 25; allowed values: 5, 6, 7, 8, 9 or 10" in correction.content
    assert (
        'place: "garden" is not one of the allowed values; choose one of: "bedroom", "kitchen", "bathroom"'
        in correction.content
    )
    # The caller's inputs and choices are untouched; the first call's messages were not extended.
    assert inputs == INPUTS and choices == CHOICES
    assert len(first) == 4  # system, example user, example assistant, user

    line = json.loads((tmp_path / "llm_calls.jsonl").read_text().strip())
    assert line["attempts"] == 2 and line["fallback"] is False and line["persona"] == "Maria Lopez"
    assert line["prompt_tokens"] == 80 and line["completion_tokens"] == 18
    assert any("garden" in e for e in line["errors"]) and all(e.startswith("attempt 1:") for e in line["errors"])
    summary = llm.ledger.summary()[TASK]
    assert summary["calls"] == 1 and summary["repaired"] == 1 and summary["first_attempt_valid"] == 0


def test_every_call_sets_max_tokens_and_the_schema_with_choices(settings, scripted):
    """Scripted: a valid reply at once (checks what the chain passes to the model)."""
    model = scripted(VALID)
    llm = make_llm(settings, model)
    llm.set_clock(12, "February 13, 2023, 07:10:00")
    llm.ask(TASK, INPUTS, choices=CHOICES)
    messages, kwargs = model.calls[0]
    assert kwargs["max_tokens"] == settings.models.cheap.max_tokens
    schema = kwargs["response_format"]["schema"]
    assert schema["properties"]["place"]["enum"] == CHOICES["places"]
    assert schema["additionalProperties"] is False
    user = messages[-1].content
    assert user.startswith("Answer with only one JSON object of this shape:")
    assert user.endswith("At what hour does Maria wake up, and in which room?")
    assert messages[2].content == '{"hour": 5, "place": "bedroom"}'  # example braces kept literally
    assert llm.ledger.summary()[TASK]["first_attempt_valid"] == 1

    settings.repair.grammar = False
    make_llm(settings, model).ask(TASK, INPUTS, choices=CHOICES)
    assert "response_format" not in model.calls[-1][1] and "max_tokens" in model.calls[-1][1]


def test_a_prompt_may_leave_its_format_line_to_the_grammar(settings, scripted, prompts_dir):
    """Scripted: with ``format_line_with_grammar = false`` the prompt goes without its format line
    while the grammar holds the reply (the schema is still sent), and with it when no grammar does."""
    path = prompts_dir / f"{TASK}.toml"
    path.write_text("format_line_with_grammar = false\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    model = scripted(VALID, VALID)
    make_llm(settings, model).ask(TASK, INPUTS, choices=CHOICES)
    messages, kwargs = model.calls[0]
    assert kwargs["response_format"]["schema"]["properties"]["place"]["enum"] == CHOICES["places"]
    assert not messages[-1].content.startswith("Answer with only one JSON object")
    assert messages[-1].content.endswith("At what hour does Maria wake up, and in which room?")

    settings.repair.grammar = False
    make_llm(settings, model).ask(TASK, INPUTS, choices=CHOICES)
    assert model.calls[-1][0][-1].content.startswith("Answer with only one JSON object of this shape:")


def test_allowed_values_are_listed_whole_however_long(settings, scripted):
    """Scripted: a place not allowed, then a valid reply. An allowed value cut off with "..."
    could never be copied right (a small model copies what the correction shows)."""
    allowed = [
        "bedroom",
        "kitchen",
        "the reading corner of the upstairs landing, by the window that looks over the pond",
    ]
    model = scripted('{"hour": 8, "place": "garden"}', VALID)
    make_llm(settings, model).ask(TASK, INPUTS, choices={"places": allowed})
    correction = model.calls[1][0][-1].content
    assert (
        f'place: "garden" is not one of the allowed values; choose one of: "bedroom", "kitchen", "{allowed[2]}"'
        in correction
    )
    assert "..." not in correction


def test_validator_context_sees_the_inputs(settings, scripted):
    """Scripted: an hour the validator rejects using the call's inputs, then a valid one."""
    model = scripted('{"hour": 5, "place": "kitchen"}', VALID)
    assert make_llm(settings, model).ask(TASK, INPUTS, choices=CHOICES).hour == 8
    assert "hour: must be 6 or later (got 5)" in model.calls[1][0][-1].content


def test_text_that_is_not_json_is_corrected(settings, scripted):
    """Scripted: prose, then fenced JSON (accepted)."""
    model = scripted("Maria wakes up at 8.", "```json\n" + VALID + "\n```")
    assert make_llm(settings, model).ask(TASK, INPUTS, choices=CHOICES).place == "kitchen"
    assert "(whole reply): not a valid JSON object" in model.calls[1][0][-1].content


def test_out_of_attempts_gives_the_fail_safe_and_logs_it(settings, scripted, tmp_path, caplog):
    """Scripted: always wrong, a different wrong each time."""
    model = scripted(WRONG, WRONG_AGAIN, WRONG_THIRD)
    llm = make_llm(settings, model, ledger_path=tmp_path / "calls.jsonl")
    with caplog.at_level(logging.WARNING, logger="reverie.llm"):
        answer = llm.ask(TASK, INPUTS, choices=CHOICES)
    assert answer == WakeUp(hour=7, place="bedroom")
    assert len(model.calls) == settings.repair.max_attempts == 3
    line = json.loads((tmp_path / "calls.jsonl").read_text())
    assert line["fallback"] is True and line["attempts"] == 3
    assert {e.split(":")[0] for e in line["errors"]} == {"attempt 1", "attempt 2", "attempt 3"}
    assert llm.ledger.summary()[TASK]["fallbacks"] == 1
    assert "fail-safe used after 3 attempt(s)" in caplog.text and "garden" in caplog.text


def test_a_reply_repeated_word_for_word_is_asked_afresh_once(settings, scripted, tmp_path):
    """Scripted: the same wrong reply twice, then a valid one. The repeat shows the correction did
    not reach the model (the bundled model repeats itself at the same seed), so the third attempt
    is the prompt alone, without the refused replies, hotter and with another seed."""
    model = scripted(WRONG, " " + WRONG + "\n", VALID)
    llm = make_llm(settings, model, ledger_path=tmp_path / "calls.jsonl")
    assert llm.ask(TASK, INPUTS, choices=CHOICES) == WakeUp(hour=8, place="kitchen")
    first, second, third = model.calls
    assert len(third.messages) == len(first.messages) < len(second.messages)
    assert third.kwargs["temperature"] > second.kwargs["temperature"] > first.kwargs.get("temperature", 0)
    assert third.kwargs.get("seed") not in (None, settings.models.strong.seed, settings.models.cheap.seed)
    line = json.loads((tmp_path / "calls.jsonl").read_text())
    assert line["fallback"] is False and line["attempts"] == 3


def test_a_reply_repeated_after_asking_afresh_ends_the_loop(settings, scripted, tmp_path):
    """Scripted: one wrong reply, always. Asked afresh once, then the fail-safe, within the attempts."""
    settings.repair.max_attempts = 5
    model = scripted(WRONG)
    llm = make_llm(settings, model, ledger_path=tmp_path / "calls.jsonl")
    assert llm.ask(TASK, INPUTS, choices=CHOICES) == WakeUp(hour=7, place="bedroom")  # the fail-safe
    assert len(model.calls) == 3
    line = json.loads((tmp_path / "calls.jsonl").read_text())
    assert line["fallback"] is True and line["attempts"] == 3
    assert line["errors"][-1] == "attempt 3: the same reply as attempt 1; not asked again"
    # A different wrong reply in between is a new try: asked again.
    model = scripted(WRONG, WRONG_AGAIN, VALID)
    assert make_llm(settings, model).ask(TASK, INPUTS, choices=CHOICES) == WakeUp(hour=8, place="kitchen")
    assert len(model.calls) == 3


def test_strict_mode_raises(settings, scripted):
    """Scripted: always wrong, with strict = true."""
    settings.repair.strict = True
    settings.repair.max_attempts = 2
    llm = make_llm(settings, scripted(WRONG))
    with pytest.raises(StructuredOutputError, match=r"prompt 'llm_test_wake_up': no valid reply after 2 attempt\(s\)"):
        llm.ask(TASK, INPUTS, choices=CHOICES)
    assert llm.ledger.summary()[TASK]["failed"] == 1


def test_no_allowed_values_goes_straight_to_the_fail_safe(settings, scripted):
    """Scripted (never called): an empty choice list cannot be answered."""
    model = scripted(VALID)
    llm = make_llm(settings, model)
    assert llm.ask(TASK, INPUTS, choices={"places": []}) == WakeUp(hour=7, place="bedroom")
    assert model.calls == []
    assert llm.ledger.summary()[TASK]["fallbacks"] == 1


def test_the_chain_is_a_runnable(settings, scripted):
    """Scripted: valid replies (checks invoke/batch and render)."""
    model = scripted(VALID)
    chain = make_llm(settings, model).chain
    request = {"name": TASK, "inputs": INPUTS, "choices": CHOICES}
    assert chain.invoke(request) == WakeUp(hour=8, place="kitchen")
    assert chain.batch([request, request], config={"max_concurrency": 1}) == [WakeUp(hour=8, place="kitchen")] * 2
    assert chain.render(TASK, INPUTS, choices=CHOICES) == model.calls[0][0]


def test_a_choice_in_other_case_or_spacing_is_taken_as_the_allowed_value(settings, scripted):
    """Scripted: the model writes an allowed place in capitals with stray spaces."""
    model = scripted('{"hour": 8, "place": "  Kitchen "}')
    answer = make_llm(settings, model).ask(TASK, INPUTS, choices=CHOICES)
    assert answer.place == "kitchen" and len(model.calls) == 1


def test_a_raw_newline_inside_a_string_is_accepted(settings, scripted):
    """Scripted: llama.cpp's JSON grammar lets a raw newline into a string; it is not an error."""
    model = scripted('{"hour": 8, "place": "kitchen\n"}', VALID)
    answer = make_llm(settings, model).ask(TASK, INPUTS, choices=CHOICES)
    assert len(model.calls) == 1 and answer.place == "kitchen"


def test_retries_sample_hotter(settings, scripted):
    """Scripted: two wrong replies; the second and third calls get a higher temperature."""
    model = scripted(WRONG, WRONG_AGAIN, VALID)
    make_llm(settings, model).ask(TASK, INPUTS, choices=CHOICES)
    temps = [kwargs.get("temperature") for _, kwargs in model.calls]
    assert temps[0] is None and temps[1] < temps[2] <= 1.2
