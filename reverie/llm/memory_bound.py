"""The in-process model's memory, bounded by its settings, and the peak a run should expect.

llama-cpp-python's RAM prompt cache saves one state per call and evicts by the size of the
KV state alone, while each saved state also carries a copy of the logits buffer
(``n_batch x n_vocab`` floats: 268 MB for a 262k-token vocabulary at ``n_batch = 256``). With
a large vocabulary that copy, uncounted, grows without bound. Here the logits are never
copied: sampling happens inside llama.cpp, and a restored state evaluates at least one token
again before it samples, so they were never read back. The cache counts every byte it holds.

The expected peak is the weights (the GGUF file, mapped), the KV cache at ``n_ctx``, the
prompt cache's capacity, and a stated margin for Python, the libraries and llama.cpp's work
buffers.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

PROMPT_CACHE_BYTES = 512 << 20
MARGIN_BYTES = 1 << 30  # Python, numpy/langchain, llama.cpp's compute buffers, with room to spare (docs/SPEED.md)
_NO_LOGITS = np.zeros((1, 1), dtype=np.single)


def state_bytes(state) -> int:
    """Everything a saved state holds: the KV state, the logits and tokens kept with it."""
    return int(state.llama_state_size) + int(state.scores.nbytes) + int(state.input_ids.nbytes)


def bounded_cache(capacity_bytes: int = PROMPT_CACHE_BYTES):
    """llama-cpp-python's RAM cache, evicting by :func:`state_bytes` rather than the KV state alone."""
    from llama_cpp import LlamaRAMCache

    class BoundedRAMCache(LlamaRAMCache):
        @property
        def cache_size(self) -> int:
            return sum(state_bytes(state) for state in self.cache_state.values())

    return BoundedRAMCache(capacity_bytes=capacity_bytes)


def keep_no_logits(llama) -> None:
    """Save and restore ``llama``'s states without its logits buffer (see the module's text).
    Only for a model that keeps no logits for every token (``logits_all`` off, as we load them)."""
    if getattr(llama, "_logits_all", False) or getattr(llama, "_keeps_no_logits", False):
        return
    save, load = llama.save_state, llama.load_state

    def without_logits(method):
        def call(*args):
            full, llama.scores = llama.scores, _NO_LOGITS
            try:
                return method(*args)
            finally:
                llama.scores = full

        return call

    llama.save_state, llama.load_state = without_logits(save), without_logits(load)
    llama._keeps_no_logits = True


@dataclass(frozen=True)
class PeakEstimate:
    weights: int
    kv_cache: int
    prompt_cache: int
    margin: int = MARGIN_BYTES

    @property
    def total(self) -> int:
        return self.weights + self.kv_cache + self.prompt_cache + self.margin

    def line(self) -> str:
        gib = lambda n: f"{n / (1 << 30):.2f} GiB"  # noqa: E731
        return (
            f"expected peak {gib(self.total)} resident: weights {gib(self.weights)} + KV cache "
            f"{gib(self.kv_cache)} + prompt cache {gib(self.prompt_cache)} + margin {gib(self.margin)}"
        )


def kv_cache_bytes(metadata: dict, n_ctx: int) -> int:
    """f16 keys and values for every layer at ``n_ctx`` tokens, from the GGUF's metadata (0 if unknown)."""
    arch = metadata.get("general.architecture", "")
    get = lambda key, default=0: int(metadata.get(f"{arch}.{key}", default) or default)  # noqa: E731
    layers, heads = get("block_count"), get("attention.head_count")
    kv_heads = get("attention.head_count_kv", heads)
    head_dim = get("embedding_length") // heads if heads else 0
    key_len, value_len = get("attention.key_length", head_dim), get("attention.value_length", head_dim)
    return n_ctx * layers * kv_heads * (key_len + value_len) * 2


def estimate(models: list[tuple[Path, dict, int]], *, prompt_cache: bool) -> PeakEstimate:
    """For the distinct loaded models (path, GGUF metadata, n_ctx): each has its own prompt cache."""
    return PeakEstimate(
        weights=sum(Path(path).stat().st_size for path, _, _ in models),
        kv_cache=sum(kv_cache_bytes(meta, n_ctx) for _, meta, n_ctx in models),
        prompt_cache=PROMPT_CACHE_BYTES * len(models) if prompt_cache else 0,
    )


def peak_rss_bytes() -> int:
    """This process's peak resident memory so far."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def rss_bytes() -> int:
    try:
        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return peak_rss_bytes()
