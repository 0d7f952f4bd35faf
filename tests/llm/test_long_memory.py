"""A long run's memories at the default n_ctx: every prompt that takes memories or chat lines
is cut to fit, so no call fails or falls back because of length (the real bundled model, on
purpose: its tokenizer and llama.cpp's context window decide what fits). Its replies are
recorded (tests/recordings/long_memory.jsonl): the real tokenizer still cuts each prompt, and a
prompt replayed is byte for byte one llama.cpp took at n_ctx 2048 with the token counts it
reported; a prompt the recording lacks goes to the model itself."""

from __future__ import annotations

import json

import pytest

from reverie.config import Settings
from reverie.doctor.doctor import LONG_RUN_LINES, long_run_inputs
from reverie.llm.prompt_size import Drop
from reverie.tasks.registry import product_tasks
from reverie.prompt_tools.fixtures import load_fixture
from tests.recorded_replies import recorded_llm

# The prompts whose inputs grow with the run, and what each trims; a prompt that loses its trim fails here.
STATEMENT_PROMPTS = (  # their retrieved statements lose the last (the least relevant) first
    "focal_points",
    "insights",
    "insights_packed",
    "identity_plan_note",
    "identity_thought_note",
    "relationship_summary",
    "summarize_ideas",
)
CHAT_PROMPTS = (  # their conversation loses its first (the oldest) lines first
    "next_convo_line",
    "memo_on_convo",
    "planning_thought_on_convo",
    "summarize_conversation",
    "convo_thoughts_packed",
)
GROWING = {
    "decide_to_talk": {"context": Drop.LAST},
    "decide_to_react": {"context": Drop.LAST},
    "iterative_chat_utterance": {"memories": Drop.LAST, "conversation": Drop.FIRST},
    "conversation_packed": {"initiator_memories": Drop.LAST, "partner_memories": Drop.LAST},
    **{name: {"statements": Drop.LAST} for name in STATEMENT_PROMPTS},
    **{name: {"conversation": Drop.FIRST} for name in CHAT_PROMPTS},
}


def test_every_prompt_with_memories_or_chat_lines_declares_them():
    declared = {name: {t.input: t.drop for t in task.trim} for name, task in product_tasks().items() if task.trim}
    assert declared == GROWING


@pytest.mark.slow
def test_five_thousand_memories_and_a_long_chat_fit_at_n_ctx_2048(tmp_path):
    settings = Settings()
    assert settings.models.strong.n_ctx == settings.models.cheap.n_ctx == 2048
    settings.repair.max_attempts = 1  # one full-window call per prompt is the point; repairs would only repeat it
    ledger = tmp_path / "llm_calls.jsonl"
    llm = recorded_llm(settings, "long_memory", ledger_path=ledger)
    sizes = {}
    for name in sorted(GROWING):
        case = load_fixture(name).cases[0]
        inputs = long_run_inputs(case.inputs, product_tasks()[name])
        for key in GROWING[name]:
            assert len(inputs[key].splitlines()) == LONG_RUN_LINES
        llm.ask(name, inputs, choices=case.choices)
        line = llm.ledger.last
        assert not [e for e in line["errors"] if "model call failed" in e], (name, line["errors"])
        assert line["trimmed_tokens"] > 0, name
        sizes[name] = (line["prompt_tokens"] + line["trimmed_tokens"], line["prompt_tokens"])
        assert sizes[name][1] <= 2048 - llm.chain.max_tokens(name), name
    lines = [json.loads(text) for text in ledger.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == len(GROWING) and all(line["trimmed_tokens"] for line in lines)
    largest = max(sizes.items(), key=lambda item: item[1][0])
    print(f"\nlargest prompt: {largest[0]} {largest[1][0]} tokens before trimming, {largest[1][1]} after")
