"""The whole day's hourly schedule in one call (prompt hourly_schedule_packed), for ``packed_actions``.

The faithful planner (:mod:`reverie.tasks.hourly_schedule`) asks once per awake hour; this
asks for the activities of every waking hour at once (from the wake-up hour to the hour
before the lifestyle's bedtime, else to 11:00 pm), each checked like the faithful one's (no
subject, no clock time, at most 12 words, real words, no sleeping in the waking day). A reply with
too few hours is sent back with the count; extra hours are dropped, and so is a count after a
phrase ("morning routine 3"). A reply is sent back when the hour a plan item starts is about
something else, or when one activity goes on past 4 hours (day coherence). The fail-safe is the
faithful fail-safe hour by hour: the plan item naming that hour, else the hour before's, but
an activity gives way to a break after 4 hours (day coherence).
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field, ValidationInfo, field_validator

from reverie.llm.task import NotShown, Task, TaskInputs
from reverie.tasks.clock import format_hour
from reverie.tasks.common import Reply, content_words, inputs_of, unlist
from reverie.tasks.day_rules import awake_hours, clock_minute, is_bed, without_clock
from reverie.tasks.hourly_schedule import (FILLER, SLEEPING, check_activity, fallback_activity, format_plan, known_hour,
                                          merge_hours)

HOURS_IN_DAY = 24


class DayScheduleInputs(TaskInputs):
    identity: str
    first_name: str
    date: str
    daily_plan: str
    wake_up_hour: str
    hours: str
    count: int
    bed_time: Annotated[str, NotShown()] = ""  # "11:00 pm"; "" when not known

    def hour_labels(self) -> list[str]:
        return [label.strip() for label in self.hours.split(",") if label.strip()]


class DayScheduleReply(Reply):
    activities: list[Annotated[str, Field(max_length=80)]] = Field(
        min_length=1, max_length=HOURS_IN_DAY, description="one short phrase per hour, in order, from the wake-up hour to 11:00 pm")

    @field_validator("activities")
    @classmethod
    def _check(cls, values: list[str], info: ValidationInfo) -> list[str]:
        inputs = inputs_of(info, DayScheduleInputs)
        first_name = inputs.first_name if inputs else ""
        hours = inputs.hour_labels() if inputs else []
        wake, bed = (known_hour(inputs.wake_up_hour), known_hour(inputs.bed_time)) if inputs else (None, None)
        cleaned = []
        for i, value in enumerate(values[: len(hours) or len(values)], 1):
            hour = known_hour(hours[i - 1]) if i <= len(hours) else None
            cleaned.append(check_activity(value, first_name, f"activity {i}", hour=hour, wake_hour=wake, bed_hour=bed))
        if hours and len(cleaned) < len(hours):
            raise ValueError(f"give exactly {len(hours)} activities, one for each hour from {hours[0]} to "
                             f"{hours[-1]}; you gave {len(cleaned)}")
        if not inputs:
            return unnumbered(cleaned)
        cleaned = unnumbered(cleaned)
        problem = (plan_not_followed(unlist(inputs.daily_plan), hours, cleaned)
                   or too_long(cleaned, hours))
        if problem:
            raise ValueError(problem)
        return cleaned


def unnumbered(activities: list[str]) -> list[str]:
    """"morning routine 2", "morning routine 3" -> "morning routine": a count is not an activity."""
    out = []
    for activity in activities:
        bare = re.sub(r"\s*#?\d{1,2}\.?$", "", activity).strip()
        out.append(bare if bare and any(ch.isalpha() for ch in bare) else activity)
    return out


def plan_not_followed(plan: list[str], hours: list[str], activities: list[str]) -> str | None:
    """The first plan item (besides waking and bed) whose hour's activity is about something else."""
    from reverie.tasks.day_coherence import plan_words

    at_hour: dict[str, list[str]] = {}
    for item in plan[1:]:
        minute = clock_minute(item)
        if minute is not None and not is_bed(item) and plan_words(item):
            at_hour.setdefault(format_hour(minute // 60), []).append(item)
    for label, items in at_hour.items():
        if label not in hours or hours.index(label) >= len(activities):
            continue
        index = hours.index(label)
        said = content_words(activities[index])
        if not any(plan_words(item) & said for item in items):
            item = items[0]
            return (f'activity {index + 1} (at {label}) is "{activities[index]}", but the plan says "{item}" then; '
                    f'write that activity for {label}, like "{without_clock(item)}"')
    return None


# What the fail-safe does once an activity the plan does not extend has lasted the longest a waking
# activity may (day coherence): the next of these.
BREAKS = (FILLER, "running errands", "relaxing for a while")


def with_break(activities: list[str], activity: str) -> str:
    """``activity`` for the next hour after ``activities``, or a break when it has already lasted
    the longest a waking activity may (a plan's "work from 1:00 pm to 8:00 pm" too: the work
    goes on after the break)."""
    from reverie.tasks.day_coherence import LONGEST_AWAKE_MINUTES

    run = len(activities) - next((i + 1 for i in range(len(activities) - 1, -1, -1) if activities[i] != activity), 0)
    if run >= LONGEST_AWAKE_MINUTES // 60:
        return BREAKS[(BREAKS.index(activity) + 1) % len(BREAKS)] if activity in BREAKS else BREAKS[0]
    return activity


def too_long(activities: list[str], labels: list[str]) -> str | None:
    """The first activity that lasts longer than a waking activity may (day coherence), as a correction."""
    for index, (label, activity) in enumerate(zip(labels, activities)):
        if with_break(activities[:index], activity) != activity:
            start = index
            while start > 0 and activities[start - 1] == activity:
                start -= 1
            return (f'activity {index + 1} (at {label}) is "{activity}" again, since {labels[start]}: '
                    f"after 4 hours of one activity write what comes next, like \"{BREAKS[1]}\"")
    return None


def fail_safe(inputs: DayScheduleInputs, choices: dict) -> DayScheduleReply:
    activities: list[str] = []
    wake, bed = known_hour(inputs.wake_up_hour), known_hour(inputs.bed_time)
    for label in inputs.hour_labels():
        activity = fallback_activity(inputs.daily_plan, label, activities[-1] if activities else None)
        activity = with_break(activities, activity)
        try:
            activity = check_activity(activity, inputs.first_name, hour=known_hour(label), wake_hour=wake, bed_hour=bed)
        except ValueError:
            activity = FILLER
        activities.append(activity)
    return DayScheduleReply(activities=activities)


HOURLY_SCHEDULE_PACKED = Task(name="hourly_schedule_packed", inputs=DayScheduleInputs, schema=DayScheduleReply,
                              fail_safe=fail_safe,
                              used_in="plan: long-term planning, the whole new day in one call ([simulation] packed_actions = true)")


def packed_hourly_schedule(llm, *, identity: str, first_name: str, date: str, daily_plan: list[str],
                           wake_up_hour: int, persona: str | None = None,
                           bed_hour: int | None = None) -> list[tuple[str, int]]:
    """The whole day as ``[(activity, minutes), ...]`` summing to 1440, from one call."""
    wake = max(0, min(int(wake_up_hour), HOURS_IN_DAY))
    awake = awake_hours(wake, bed_hour) if wake < HOURS_IN_DAY else range(0)
    labels = [format_hour(hour) for hour in awake]
    if not labels:
        return [(SLEEPING, HOURS_IN_DAY * 60)]
    inputs = {
        "identity": identity,
        "first_name": first_name,
        "date": date,
        "daily_plan": format_plan(daily_plan),
        "wake_up_hour": labels[0],
        "hours": ", ".join(labels),
        "count": len(labels),
        "bed_time": "" if bed_hour is None else format_hour(bed_hour),
    }
    day = llm.ask("hourly_schedule_packed", inputs, persona=persona or first_name).activities
    return merge_hours([SLEEPING] * wake + list(day) + [SLEEPING] * (HOURS_IN_DAY - awake.stop))
