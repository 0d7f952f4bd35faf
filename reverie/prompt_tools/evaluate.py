"""`prompts eval`: run prompts on their fixture cases and sum up the ledger, one row per prompt.

The figures come from the ledger lines the LLM facade writes for each ``ask`` (attempts,
fallback, tokens, latency), so they measure exactly what a simulation run would.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from reverie.llm.language_model import LanguageModel
from reverie.prompt_tools.fixtures import load_fixture

COLUMNS = (
    "prompt",
    "calls",
    "1st ok %",
    "final ok %",
    "fallback %",
    "attempts",
    "prompt tok",
    "compl tok",
    "latency s",
)


@dataclass
class Row:
    """Totals over the ledger lines of one prompt (or of all prompts)."""

    prompt: str
    calls: int = 0
    first_ok: int = 0
    final_ok: int = 0
    fallbacks: int = 0
    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0

    def add(self, line: dict) -> None:
        attempts = int(line.get("attempts") or 1)
        fallback = bool(line.get("fallback"))
        self.calls += 1
        self.attempts += attempts
        self.fallbacks += fallback
        self.final_ok += not fallback
        self.first_ok += (not fallback) and attempts == 1
        self.prompt_tokens += int(line.get("prompt_tokens") or 0)
        self.completion_tokens += int(line.get("completion_tokens") or 0)
        self.latency_s += float(line.get("latency_s") or 0.0)

    def cells(self) -> tuple[str, ...]:
        n = max(self.calls, 1)
        pct = lambda k: f"{100.0 * k / n:.0f}"  # noqa: E731
        return (
            self.prompt,
            str(self.calls),
            pct(self.first_ok),
            pct(self.final_ok),
            pct(self.fallbacks),
            f"{self.attempts / n:.2f}",
            str(self.prompt_tokens),
            str(self.completion_tokens),
            f"{self.latency_s / n:.2f}",
        )


def read_ledger(path: Path) -> list[dict]:
    if not Path(path).is_file():
        return []
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def summarize(lines: Iterable[dict], order: list[str] | None = None) -> tuple[list[Row], Row]:
    """Per-prompt rows (in ``order``, then any other prompt seen) and the total row."""
    rows: dict[str, Row] = {name: Row(name) for name in order or []}
    total = Row("TOTAL")
    for line in lines:
        name = str(line.get("prompt"))
        rows.setdefault(name, Row(name)).add(line)
        total.add(line)
    return list(rows.values()), total


def format_row(cells: tuple[str, ...], widths: list[int]) -> str:
    first, *rest = cells
    return "  ".join([first.ljust(widths[0]), *(c.rjust(w) for c, w in zip(rest, widths[1:]))])


def column_widths(names: Iterable[str]) -> list[int]:
    widths = [len(c) for c in COLUMNS]
    widths[0] = max([widths[0], *(len(n) for n in names), len("TOTAL")])
    return widths


def run_cases(
    ask: Callable[[str, dict, dict], object], name: str, n: int | None = None, folder: Path | None = None
) -> int:
    """Ask prompt ``name`` once per case of its fixture file (in ``folder``, default the
    fixtures; at most ``n``); returns the number of calls."""
    cases = load_fixture(name, folder).cases
    for case in cases[:n] if n else cases:
        ask(name, case.inputs, case.choices)
    return len(cases[:n] if n else cases)


def eval_days(llm: LanguageModel, n: int | None = None) -> list:
    """One day per ``daily_plan`` fixture case (at most ``n``): the plan, the hourly schedule in one
    call (the packed planner), and its :func:`day_coherence` (no decomposition: code fills it)."""
    from reverie.tasks.clock import hour_of
    from reverie.tasks.daily_plan import DAILY_PLAN, daily_plan
    from reverie.tasks.day_coherence import day_coherence
    from reverie.tasks.hourly_schedule import DayToPlan
    from reverie.tasks.hourly_schedule_packed import packed_hourly_schedule
    from reverie.tasks.plan_check import bed_hour_of

    cases = load_fixture("daily_plan").cases
    days = []
    for case in cases[:n] if n else cases:
        inputs = DAILY_PLAN.typed(case.inputs)
        wake, bed, name = hour_of(inputs.wake_up_time), bed_hour_of(inputs.lifestyle), inputs.first_name
        plan = daily_plan(
            llm,
            identity=inputs.identity,
            lifestyle=inputs.lifestyle,
            date=inputs.date,
            first_name=name,
            wake_up_hour=wake,
        )
        hourly = packed_hourly_schedule(
            llm,
            DayToPlan(
                identity=inputs.identity,
                first_name=name,
                date=inputs.date,
                daily_plan=plan,
                wake_up_hour=wake,
                bed_hour=bed,
            ),
        )
        days.append(day_coherence(name, plan, hourly, bed_hour=bed))
    return days
