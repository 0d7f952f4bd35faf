"""A day's schedule: blocks of (activity, minutes) one after the other from midnight.

``scratch.json`` holds ``f_daily_schedule`` and ``f_daily_schedule_hourly_org`` as lists of
``[activity, minutes]``; a :class:`PlanItem` is written the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple


class PlanItem(NamedTuple):
    description: str
    minutes: int


def plan_items(items: Iterable[Sequence[Any]]) -> list[PlanItem]:
    """``[[activity, minutes], ...]`` (from a file or a model) as plan items."""
    return [PlanItem(description, minutes) for description, minutes in items]


def index_at(schedule: list[PlanItem], minutes: int) -> int:
    """First block whose end lies after ``minutes``; len(schedule) when past the end."""
    elapsed = 0
    for index, (_task, duration) in enumerate(schedule):
        elapsed += duration
        if elapsed > minutes:
            return index
    return len(schedule)


def start_minutes(schedule: list[PlanItem], index: int) -> int:
    """Minutes after midnight at which ``schedule[index]`` starts."""
    return sum(d for _t, d in schedule[:index])


def schedule_lines(schedule: list[PlanItem]) -> str:
    """ "HH:MM || activity" lines."""
    lines, elapsed = [], 0
    for task, duration in schedule:
        lines.append(f"{elapsed // 60:02d}:{elapsed % 60:02d} || {task}")
        elapsed += duration
    return "\n".join(lines)
