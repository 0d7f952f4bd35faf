"""`prompts capture SIM`: a run's traced calls (``reverie/llm_trace.jsonl``) -> eval cases.

A captured case has the fixture format (``{"inputs", "choices"}``, see
:mod:`reverie.prompt_tools.fixtures`) and says where it came from under ``"source"`` (the run, step,
game time, persona and how the call went), so ``prompts eval --cases FOLDER`` runs real
traffic the way it runs the hand-made fixtures. Calls with the same inputs and choices are
one case; a folder that already has cases for a prompt keeps them and gains the new ones.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from reverie.errors import UserError
from reverie.jsonio import jsonl_lines, write_json_atomic
from reverie.prompt_tools.fixtures import fixture_path


def read_trace(path: Path) -> list[dict]:
    """The traced calls of one run (a line cut short by a kill is skipped)."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise UserError(
            f"{path}: no call trace — run the simulation with [trace] calls = true (the default) to trace its calls"
        ) from None
    return [
        call
        for _line, call in jsonl_lines(text)
        if isinstance(call, dict) and isinstance(call.get("prompt"), str) and isinstance(call.get("inputs"), dict)
    ]


def case_key(inputs: dict, choices: dict) -> str:
    """What makes two calls the same case."""
    return json.dumps([inputs, choices or {}], sort_keys=True, ensure_ascii=False)


def failed(call: dict) -> bool:
    """The call ended in its fail-safe (or raised, in strict mode)."""
    return call.get("outcome") in ("fallback", "failed") or call.get("fallback") is True


@dataclass
class Captured:
    """Cases per prompt, first seen first, and how many traced calls they came from."""

    cases: dict[str, list[dict]] = field(default_factory=dict)
    calls: int = 0
    duplicates: int = 0
    unknown: set[str] = field(default_factory=set)  # prompts no task of this version has

    @property
    def total(self) -> int:
        return sum(len(c) for c in self.cases.values())


def capture(
    calls: Iterable[dict],
    *,
    sim: str,
    known: Iterable[str],
    prompts: list[str] | None = None,
    n: int | None = None,
    only_failed: bool = False,
) -> Captured:
    """The distinct cases of ``calls``: only ``prompts`` when given, only fail-safes with
    ``only_failed``, at most ``n`` per prompt."""
    known, out, seen = set(known), Captured(), set()
    for call in calls:
        name = call["prompt"]
        if prompts and name not in prompts:
            continue
        if only_failed and not failed(call):
            continue
        if name not in known:
            out.unknown.add(name)
            continue
        out.calls += 1
        given = call.get("choices")
        choices = given if isinstance(given, dict) else {}
        key = (name, case_key(call["inputs"], choices))
        if key in seen:
            out.duplicates += 1
            continue
        cases = out.cases.setdefault(name, [])
        if n is not None and len(cases) >= n:
            continue
        seen.add(key)
        cases.append(
            {
                "inputs": call["inputs"],
                "choices": choices,
                "source": {
                    "sim": sim,
                    "step": call.get("step"),
                    "game_time": call.get("game_time"),
                    "persona": call.get("persona"),
                    "outcome": call.get("outcome"),
                    "attempts": len(call.get("attempts") or []),
                },
            }
        )
    return out


def write_cases(captured: Captured, folder: Path) -> dict[str, int]:
    """``folder/<prompt>.json`` per prompt, merged with the cases already there; returns the
    number of new cases written per prompt."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise UserError(f"--out {folder}: not a folder — give a folder for the cases (it is created if missing)")
    folder.mkdir(parents=True, exist_ok=True)
    added = {}
    for name, cases in captured.cases.items():
        path = fixture_path(name, folder)
        raw = _existing(path)
        kept = [c for c in raw["cases"] if isinstance(c, dict)]
        keys = {case_key(c.get("inputs") or {}, c.get("choices") or {}) for c in kept}
        new = [c for c in cases if case_key(c["inputs"], c["choices"]) not in keys]
        write_json_atomic(path, {**raw, "cases": [*kept, *new]})  # a fixture file keeps its valid and bad replies
        added[name] = len(new)
    return added


def _existing(path: Path) -> dict:
    if not path.is_file():
        return {"cases": []}
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise UserError(
            f"{path}: not valid JSON (line {exc.lineno}: {exc.msg}) — fix or remove it before capturing into it"
        ) from None
    cases = raw.get("cases") if isinstance(raw, dict) else None
    if not isinstance(cases, list):
        raise UserError(f'{path}: no "cases" list — capture into another folder or fix the file')
    return raw
