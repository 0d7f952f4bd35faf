"""Where a step's time goes outside the model: seconds per part of the engine, added up.

The stages of cognition (perceive, retrieve, plan, reflect, execute) are timed on the thread
that runs them, and the model calls made inside a stage (``model_call``) are taken out, so
each figure is the engine's own time. Parts that never call the model (Chroma, embeddings,
path finding) are timed as they are; they happen inside the stages and are shown as
"of which". Personas that think side by side on a multi-slot server each count their own
time, so the figures add up the personas' engine time (more than the wall time it took when
they overlap).

Any layer may import this module; it imports nothing of ``reverie``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

STAGES = ("perceive", "retrieve", "plan", "reflect", "execute")
INNER = ("chroma", "embeddings", "path finding")

_local = threading.local()
_lock = threading.Lock()
_seconds: dict[str, float] = {}


def _model_s() -> float:
    return getattr(_local, "model_s", 0.0)


@contextmanager
def model_call() -> Iterator[None]:
    """Time spent here is the model's, not the engine's."""
    started = time.perf_counter()
    try:
        yield
    finally:
        _local.model_s = _model_s() + time.perf_counter() - started


@contextmanager
def timed(part: str) -> Iterator[None]:
    """Add the time spent here, less the model calls made here on this thread, to ``part``."""
    started, model_before = time.perf_counter(), _model_s()
    try:
        yield
    finally:
        spent = time.perf_counter() - started - (_model_s() - model_before)
        with _lock:
            _seconds[part] = _seconds.get(part, 0.0) + max(0.0, spent)


def totals() -> dict[str, float]:
    """Seconds per part since the process started."""
    with _lock:
        return dict(_seconds)


def since(before: dict[str, float]) -> dict[str, float]:
    """Seconds per part since ``before`` (a :func:`totals`)."""
    now = totals()
    return {part: now[part] - before.get(part, 0.0) for part in now}
