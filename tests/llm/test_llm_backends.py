"""The real chain against the bundled SmolLM2 GGUF: in process, and through an OpenAI-compatible server."""

from __future__ import annotations


import pytest

from llm_support import CHOICES, INPUTS, TASK, TASKS, WakeUp
from tests.loopback_server import llama_cpp_python_server
from reverie.config import Settings
from reverie.llm import LLM
from reverie.llm.models import build_chat_models

pytestmark = pytest.mark.slow

# earliest = 5: every hour the grammar allows is valid, so a valid object is always reachable.
EASY = dict(INPUTS, earliest=5)


@pytest.fixture(scope="module")
def local_models():
    settings = Settings()
    for role in (settings.models.strong, settings.models.cheap):
        role.n_ctx, role.n_threads, role.max_tokens = 1024, 2, 48
    return build_chat_models(settings)


def attempts_of(llm: LLM) -> dict:
    last = llm.ledger.last
    print(f"\n{TASK}: {last['attempts']} attempt(s), errors {last['errors']}, reply tokens {last['completion_tokens']}")
    return llm.ledger.summary()[TASK]


def test_smollm_in_process_returns_a_valid_object_with_the_grammar(settings, local_models, tmp_path):
    assert local_models["strong"].client is local_models["cheap"].client, "same file and parameters: one Llama"
    assert local_models["cheap"].client.cache is not None, "prompt cache on"
    tape = tmp_path / "tape.jsonl"
    llm = LLM(settings, tasks=TASKS, chat_models=local_models, ledger_path=tmp_path / "calls.jsonl", record=tape)

    answer = llm.ask(TASK, EASY, choices=CHOICES)

    summary = attempts_of(llm)
    assert isinstance(answer, WakeUp) and answer.place in CHOICES["places"]
    assert summary["fallbacks"] == 0 and summary["calls"] == 1
    assert summary["prompt_tokens"] > 50 and summary["completion_tokens"] > 5

    replayed = LLM.from_settings(settings, tasks=TASKS, replay=tape).ask(TASK, EASY, choices=CHOICES)
    assert replayed.model_dump_json() == answer.model_dump_json()

    llm.ask(TASK, EASY, choices=CHOICES)  # the same prompt again: its prefix is in the KV cache
    again = llm.ledger.last
    assert isinstance(again["cached_tokens"], int)
    assert again["prompt_tokens"] // 2 < again["cached_tokens"] < again["prompt_tokens"] * again["attempts"]


def test_with_the_prompt_cache_off_every_prompt_is_evaluated_in_full(settings, tmp_path):
    settings.backend.prompt_cache = False
    for role in (settings.models.strong, settings.models.cheap):
        role.n_ctx, role.n_threads, role.max_tokens = 1024, 2, 48
    models = build_chat_models(settings)
    assert models["cheap"].client.cache is None
    llm = LLM(settings, tasks=TASKS, chat_models=models, ledger_path=tmp_path / "calls.jsonl")
    llm.ask(TASK, EASY, choices=CHOICES)
    llm.ask(TASK, EASY, choices=CHOICES)
    assert llm.ledger.last["cached_tokens"] == 0


@pytest.fixture
def llama_server(tmp_path):
    with llama_cpp_python_server(tmp_path / "server.log", n_ctx=1024) as url:
        yield url


def test_the_openai_compatible_backend_returns_a_valid_object(settings, llama_server):
    settings.backend.kind = "openai"
    settings.backend.base_url = llama_server
    llm = LLM.from_settings(settings, tasks=TASKS)

    answer = llm.ask(TASK, EASY, choices=CHOICES)

    summary = attempts_of(llm)
    assert isinstance(answer, WakeUp) and answer.place in CHOICES["places"]
    assert summary["fallbacks"] == 0
    assert summary["prompt_tokens"] > 50 and summary["completion_tokens"] > 5, "usage comes from the server"

    story = build_chat_models(settings)["cheap"].invoke("Tell me a very long story about a town.", max_tokens=6)
    assert story.usage_metadata["output_tokens"] <= 6, "the server honours max_tokens"
