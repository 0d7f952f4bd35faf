"""Accounting of every ``ask``: one JSON line each, and a per-prompt summary in memory."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from reverie.errors import naming
from reverie.llm.safe_text import json_line

FIELDS = (
    "prompt",
    "role",
    "persona",
    "step",
    "game_time",
    "attempts",
    "errors",
    "prompt_tokens",
    "completion_tokens",
    "cached_tokens",
    "trimmed_tokens",
    "latency_s",
    "fallback",
    "ts",
    "server",  # the base_url of the server(s) that answered (a run over a server; None in process)
)


def _empty() -> dict[str, Any]:
    return {
        "calls": 0,
        "first_attempt_valid": 0,
        "repaired": 0,
        "fallbacks": 0,
        "failed": 0,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "trimmed_tokens": 0,
        "latency_s": 0.0,
    }


class Ledger:
    """Appends entries to ``path`` (JSON lines) when given, and keeps totals per prompt."""

    def __init__(self, path: Path | None = None):
        self.path = Path(path) if path else None
        self._totals: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()
        self.last: dict[str, Any] | None = None  # the latest entry (handy for `prompts eval`)
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)

    def record(self, *, valid: bool, **fields: Any) -> dict[str, Any]:
        """Account one ask. ``valid``: a checked reply came back (else fail-safe or raise)."""
        entry: dict[str, Any] = {key: fields.get(key) for key in FIELDS}
        entry["ts"] = entry["ts"] or round(time.time(), 3)
        with self._lock:
            totals = self._totals.setdefault(entry["prompt"], _empty())
            totals["calls"] += 1
            if valid and entry["attempts"] == 1:
                totals["first_attempt_valid"] += 1
            elif valid:
                totals["repaired"] += 1
            elif entry["fallback"]:
                totals["fallbacks"] += 1
            else:
                totals["failed"] += 1
            totals["prompt_tokens"] += entry["prompt_tokens"] or 0
            totals["completion_tokens"] += entry["completion_tokens"] or 0
            totals["trimmed_tokens"] += entry["trimmed_tokens"] or 0
            totals["latency_s"] = round(totals["latency_s"] + (entry["latency_s"] or 0.0), 3)
            self.last = entry
            if self.path:
                with naming(self.path), self.path.open("a", encoding="utf-8") as fh:
                    fh.write(json_line(entry) + "\n")
        return entry

    def summary(self) -> dict[str, dict[str, Any]]:
        """``{prompt: {calls, first_attempt_valid, repaired, fallbacks, failed, prompt_tokens,
        completion_tokens, latency_s}}`` (``failed``: raised in strict mode)."""
        with self._lock:
            return {name: dict(totals) for name, totals in sorted(self._totals.items())}
