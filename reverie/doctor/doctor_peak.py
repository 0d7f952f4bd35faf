"""The `doctor` line for memory: the peak resident memory a long run should stay within.

The in-process models' weights, their KV caches at ``n_ctx``, their prompt caches' capacity
and a stated margin (:mod:`reverie.llm.memory_bound`), against the machine's memory.
"""

from __future__ import annotations

import os

from reverie.config import Settings


def machine_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def peak_memory(settings: Settings, llm) -> tuple[bool, str, str]:
    """(ok, what to expect, what to change when it does not fit)."""
    from reverie.llm.memory_bound import PeakEstimate, estimate
    from reverie.llm.models import ROLES, model_path

    if settings.backend.kind.server:
        bound = PeakEstimate(weights=0, kv_cache=0, prompt_cache=0)
        return True, f"the model runs in the server; this process: {bound.line()}", ""
    loaded = {}
    for role in ROLES:
        client = llm._model(role).client
        loaded[id(client)] = (model_path(getattr(settings.models, role)), client.metadata, client.n_ctx())
    bound = estimate(list(loaded.values()), prompt_cache=settings.backend.prompt_cache)
    total = machine_memory()
    if total is not None and bound.total > total:
        return (
            False,
            f"{bound.line()}, more than this machine's {total / (1 << 30):.1f} GiB",
            "use a smaller model or n_ctx, or set [backend] prompt_cache = false",
        )
    room = f" of {total / (1 << 30):.1f} GiB" if total else ""
    return True, bound.line() + room, ""


__all__ = ["machine_memory", "peak_memory"]
