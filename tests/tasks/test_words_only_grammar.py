"""The phrase fields of a packed action answer are words only in the grammar.

Two ``actions_packed`` calls of a 25-person day on the real bundled model, where the model ran
a string of emoji into ``event_predicate`` and on through the next fields until the reply was
cut off at its token limit (both failed three times and fell back on a call per subtask). The
same calls, asked again on the bundled GGUF through llama.cpp with the words-only pattern in
the grammar, come back whole the first time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.llm import LLM
from reverie.prompt_tools.evaluate import read_ledger
from reverie.tasks.action_packed import PackedActionReply
from reverie.tasks.actions_packed import ACTIONS_PACKED
from reverie.tasks.common import WORD_CHARACTERS
from reverie.tasks.registry import product_tasks

CASES = json.loads((Path(__file__).parents[1] / "fixtures" / "actions_packed_emoji_runs.json").read_text())["cases"]


def test_the_phrase_fields_carry_the_words_only_pattern():
    properties = PackedActionReply.model_json_schema()["properties"]
    for field in ("event_predicate", "event_target", "object_state"):
        assert properties[field]["pattern"].startswith(f"^[{WORD_CHARACTERS}]{{0,")
    assert "pattern" not in properties["emoji"]


@pytest.mark.slow
def test_calls_that_ran_emoji_until_cut_off_come_back_whole(tmp_path):
    ledger = tmp_path / "llm_calls.jsonl"
    llm = LLM.from_settings(load_settings(PROJECT_ROOT / "config.toml"), tasks=product_tasks(), ledger_path=ledger)
    for case in CASES:
        llm.ask(ACTIONS_PACKED, ACTIONS_PACKED.typed(case["inputs"]), choices=case["choices"])
    lines = read_ledger(ledger)
    assert [line["prompt"] for line in lines] == ["actions_packed"] * len(CASES)
    cut = [error for line in lines for error in line["errors"] if "cut off" in error]
    assert not cut, cut
    assert not any(line["fallback"] for line in lines)
