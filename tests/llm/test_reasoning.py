"""Reasoning models: replies that think first parse with the grammar off; with the grammar on,
no token is spent on thinking.

The grammar-off replies are recorded in the shapes DeepSeek-R1 distills and Qwen3 write
(the block opened by the reply, or already opened by the chat template), replayed by the
scripted model."""

from __future__ import annotations

import json

import pytest

from chat_templates import fixture_gguf, llama_cpp_templates
from llm_support import CHOICES, INPUTS, TASK, TASKS
from reverie.llm import LLM
from reverie.llm.reasoning import without_reasoning

R1_REPLY = (
    '<think>\nMaria likes to sleep in, so not before 6. Something like {"hour": 5} would be too early.\n'
    'The kitchen makes sense.\n</think>\n\n{"hour": 8, "place": "kitchen"}'
)
OPENED_BY_TEMPLATE = 'She sleeps in; the bedroom is where she wakes.\n</think>\n{"hour": 9, "place": "bedroom"}'
QWEN3_EMPTY_THINK = '<think>\n\n</think>\n\n{"hour": 7, "place": "bathroom"}'


@pytest.mark.parametrize("reply, hour", [(R1_REPLY, 8), (OPENED_BY_TEMPLATE, 9), (QWEN3_EMPTY_THINK, 7)])
def test_a_reply_that_thinks_first_is_valid_on_the_first_attempt(settings, scripted, reply, hour):
    settings.repair.grammar = False
    model = scripted(reply)
    answer = LLM(settings, tasks=TASKS, chat_models={"strong": model, "cheap": model}).ask(
        TASK, INPUTS, choices=CHOICES
    )
    assert answer.hour == hour and len(model.calls) == 1


def test_thinking_that_never_ends_is_sent_back_for_an_answer(settings, scripted):
    settings.repair.grammar = False
    model = scripted('<think>\nLet me consider {"hour": 5} first and', '{"hour": 7, "place": "kitchen"}')
    answer = LLM(settings, tasks=TASKS, chat_models={"strong": model, "cheap": model}).ask(
        TASK, INPUTS, choices=CHOICES
    )
    assert answer.hour == 7 and len(model.calls) == 2


def test_text_without_a_reasoning_block_is_left_alone():
    assert without_reasoning('{"a": "<think> is a tag"}') == '{"a": "<think> is a tag"}'


@pytest.mark.slow
def test_with_the_grammar_on_a_reasoning_template_gets_json_at_once(tmp_path):
    """DeepSeek-R1-Distill's template opens a <think> block for the model: the grammar still
    makes the reply's first token the JSON object."""
    from reverie.config import Settings
    from reverie.prompt_tools.fixtures import load_fixture

    template = llama_cpp_templates() / "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja"
    settings = Settings()
    for role in (settings.models.strong, settings.models.cheap):
        role.path, role.n_ctx, role.n_threads = str(fixture_gguf(template)), 1024, 2
    tape = tmp_path / "tape.jsonl"
    llm = LLM(settings, tasks=TASKS, ledger_path=tmp_path / "calls.jsonl", record=tape)
    case = load_fixture("pronunciatio").cases[0]
    llm.ask("pronunciatio", case.inputs, choices=case.choices)
    replies = [json.loads(line)["reply"] for line in tape.read_text(encoding="utf-8").splitlines()]
    assert replies and all(r.lstrip().startswith("{") and "think>" not in r for r in replies), replies
