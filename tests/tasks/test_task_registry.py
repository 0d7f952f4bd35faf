"""Tasks as typed units: the prompt file's inputs must be the inputs model's fields, the
registry is a plain value handed to the chain, and validators see typed inputs."""

from __future__ import annotations

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.errors import UserError
from reverie.llm import LLM
from reverie.llm.prompt_spec import load_prompt
from reverie.llm.task import InputsMismatch, Task, TaskRegistry
from reverie.tasks.poignancy import EVENT_POIGNANCY, PoignancyInputs
from reverie.tasks.registry import product_tasks
from reverie.tasks.whisper import WHISPER_INNER_THOUGHT, WhisperInputs, WhisperReply

PROMPT = (PROJECT_ROOT / "prompts" / "event_poignancy.toml").read_text(encoding="utf-8")


def _prompt_with_inputs(tmp_path, inputs: list[str], extra_text: str = "", without: str = ""):
    """event_poignancy's prompt file with its ``inputs`` line changed, ``extra_text`` put in
    front of the user text, and the variable ``without`` written out as plain words."""
    lines = []
    source = PROMPT.replace("{" + without + "}", "the event") if without else PROMPT
    for line in source.splitlines():
        if line.startswith("inputs ="):
            line = "inputs = [" + ", ".join(f'"{name}"' for name in inputs) + "]"
        lines.append(line)
    text = "\n".join(lines) + "\n"
    if extra_text:
        text = text.replace('user = """', 'user = """' + extra_text, 1)
    path = tmp_path / "event_poignancy.toml"
    path.write_text(text, encoding="utf-8")
    return load_prompt(path)


def test_the_shipped_prompt_file_matches_its_inputs_model():
    spec = load_prompt(PROJECT_ROOT / "prompts" / "event_poignancy.toml")
    assert list(spec.inputs) == list(PoignancyInputs.model_fields)
    EVENT_POIGNANCY.check_prompt(spec)


def test_a_prompt_with_an_extra_input_is_a_one_line_error_naming_the_file_and_the_input(tmp_path):
    spec = _prompt_with_inputs(tmp_path, ["persona_name", "identity", "description", "mood"], "{mood} ")
    with pytest.raises(UserError) as caught:
        EVENT_POIGNANCY.check_prompt(spec)
    message = str(caught.value)
    assert "\n" not in message
    assert str(spec.path) in message
    assert "listed in the file but not in PoignancyInputs: mood" in message
    assert "not listed in the file" not in message


def test_a_prompt_missing_an_input_is_a_one_line_error_naming_the_file_and_the_input(tmp_path):
    spec = _prompt_with_inputs(tmp_path, ["persona_name", "identity"], without="description")
    assert "description" not in spec.inputs
    with pytest.raises(UserError) as caught:
        EVENT_POIGNANCY.check_prompt(spec)
    message = str(caught.value)
    assert "\n" not in message and str(spec.path) in message
    assert "in PoignancyInputs but not listed in the file: description" in message


def test_the_chain_checks_the_prompt_file_when_it_looks_a_task_up(tmp_path):
    settings = load_settings(PROJECT_ROOT / "config.toml")
    settings.paths.prompts = tmp_path
    _prompt_with_inputs(tmp_path, ["persona_name", "identity", "description", "mood"], "{mood} ")
    llm = LLM(settings, tasks=product_tasks())
    with pytest.raises(UserError, match="inputs differ from task 'event_poignancy'"):
        llm.chain.task("event_poignancy")


def test_the_registry_is_a_value_tests_extend_without_touching_the_product():
    product = product_tasks()
    mine = Task(
        name="test_only_whisper", inputs=WhisperInputs, schema=WhisperReply, fail_safe=WHISPER_INNER_THOUGHT.fail_safe
    )
    extended = product.with_(mine)
    assert "test_only_whisper" in extended and "test_only_whisper" not in product
    assert "test_only_whisper" not in product_tasks()
    assert len(extended) == len(product) + 1
    with pytest.raises(ValueError, match="two tasks are named 'event_poignancy'"):
        TaskRegistry(
            [
                EVENT_POIGNANCY,
                Task(
                    name="event_poignancy",
                    inputs=WhisperInputs,
                    schema=WhisperReply,
                    fail_safe=WHISPER_INNER_THOUGHT.fail_safe,
                ),
            ]
        )
    with pytest.raises(KeyError, match="no task named 'nope'"):
        product["nope"]


def test_validators_read_typed_inputs_and_inputs_that_do_not_fit_are_a_bug_not_a_correction():
    task = WHISPER_INNER_THOUGHT
    reply = task.validate(
        {"thought": "Isabella Rodriguez loves the cafe."},
        {"persona_name": "Isabella Rodriguez", "whisper": "you love the cafe"},
    )
    assert reply.thought == "Isabella Rodriguez loves the cafe."
    with pytest.raises(ValueError, match="mention Maria by name"):
        task.validate(
            {"thought": "Isabella Rodriguez loves the cafe."}, {"persona_name": "Maria Lopez", "whisper": "x"}
        )
    with pytest.raises(InputsMismatch, match="whisper: Field required"):
        task.validate({"thought": "Isabella Rodriguez loves the cafe."}, {"persona_name": "Isabella Rodriguez"})
    with pytest.raises(InputsMismatch, match="mood: Extra inputs are not permitted"):
        task.typed({"persona_name": "Isabella Rodriguez", "whisper": "x", "mood": "calm"})
