"""Every registered prompt against the fuzzing chat model, grammar on and off, and every
fail-safe against junk inputs (as the structured chain calls it, through
reverie.llm.fail_safe_guard): no exception escapes, every ask returns its schema.

The model is a seeded fake (fuzz_model.FuzzChat), not a real one: it sends what a broken or
hostile model could send, instantly, so that thousands of replies fit in seconds.
"""

from __future__ import annotations

import json
import random
import time
import zlib

import pytest

from tests.fuzz.fuzz_model import FuzzChat
from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.llm import LLM
from reverie.llm.fail_safe_guard import fail_safe as guarded_fail_safe
from reverie.tasks.registry import product_tasks
from reverie.prompt_tools.fixtures import load_fixture

TASKS = product_tasks()
NAMES = sorted(TASKS)
REPLIES_PER_PROMPT = 160  # per grammar setting: 33 prompts x 2 x 160 > 10,000 replies
SLOWEST_ASK_S = 5.0

TOTALS = {"replies": 0, "asks": 0}


def _settings(grammar: bool):
    settings = load_settings(PROJECT_ROOT / "config.toml", check_files=False)
    settings.repair.grammar = grammar
    return settings


def _round_trips(task, result) -> None:
    """A valid object of the task's schema, writable as UTF-8 JSON and read back the same."""
    assert isinstance(result, task.schema)
    text = result.model_dump_json()
    text.encode("utf-8")
    assert task.schema.model_validate(json.loads(text)) == result


@pytest.mark.parametrize("grammar", [True, False], ids=["grammar", "no-grammar"])
@pytest.mark.parametrize("name", NAMES)
def test_no_reply_escapes_an_ask(name, grammar, tmp_path):
    task, fixture = TASKS[name], load_fixture(name)
    model = FuzzChat(seed=zlib.crc32(f"{name}:{grammar}".encode()), valid=list(fixture.valid))
    ledger = tmp_path / "llm_calls.jsonl"
    llm = LLM(
        _settings(grammar), tasks=product_tasks(), chat_models={"strong": model, "cheap": model}, ledger_path=ledger
    )
    asks = 0
    while model.replies < REPLIES_PER_PROMPT:
        case = fixture.cases[asks % len(fixture.cases)]
        started = time.process_time()
        result = llm.ask(name, case.inputs, choices=case.choices, persona="Fuzz")
        assert time.process_time() - started < SLOWEST_ASK_S, (
            "an ask must never hang (CPU seconds: other processes do not count)"
        )
        _round_trips(task, result)
        asks += 1
    lines = ledger.read_text(encoding="utf-8").splitlines()
    assert len(lines) == asks and all(isinstance(json.loads(line), dict) for line in lines)
    TOTALS["replies"] += model.replies
    TOTALS["asks"] += asks


def test_the_prompt_fuzz_reached_ten_thousand_replies():
    """Runs after the parametrized cases above (same module, file order)."""
    print(f"\nprompt fuzz: {TOTALS['replies']} replies in {TOTALS['asks']} asks, 0 escapes")
    if TOTALS["asks"]:  # when this test runs alone, the others have not
        assert TOTALS["replies"] >= 10_000


JUNK_TEXT = [
    "",
    " ",
    "(1)",
    "...",
    "n/a",
    "1234",
    "🦄",
    "\n\n",
    "x" * 5_000,
    "Maria " * 50,
    "-5",
    "0",
    "is is is",
    "\x00",
    "None",
    "09:00 to 10:00 (60 min): (1)\n10:00 to 11:00 (x min): ...",
]


JUNK_NAMES = ["(1)", "...", "1234", "🦄", "x", "Maria Maria", "n/a", "is is is", "a" * 100]


def _junk(value, rng: random.Random):
    if isinstance(value, str):
        return rng.choice(JUNK_TEXT)
    if isinstance(value, list):
        return [_junk(v, rng) for v in value[: rng.randint(0, 3)]]
    if isinstance(value, dict):
        return {k: _junk(v, rng) for k, v in value.items()}
    if isinstance(value, bool):
        return rng.random() < 0.5
    if isinstance(value, int):
        return rng.choice([0, -1, 10**6])
    return value


@pytest.mark.parametrize("name", NAMES)
def test_every_fail_safe_survives_junk_inputs(name):
    task, fixture = TASKS[name], load_fixture(name)
    rng = random.Random(name)
    for round_ in range(60):
        case = fixture.cases[round_ % len(fixture.cases)]
        inputs = {k: _junk(v, rng) if rng.random() < 0.7 else v for k, v in case.inputs.items()}
        # Choices are names from the world: odd ones, but never longer than a choice field allows.
        choices = {
            k: ([rng.choice(JUNK_NAMES) for _ in v] if rng.random() < 0.5 else v) for k, v in case.choices.items()
        }
        if rng.random() < 0.2:
            choices = {k: [] for k in choices}  # a call with no allowed values goes straight to its fail-safe
        _round_trips(task, guarded_fail_safe(task, inputs, choices))  # what the structured chain calls
