"""What a persona does in each hour of the day (prompt hourly_schedule).

One call per awake hour, given the hours already decided; :func:`hourly_schedule` runs the
whole day like the original (hours before waking are "sleeping" without a call; the pass
is repeated, up to ``max_passes``, while the day has fewer than 5 distinct activities;
consecutive equal hours are merged into minutes). Later passes keep
the sleeping hours instead of asking the model for them (docs/FIDELITY.md).

The model writes only what the persona does; the code keeps the clock. A clock time or
range inside the phrase ("opening the cafe at 8:00 am") is taken out by the code (the hour
is known), and a phrase that is only a time is sent back. Hours before waking and from the
lifestyle's bedtime on are "sleeping" without a call, and sleeping between the wake-up hour
and the evening is sent back with the hours to keep.

The fail-safe is the plan item naming that hour, else the previous hour's activity, so a
failed call continues the day instead of putting the persona to sleep ("asleep").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, NotShown, Task, TaskInputs
from reverie.tasks.clock import format_hour, hour_of
from reverie.tasks.common import Checked, Reply, check_text, one_line, unlist, without_marker
from reverie.tasks.day_rules import (
    awake_hours,
    clock_minute,
    clock_phrase,
    daytime_sleep_problem,
    span_hours,
    without_clock,
)

MAX_WORDS = 12
NOTHING_YET = "(nothing decided yet)"
SLEEPING = "sleeping"
_TIME_PHRASE = re.compile(
    r"\s*\b(?:at|from|until|till|to|around|by)?\s*\d{1,2}(?::\d\d)?\s*(?:am|pm)\b(?:\s*(?:to|until|-)\s*\d{1,2}(?::\d\d)?\s*(?:am|pm))?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class DayToPlan:
    """The day whose hours are asked for (here and in packed mode): whose it is, its date, its
    broad plan and its bounds."""

    identity: str
    first_name: str
    date: str
    daily_plan: list[str]
    wake_up_hour: int
    bed_hour: int | None = None  # the lifestyle's bedtime, when it names one
    persona: str | None = None  # whose calls these are in the ledger (default: ``first_name``)

    @property
    def asker(self) -> str:
        return self.persona or self.first_name


def strip_subject(text: str, first_name: str) -> str:
    """ "Isabella is opening the cafe." -> "opening the cafe"."""
    text = one_line(text).rstrip(".")
    if first_name:
        text = re.sub(rf"^{re.escape(first_name)}(\s+\w+)?\s+is\s+", "", text, flags=re.IGNORECASE)
    return re.sub(r"^(is|was|will be)\s+", "", text, flags=re.IGNORECASE)


def known_hour(value: Any) -> int | None:
    """An hour passed in the inputs ("6:00 am", "6", 6), else None."""
    if value is None or str(value).strip() == "":
        return None
    hour = hour_of(str(value), default=-1)
    return hour if 0 <= hour <= 23 else None


def check_activity(
    value: str,
    first_name: str,
    what: str = "the activity",
    *,
    hour: int | None = None,
    wake_hour: int | None = None,
    bed_hour: int | None = None,
) -> str:
    """One hour's activity: no list number (the plan's are copied: "2. eat breakfast"), no subject,
    no clock time (taken out), real words, short, awake in the day."""
    value = strip_subject(without_marker(value), first_name)
    phrase = clock_phrase(value)
    if phrase is not None:
        bare = without_clock(value)
        if not bare or not any(ch.isalpha() for ch in bare):
            raise ValueError(
                f'{what} "{value}" is only a time; the hour is already known, so name what '
                f'{first_name or "the character"} does, like "opening the cafe"'
            )
        value = bare
    value = check_text(value, what)
    words = len(value.split())
    if words > MAX_WORDS:
        raise ValueError(f'{what} has {words} words; say it in at most {MAX_WORDS} words, like "opening the cafe"')
    if hour is not None and wake_hour is not None:
        problem = daytime_sleep_problem(value, hour, wake_hour, bed_hour, what)
        if problem:
            raise ValueError(problem)
    return value


class HourlyInputs(TaskInputs):
    identity: str
    first_name: str
    date: str
    daily_plan: str
    prior_schedule: str
    hour: str
    # The day's bounds ("6:00 am"; "" when not known), read by the checks.
    wake_up_time: Annotated[str, NotShown()] = ""
    bed_time: Annotated[str, NotShown()] = ""

    def check(self, activity: str) -> str:
        """``activity`` checked for this hour of this persona's day."""
        return check_activity(
            activity,
            self.first_name,
            hour=known_hour(self.hour),
            wake_hour=known_hour(self.wake_up_time),
            bed_hour=known_hour(self.bed_time),
        )


def _for_the_hour(value: str, inputs: HourlyInputs | None) -> str:
    return inputs.check(value) if inputs else check_activity(value, "")


class HourlyActivityReply(Reply):
    activity: Annotated[str, Checked(HourlyInputs, _for_the_hour)] = Field(
        max_length=80, description="what the character is doing in that hour, a short phrase"
    )


def plan_item_for_hour(plan_text: str, hour_text: str) -> str | None:
    """The plan item that starts in the hour ``hour_text`` (e.g. "12:00 pm"), else one that names it,
    else one whose time range covers it, without its time phrase."""
    named = re.compile(rf"(?<![\d:]){re.escape(hour_text.strip())}\b", re.IGNORECASE)
    items = unlist(plan_text)
    hour = known_hour(hour_text)
    starting = [item for item in items if hour is not None and (clock_minute(item) or -60) // 60 == hour]
    for item in starting:  # an item starting in the hour ("eat breakfast at 8:30 am" at 8:00 am) first
        activity = _TIME_PHRASE.sub("", item).strip(" ,.")
        if activity:
            return activity
    for item in items:
        if hour_text.strip() and named.search(item):
            activity = _TIME_PHRASE.sub("", item).strip(" ,.")
            if activity:
                return activity
    for item in items:  # "work at the shop from 1:00 pm to 6:00 pm" covers 3:00 pm
        if hour is not None and hour in span_hours(item)[1:]:
            activity = _TIME_PHRASE.sub("", item).strip(" ,.")
            if activity:
                return activity
    return None


def last_activity(prior_schedule: str) -> str | None:
    lines = [line for line in str(prior_schedule).splitlines() if ": " in line]
    return lines[-1].split(": ", 1)[1].strip() if lines else None


def fallback_activity(plan_text: str, hour_text: str, previous: str | None) -> str:
    """Without a model answer: the plan item naming the hour, else the hour before's activity."""
    activity = plan_item_for_hour(plan_text, hour_text) or previous or FILLER
    return " ".join(activity.split()[:MAX_WORDS])[:80]


FILLER = "going about the day"


def fail_safe(inputs: HourlyInputs, choices: Choices) -> HourlyActivityReply:
    activity = fallback_activity(inputs.daily_plan, inputs.hour, last_activity(inputs.prior_schedule))
    try:
        inputs.check(activity)
    except ValueError:
        activity = FILLER
    return HourlyActivityReply(activity=activity)


HOURLY_SCHEDULE = Task("hourly_schedule", HourlyInputs, HourlyActivityReply, fail_safe)


def format_plan(daily_plan: list[str]) -> str:
    return "\n".join(f"{i}. {one_line(item)}" for i, item in enumerate(daily_plan, 1))


def format_prior(activities: list[str]) -> str:
    """Hours decided so far, equal neighbours merged: "0:00 am to 6:00 am: sleeping"."""
    if not activities:
        return NOTHING_YET
    lines, start = [], 0
    for hour in range(1, len(activities) + 1):
        if hour == len(activities) or activities[hour] != activities[start]:
            span = format_hour(start) if hour - start == 1 else f"{format_hour(start)} to {format_hour(hour - 1)}"
            lines.append(f"{span}: {activities[start]}")
            start = hour
    return "\n".join(lines)


def hourly_activity(llm: LanguageModel, day: DayToPlan, *, prior_activities: list[str], hour: int) -> str:
    """The activity for ``hour`` (0..23), given the activities of hours 0..hour-1."""
    inputs = HourlyInputs(
        identity=day.identity,
        first_name=day.first_name,
        date=day.date,
        daily_plan=format_plan(day.daily_plan),
        prior_schedule=format_prior(prior_activities),
        hour=format_hour(hour),
        wake_up_time=format_hour(day.wake_up_hour),
        bed_time="" if day.bed_hour is None else format_hour(day.bed_hour),
    )
    return llm.ask(HOURLY_SCHEDULE, inputs, persona=day.asker).activity


def merge_hours(activities: list[str]) -> list[tuple[str, int]]:
    """Hourly activities -> ``[(activity, minutes), ...]`` with equal neighbours merged."""
    merged: list[tuple[str, int]] = []
    for activity in activities:
        if merged and merged[-1][0] == activity:
            merged[-1] = (activity, merged[-1][1] + 60)
        else:
            merged.append((activity, 60))
    return merged


def hourly_schedule(
    llm: LanguageModel, day: DayToPlan, *, max_passes: int = 3, min_distinct: int = 5
) -> list[tuple[str, int]]:
    """The whole day as ``[(activity, minutes), ...]`` summing to 1440 (``f_daily_schedule``).

    Hours before the wake-up hour and from the bed hour on (when it falls after waking) are sleeping."""
    awake = awake_hours(day.wake_up_hour, day.bed_hour)
    activities: list[str] = []
    for _ in range(max(1, max_passes)):
        activities = []
        for hour in range(24):
            if hour not in awake:
                activities.append(SLEEPING)
                continue
            activities.append(hourly_activity(llm, day, prior_activities=activities, hour=hour))
        if len(set(activities)) >= min_distinct:
            break
    return merge_hours(activities)
