"""Day coherence: how many of a day's rules a persona's day breaks (0 is a day that makes sense).

A day is its broad plan (``daily_req``), its hourly schedule (``f_daily_schedule_hourly_org``)
and its decomposition (``f_daily_schedule``), each ``[(activity, minutes), ...]`` from
midnight. The rules are those the planning prompts check (see :mod:`day_rules`) plus:
no activity lasting more than 4 hours while awake, no sleeping between waking and the
evening, every plan item somewhere in the schedule (a from-to item in at least half of its
hours), and a schedule that fills the day.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from reverie.tasks.clock import format_hour
from reverie.tasks.common import content_words
from reverie.tasks.day_rules import (
    MINUTES_PER_DAY,
    activity_clock_problem,
    clock_minute,
    is_bed,
    is_daytime,
    is_sleeping,
    plan_order_problem,
    span_hours,
    without_clock,
)

LONGEST_AWAKE_MINUTES = 4 * 60
_PLAN_FILLER = {
    "wake",
    "complete",
    "morning",
    "routine",
    "go",
    "bed",
    "day",
    "time",
    "take",
    "have",
    "get",
    "spend",
    "work",
    "continue",
    "start",
    "finish",
}


def plan_words(item: str) -> set[str]:
    """The words that say what a plan item is about ("open Willow Bean Cafe at 7:00 am" -> willow, bean, cafe, open)."""
    return content_words(without_clock(item)) - _PLAN_FILLER


def about(item: str, activity: str) -> bool:
    """Whether ``activity`` is the plan ``item`` in other words ("painting" for "paint in the park"):
    a word in common, or two words sharing their first four letters."""
    stems = {word[:4] for word in plan_words(item)}
    return any(word[:4] in stems for word in content_words(activity))


@dataclass
class DayCoherence:
    """The violations found in one persona's day, each a sentence."""

    persona: str
    violations: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.violations


def _hours(schedule: Sequence[Sequence[Any]]) -> list[str]:
    """``[(activity, minutes)]`` from midnight -> the activity at the start of each hour (24 entries at most)."""
    hours: list[str] = []
    minute = 0
    for activity, minutes in schedule:
        end = minute + int(minutes)
        while len(hours) * 60 < end and len(hours) < 24:
            hours.append(str(activity))
        minute = end
    return hours


def wake_hour_of(daily_plan: Sequence[str], hourly: Sequence[Sequence[Any]]) -> int | None:
    """The wake-up hour: the plan's first item's time, else the first hour not spent sleeping."""
    if daily_plan:
        minute = clock_minute(str(daily_plan[0]))
        if minute is not None:
            return minute // 60
    for hour, activity in enumerate(_hours(hourly)):
        if not is_sleeping(activity):
            return hour
    return None


def day_coherence(
    persona: str,
    daily_plan: Sequence[str],
    hourly: Sequence[Sequence[Any]],
    decomposed: Sequence[Sequence[Any]] = (),
    *,
    bed_hour: int | None = None,
) -> DayCoherence:
    """Every rule the day breaks, named; ``bed_hour`` is the lifestyle's bedtime when known."""
    result = DayCoherence(persona)
    out = result.violations
    plan = [str(item) for item in daily_plan]
    wake = wake_hour_of(plan, hourly)

    problem = plan_order_problem(plan, wake, bed_hour)
    if problem:
        out.append(f"daily plan: {problem}")

    hours = _hours(hourly)
    if sum(int(m) for _, m in hourly) != MINUTES_PER_DAY:
        out.append(f"hourly schedule: lasts {sum(int(m) for _, m in hourly)} minutes, not a whole day")
    for activity, _ in hourly:
        problem = activity_clock_problem(str(activity), "hourly activity")
        if problem:
            out.append(f"hourly schedule: {problem}")
    if wake is not None:
        for hour, activity in enumerate(hours):
            asleep = is_sleeping(activity)
            if hour < wake and not asleep:
                out.append(
                    f'hourly schedule: awake at {format_hour(hour)} ("{activity}") before waking at {format_hour(wake)}'
                )
            elif is_daytime(hour, wake, bed_hour) and asleep:
                out.append(
                    f'hourly schedule: sleeping at {format_hour(hour)} ("{activity}") between waking and the evening'
                )
            elif bed_hour is not None and wake < bed_hour <= hour and not asleep:
                out.append(
                    f'hourly schedule: awake at {format_hour(hour)} ("{activity}") after bedtime {format_hour(bed_hour)}'
                )
    minute = 0
    for activity, minutes in hourly:
        if int(minutes) > LONGEST_AWAKE_MINUTES and not is_sleeping(str(activity)):
            out.append(
                f'hourly schedule: "{activity}" lasts {int(minutes) // 60} hours from {format_hour(minute // 60)} '
                f"(more than {LONGEST_AWAKE_MINUTES // 60} hours awake)"
            )
        minute += int(minutes)

    for number, item in enumerate(plan, 1):
        if number == 1 or is_bed(item):
            continue  # waking up and going to bed are the code's own items
        words = plan_words(item)
        if words and not any(about(item, str(activity)) for activity, _ in hourly):
            out.append(f'daily plan: item {number} "{item}" is nowhere in the hourly schedule')
            continue
        held = span_hours(item) if words and len(hours) == 24 else []
        kept = sum(about(item, hours[hour]) for hour in held)
        if held and 2 * kept < len(held):
            out.append(f'daily plan: item {number} "{item}" is in {kept} of its {len(held)} hours')

    if decomposed:
        total = sum(int(m) for _, m in decomposed)
        if total != MINUTES_PER_DAY:
            out.append(f"decomposition: lasts {total} minutes, not a whole day")
        for activity, minutes in decomposed:
            if int(minutes) <= 0:
                out.append(f'decomposition: "{activity}" lasts {int(minutes)} minutes')
    return result


def persona_day(persona: Any) -> DayCoherence:
    """The coherence of a persona's current day, from its scratch."""
    from reverie.tasks.plan_check import bed_hour_of

    s = persona.scratch
    hourly = s.f_daily_schedule_hourly_org or s.f_daily_schedule or []
    return day_coherence(
        s.name, list(s.daily_req or []), hourly, s.f_daily_schedule or [], bed_hour=bed_hour_of(s.lifestyle or "")
    )


def coherence_line(days: Iterable[DayCoherence]) -> str:
    """One line: "day coherence: 2/3 days with no violation (4 violations)"."""
    days = list(days)
    clean = sum(day.ok for day in days)
    count = sum(len(day.violations) for day in days)
    share = f" ({100 * clean // len(days)} %)" if days else ""
    return f"day coherence: {clean}/{len(days)} days with no violation{share}, {count} violation(s)"


__all__ = [
    "LONGEST_AWAKE_MINUTES",
    "DayCoherence",
    "about",
    "coherence_line",
    "day_coherence",
    "persona_day",
    "span_hours",
    "wake_hour_of",
]
