"""A prompt's ``repeat_penalty`` reaches the real model, in process and on llama-server, and
breaks the bundled model's loop: the same conversation prompt (its first fixture case), with
and without it."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.llm import LLM
from reverie.prompt_tools.fixtures import load_fixture
from reverie.tasks.conversation_packed import CONVERSATION_PACKED
from reverie.tasks.registry import product_tasks
from tests.loopback_server import llama_server

pytestmark = pytest.mark.slow

CASE = load_fixture(CONVERSATION_PACKED.name).cases[0]


def repeated_phrases(text: str) -> int:
    """Five-word phrases the text says again (0: no loop)."""
    words = re.findall(r"\w+", text.lower())
    return sum(n - 1 for n in Counter(zip(*(words[i:] for i in range(5)))).values() if n > 1)


def ask(settings, tmp_path, penalty: float | None) -> tuple[int, int]:
    """Completion tokens and repeated phrases of the reply as the model wrote it, with the prompt
    file's penalty set or removed."""
    prompts = tmp_path / f"prompts-{penalty}"
    shutil.copytree(PROJECT_ROOT / "prompts", prompts)
    path = prompts / f"{CONVERSATION_PACKED.name}.toml"
    text = re.sub(r"^repeat_penalty = .*\n", "", path.read_text(encoding="utf-8"), flags=re.M)
    assert text != path.read_text(encoding="utf-8"), "the product's prompt sets a repeat_penalty"
    if penalty is not None:
        text = text.replace("\ntemperature =", f"\nrepeat_penalty = {penalty}\ntemperature =", 1)
    path.write_text(text, encoding="utf-8")
    settings.paths.prompts = prompts
    trace = tmp_path / f"trace-{penalty}.jsonl"
    llm = LLM(settings, tasks=product_tasks(), ledger_path=tmp_path / f"calls-{penalty}.jsonl", trace_path=trace)
    llm.ask(CONVERSATION_PACKED, CASE.inputs, choices=CASE.choices, persona="Isabella Rodriguez")
    assert not llm.ledger.last["fallback"]
    written = json.loads(trace.read_text(encoding="utf-8").splitlines()[-1])["attempts"][0]["reply"]
    return llm.ledger.last["completion_tokens"], repeated_phrases(written)


def check(settings, tmp_path, *, shorter: bool):
    plain_tokens, plain_loops = ask(settings, tmp_path, None)
    tokens, loops = ask(settings, tmp_path, 1.1)
    print(
        f"\nwithout repeat_penalty: {plain_tokens} reply tokens, {plain_loops} repeated phrases; "
        f"with 1.1: {tokens}, {loops}"
    )
    assert plain_loops > 0, "without the penalty the bundled model carries the loop on"
    assert loops < plain_loops
    if shorter:  # the loop ran to the string's limit
        assert tokens < plain_tokens


def test_in_process(tmp_path):
    check(load_settings(PROJECT_ROOT / "config.toml"), tmp_path, shorter=True)


def test_on_llama_server(tmp_path):
    settings = load_settings(PROJECT_ROOT / "config.toml")
    with llama_server(tmp_path / "server.log", slots=1, n_ctx=2048) as url:
        settings.backend.kind, settings.backend.base_url, settings.backend.server = "openai", url, "llama.cpp"
        check(settings, tmp_path, shorter=False)
