"""The whole day's hourly schedule in one call (prompt hourly_schedule_packed), for ``packed_actions``.

The faithful planner (:mod:`reverie.tasks.hourly_schedule`) asks once per awake hour; this
asks for the activities of every hour from the wake-up hour to 11:00 pm at once, each
checked like the faithful one's (no subject, at most 12 words, real words). A reply with
too few hours is sent back with the count; extra hours are dropped. The fail-safe is the
faithful fail-safe hour by hour: the plan item naming that hour, else the hour before's.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, ValidationInfo, field_validator

from reverie.llm.task import Task, register
from reverie.tasks.clock import format_hour
from reverie.tasks.common import Reply, check_text, inputs_of
from reverie.tasks.hourly_schedule import MAX_WORDS, SLEEPING, fallback_activity, format_plan, merge_hours, strip_subject

HOURS_IN_DAY = 24


class DayScheduleReply(Reply):
    activities: list[Annotated[str, Field(max_length=80)]] = Field(
        min_length=1, max_length=HOURS_IN_DAY, description="one short phrase per hour, in order, from the wake-up hour to 11:00 pm")

    @field_validator("activities")
    @classmethod
    def _check(cls, values: list[str], info: ValidationInfo) -> list[str]:
        inputs = inputs_of(info)
        first_name = str(inputs.get("first_name", ""))
        hours = hour_labels(inputs)
        cleaned = []
        for i, value in enumerate(values[: len(hours) or len(values)], 1):
            value = check_text(strip_subject(value, first_name), f"activity {i}")
            words = len(value.split())
            if words > MAX_WORDS:
                raise ValueError(f"activity {i} has {words} words; say it in at most {MAX_WORDS} words, "
                                 "like \"opening the cafe\"")
            cleaned.append(value)
        if hours and len(cleaned) < len(hours):
            raise ValueError(f"give exactly {len(hours)} activities, one for each hour from {hours[0]} to "
                             f"{hours[-1]}; you gave {len(cleaned)}")
        return cleaned


def hour_labels(inputs: dict) -> list[str]:
    return [label.strip() for label in str(inputs.get("hours", "")).split(",") if label.strip()]


def fail_safe(inputs: dict, choices: dict) -> DayScheduleReply:
    plan, activities = str(inputs.get("daily_plan", "")), []
    for label in hour_labels(inputs):
        activities.append(fallback_activity(plan, label, activities[-1] if activities else None))
    return DayScheduleReply(activities=activities)


register(
    Task(
        name="hourly_schedule_packed",
        schema=DayScheduleReply,
        fail_safe=fail_safe,
        used_in="plan: long-term planning, the whole new day in one call ([simulation] packed_actions = true)",
    )
)


def packed_hourly_schedule(llm, *, identity: str, first_name: str, date: str, daily_plan: list[str],
                           wake_up_hour: int, persona: str | None = None) -> list[tuple[str, int]]:
    """The whole day as ``[(activity, minutes), ...]`` summing to 1440, from one call."""
    wake = max(0, min(int(wake_up_hour), HOURS_IN_DAY))
    labels = [format_hour(hour) for hour in range(wake, HOURS_IN_DAY)]
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
    }
    awake = llm.ask("hourly_schedule_packed", inputs, persona=persona or first_name).activities
    return merge_hours([SLEEPING] * wake + list(awake))
