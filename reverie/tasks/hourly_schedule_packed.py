"""The whole day's hourly schedule in one call (prompt hourly_schedule_packed), for ``packed_actions``.

The faithful planner (:mod:`reverie.tasks.hourly_schedule`) asks once per awake hour; this
asks for the activities of every waking hour at once (from the wake-up hour to the hour
before the lifestyle's bedtime, else to 11:00 pm), each checked like the faithful one's (no
subject, no clock time, at most 12 words, real words). The schema of the call asks for one item
per hour, so a grammar-constrained reply has them all; without a grammar a reply with too few is
sent back with the count, extra hours are dropped, and so is a count after a phrase ("morning
routine 3"). An activity is at most 60 characters, so 18 hours fit the reply's token limit.

The model writes the words and code keeps the clock (day coherence): sleep named inside the
waking day, or a bare clock time, becomes the hour before's activity; each plan item goes to
the hour it names, a from-to item to every hour it holds; and one activity gives way to a break
after 4 hours. The fail-safe is the faithful fail-safe hour by
hour: the plan item naming that hour, else the hour before's, with the same breaks.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, NotShown, Task, TaskInputs, items_field
from reverie.tasks.clock import format_hour
from reverie.tasks.common import Checked, Reply, unlist
from reverie.tasks.day_rules import (
    awake_hours,
    clock_minute,
    clock_phrase,
    daytime_sleep_problem,
    is_bed,
    span_hours,
    without_clock,
)
from reverie.tasks.hourly_schedule import (
    FILLER,
    SLEEPING,
    DayToPlan,
    check_activity,
    fallback_activity,
    format_plan,
    known_hour,
    merge_hours,
)

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


def _one_per_hour(values: list[str], inputs: DayScheduleInputs | None) -> list[str]:
    """The activities, cleaned and put in the day's frame; fewer than the hours asked go back to the model."""
    first_name = inputs.first_name if inputs else ""
    hours = inputs.hour_labels() if inputs else []
    wake, bed = (known_hour(inputs.wake_up_hour), known_hour(inputs.bed_time)) if inputs else (None, None)
    cleaned: list[str] = []
    for i, value in enumerate(values[: len(hours) or len(values)], 1):
        if only_a_time(value):  # the model wrote the clock, not the hour's activity: the hour before's goes on
            cleaned.append(cleaned[-1] if cleaned else FILLER)
        else:
            cleaned.append(check_activity(value, first_name, f"activity {i}"))
    if hours and len(cleaned) < len(hours):
        raise ValueError(
            f"give exactly {len(hours)} activities, one for each hour from {hours[0]} to "
            f"{hours[-1]}; you gave {len(cleaned)}"
        )
    cleaned = unnumbered(cleaned)
    if not inputs:
        return cleaned
    # The model writes the words; code keeps the clock: no sleep inside the waking day, each
    # plan item at its hour, and a break after 4 hours of one activity.
    cleaned = awake_all_day(cleaned, hours, wake, bed)
    cleaned = plan_placed(unlist(inputs.daily_plan), hours, cleaned)
    return with_breaks(cleaned)


HourActivity = Annotated[str, Field(max_length=60)]


class DayScheduleReply(Reply):
    activities: Annotated[list[HourActivity], Checked(DayScheduleInputs, _one_per_hour)] = items_field(
        "hours", HOURS_IN_DAY, "one short phrase per hour, in order, from the wake-up hour to 11:00 pm", min_length=1
    )


def unnumbered(activities: list[str]) -> list[str]:
    """ "morning routine 2", "morning routine 3" -> "morning routine": a count is not an activity."""
    out = []
    for activity in activities:
        bare = re.sub(r"\s*#?\d{1,2}\.?$", "", activity).strip()
        out.append(bare if bare and any(ch.isalpha() for ch in bare) else activity)
    return out


def only_a_time(value: str) -> bool:
    """ "9:00 am", "1:15:11:51" : a clock with no activity in it."""
    return (
        bool(value.strip())
        and not any(ch.isalpha() for ch in without_clock(value))
        and (clock_phrase(value) is not None or bool(re.fullmatch(r"[\d:.\s-]+", value.strip())))
    )


def awake_all_day(activities: list[str], hours: list[str], wake: int | None, bed: int | None) -> list[str]:
    """Sleep named inside the waking day (a list that ends "go to bed" long before bedtime) becomes
    the hour before's activity, or a light one at the first hour."""
    if wake is None:
        return activities
    out: list[str] = []
    for label, activity in zip(hours, activities):
        hour = known_hour(label)
        asleep = hour is not None and daytime_sleep_problem(activity, hour, wake, bed) is not None
        out.append((out[-1] if out else FILLER) if asleep else activity)
    return out + activities[len(out) :]


def plan_hours(plan: list[str], hours: list[str]) -> dict[int, str]:
    """Index into ``hours`` -> the plan item (besides waking and bed) that starts at that hour."""
    from reverie.tasks.day_coherence import plan_words

    placed: dict[int, str] = {}
    for item in plan[1:]:
        minute = clock_minute(item)
        label = None if minute is None else format_hour(minute // 60)
        if label in hours and not is_bed(item) and plan_words(item):
            placed.setdefault(hours.index(label), item)
    return placed


def plan_spans(plan: list[str], hours: list[str]) -> dict[int, str]:
    """Index into ``hours`` -> the plan item whose from-to hours hold that hour after its first
    ("work at the shop from 1:00 pm to 6:00 pm" holds 2:00 pm to 5:00 pm); the first item wins."""
    from reverie.tasks.day_coherence import plan_words

    held: dict[int, str] = {}
    for item in plan[1:]:
        if is_bed(item) or not plan_words(item):
            continue
        for hour in span_hours(item)[1:]:
            label = format_hour(hour)
            if label in hours:
                held.setdefault(hours.index(label), item)
    return held


def plan_placed(plan: list[str], hours: list[str], activities: list[str]) -> list[str]:
    """Each plan item at the hour it names, when the model wrote something else there; the hours
    after it that kept that same other activity go on with the plan item (the model wrote the
    day's order, not its clock), and so do the hours a from-to item holds ("work from 9:00 am to
    5:00 pm" is work at noon, whatever the model wrote then, unless another item starts there)."""
    from reverie.tasks.day_coherence import about

    out = list(activities)
    placed = plan_hours(plan, hours)
    for index, item in sorted(placed.items()):
        if index >= len(out) or about(item, out[index]):
            continue
        wrong, activity = out[index], without_clock(item)
        at = index
        while at < len(out) and out[at] == wrong and (at == index or at not in placed):
            out[at] = activity
            at += 1
    for index, item in sorted(plan_spans(plan, hours).items()):
        if index < len(out) and index not in placed and not about(item, out[index]):
            out[index] = without_clock(item)
    return out


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


def with_breaks(activities: list[str]) -> list[str]:
    """A break after 4 hours of one activity, hour by hour (day coherence)."""
    out: list[str] = []
    for activity in activities:
        out.append(with_break(out, activity))
    return out


def fail_safe(inputs: DayScheduleInputs, choices: Choices) -> DayScheduleReply:
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


HOURLY_SCHEDULE_PACKED = Task("hourly_schedule_packed", DayScheduleInputs, DayScheduleReply, fail_safe)


def packed_hourly_schedule(llm: LanguageModel, day: DayToPlan) -> list[tuple[str, int]]:
    """The whole day as ``[(activity, minutes), ...]`` summing to 1440, from one call."""
    wake = max(0, min(int(day.wake_up_hour), HOURS_IN_DAY))
    awake = awake_hours(wake, day.bed_hour) if wake < HOURS_IN_DAY else range(0)
    labels = [format_hour(hour) for hour in awake]
    if not labels:
        return [(SLEEPING, HOURS_IN_DAY * 60)]
    inputs = DayScheduleInputs(
        identity=day.identity,
        first_name=day.first_name,
        date=day.date,
        daily_plan=format_plan(day.daily_plan),
        wake_up_hour=labels[0],
        hours=", ".join(labels),
        count=len(labels),
        bed_time="" if day.bed_hour is None else format_hour(day.bed_hour),
    )
    # The grammar writes exactly one activity per waking hour (a small model stops short of 16).
    hours = llm.ask(HOURLY_SCHEDULE_PACKED, inputs, choices={"hours": labels}, persona=day.asker).activities
    return merge_hours([SLEEPING] * wake + list(hours) + [SLEEPING] * (HOURS_IN_DAY - awake.stop))
