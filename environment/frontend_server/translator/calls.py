"""Reading a run's call trace (<sim>/reverie/llm_trace.jsonl, see reverie.llm.call_trace) for the pages.

A call is known by its number: its line in the file, counted from 1. The list keeps only what
a row shows; a call's page parses its own line alone.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from datetime import time
from itertools import islice
from pathlib import Path

from translator.simfiles import parse_time

OUTCOMES = ("valid", "repaired", "fallback", "failed")
PAGE_SIZE = 100


@dataclass(frozen=True)
class Filters:
    prompt: str = ""
    persona: str = ""
    outcome: str = ""  # one of OUTCOMES, or "" for any
    after: time | None = None  # game time of day, inclusive
    before: time | None = None

    @classmethod
    def of(cls, query) -> "Filters":
        outcome = query.get("outcome", "")
        return cls(
            prompt=query.get("prompt", "").strip(),
            persona=query.get("persona", "").strip(),
            outcome=outcome if outcome in OUTCOMES else "",
            after=_clock(query.get("from", "")),
            before=_clock(query.get("to", "")),
        )

    def keeps(self, call: dict) -> bool:
        if self.prompt and call.get("prompt") != self.prompt:
            return False
        if self.persona and call.get("persona") != self.persona:
            return False
        if self.outcome and call.get("outcome") != self.outcome:
            return False
        if self.after or self.before:
            when = parse_time(call.get("game_time"))
            if when is None or (self.after and when.time() < self.after) or (self.before and when.time() > self.before):
                return False
        return True


def _clock(text: str) -> time | None:
    try:
        hours, minutes = text.strip().split(":")
        return time(int(hours), int(minutes))
    except ValueError:
        return None


def _row(number: int, call: dict) -> dict:
    return {
        "number": number,
        "prompt": call.get("prompt"),
        "persona": call.get("persona") or "",
        "game_time": call.get("game_time") or "",
        "step": call.get("step"),
        "outcome": call.get("outcome") or "",
        "attempts": len(call.get("attempts") or []),
        "latency_s": call.get("latency_s"),
    }


def listing(path: Path, filters: Filters, page: int = 1) -> dict:
    """The calls ``filters`` keep (one page of them), and the prompts and personas seen, for the menus."""
    rows, prompts, personas, total = [], set(), set(), 0
    first = (max(page, 1) - 1) * PAGE_SIZE
    try:
        fh = path.open(encoding="utf-8", errors="replace")
    except OSError:
        return {"rows": [], "prompts": [], "personas": [], "total": 0, "page": page, "pages": 0, "traced": False}
    with fh:
        for number, line in enumerate(fh, start=1):
            try:
                call = json.loads(line)
            except ValueError:
                continue  # a line cut short by a kill
            if not isinstance(call, dict):
                continue
            prompts.add(str(call.get("prompt")))
            if call.get("persona"):
                personas.add(str(call["persona"]))
            if filters.keeps(call):
                if first <= total < first + PAGE_SIZE:
                    rows.append(_row(number, call))
                total += 1
    return {
        "rows": rows,
        "prompts": sorted(prompts),
        "personas": sorted(personas),
        "total": total,
        "page": page,
        "pages": -(-total // PAGE_SIZE),
        "traced": True,
    }


def call_at(path: Path, number: int) -> dict | None:
    """Call ``number`` (its line, from 1), or None."""
    if not 1 <= number <= sys.maxsize:  # past sys.maxsize no file has that many lines (and islice refuses it)
        return None
    try:
        with path.open(encoding="utf-8", errors="replace") as fh:
            line = next(islice(fh, number - 1, None), None)
    except OSError:
        return None
    try:
        call = json.loads(line) if line else None
    except ValueError:
        return None
    return call if isinstance(call, dict) else None
