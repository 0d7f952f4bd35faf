"""A persona's broad plan for the day, 4 to 8 items with clock times (prompt daily_plan).

Used on the first day (``scratch.daily_req``). The reply is a JSON list of items. A small model
writes the activities but does not keep a clock, so the code does: the reply is checked, then
repaired (:mod:`reverie.tasks.plan_check`): the first item in one fixed wording at the real
wake-up hour, once; the items in the order of their times; the bed item last, at the
lifestyle's bedtime. Nothing may fall outside the waking day, and repeats are dropped.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Self

from pydantic import Field, ValidationInfo, field_validator, model_validator

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs
from reverie.tasks.clock import format_hour, hour_of
from reverie.tasks.common import Reply, inputs_of, one_line
from reverie.tasks.day_rules import clock_minute, is_bed, since_wake
from reverie.tasks.plan_check import (
    MAX_ITEMS,
    MIN_ITEMS,
    PlanRules,
    bed_hour_of,
    bed_line,
    is_waking_up,
    known_minute,
    meals_and_breaks,
    plan_problem,
    repaired_plan,
    wake_up_line,
)

PlanItem = Annotated[str, Field(max_length=120)]


class DailyPlanInputs(TaskInputs):
    identity: str
    lifestyle: str
    date: str
    first_name: str
    wake_up_time: str


class CheckedPlan(Reply):
    """A reply whose ``items`` are a day's plan, held to the call's :meth:`rules`. Validation: a
    problem in the plan goes back to the model as its correction. Repair, the code's own step once
    validation passed (:func:`repaired_plan`): the plan the day is made from."""

    items: list[str]

    @classmethod
    def rules(cls, info: ValidationInfo) -> PlanRules:
        """What this call's plan is held to."""
        raise NotImplementedError

    @model_validator(mode="after")
    def _validated(self, info: ValidationInfo) -> Self:
        problem = plan_problem(self.items, self.rules(info))
        if problem:
            raise ValueError(problem)
        return self

    @model_validator(mode="after")
    def _repaired(self, info: ValidationInfo) -> Self:
        self.items = repaired_plan(self.items, self.rules(info))
        return self


class DailyPlanReply(CheckedPlan):
    items: list[PlanItem] = Field(
        min_length=MIN_ITEMS, max_length=MAX_ITEMS, description="the day's activities in order, each with a clock time"
    )

    @field_validator("items", mode="before")
    @classmethod
    def _one_line_items(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [one_line(v) if isinstance(v, str) else v for v in value]
        return value

    @classmethod
    def rules(cls, info: ValidationInfo) -> PlanRules:
        return plan_rules(inputs_of(info, DailyPlanInputs))


def plan_rules(inputs: DailyPlanInputs | None) -> PlanRules:
    """What the call's plan is held to: its wake-up hour, the lifestyle's bedtime, the persona's
    commitments, and a day the hourly schedule is made from."""
    if inputs is None:
        return PlanRules(schedule=True)
    return PlanRules.at(
        inputs.wake_up_time,
        bed=bed_hour_of(inputs.lifestyle),
        required=requirement_items(inputs.identity, inputs.first_name),
        schedule=True,
    )


def generic_day(wake_hour: int, bed_hour: int = 23) -> list[str]:
    """A plain, sensible day around the given wake-up hour (used by fail-safes)."""
    items = [wake_up_line(wake_hour)]
    if wake_hour + 1 < 12:
        items.append(f"eat breakfast at {format_hour(wake_hour + 1)}")
    if wake_hour + 2 < 12:
        items.append(f"work on the day's main tasks from {format_hour(wake_hour + 2)} to 12:00 pm")
    if wake_hour < 12:
        items.append("have lunch at 12:00 pm")
    if wake_hour < 13:
        items.append("continue the day's tasks from 1:00 pm to 5:00 pm")
    if wake_hour < 18:
        items.append("have dinner at 6:00 pm")
    if wake_hour < 19:
        items.append("relax at home from 7:00 pm")
    for filler in ("spend some time on a hobby", "tidy up at home"):
        if len(items) < MIN_ITEMS - 1:
            items.append(filler)
    items.append(bed_line(bed_hour))
    return items[:MAX_ITEMS]


_REQUIREMENT = re.compile(r"^\s*Daily plan requirement:\s*(.+)$", re.IGNORECASE | re.MULTILINE)
_BARE_TIME = re.compile(r"\b(\d{1,2})(?::(\d\d))?\s*(am|pm)\b", re.IGNORECASE)
_NAMED_PLACE = re.compile(r"\b([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)+)")  # "Willow Bean Cafe": a name of two words or more
_TIME_WORDS = re.compile(r"\s+(?:at|from|until|till|by|before|after)\s+\d")
_NUMBERED_LIST = re.compile(r"^\s*\d+\)\s*")


def requirement_items(identity: str, name: str = "") -> list[str]:
    """The clauses of the persona's "Daily plan requirement" that name a time, with clock times written out.

    "Nora opens Willow Bean Cafe at 7am and works behind the counter until 3pm" ->
    ["opens Willow Bean Cafe at 7:00 am", "works behind the counter at Willow Bean Cafe until 3:00 pm"]:
    a clause that names no place happens where the one before it did."""
    found = _REQUIREMENT.search(str(identity or ""))
    if not found:
        return []
    text = found.group(1).strip().rstrip(".")
    first = str(name or "").split()[0] if str(name or "").split() else ""
    if first:
        text = re.sub(rf"^{re.escape(first)}(?:\s+[A-Z][\w'-]*)?\s+", "", text)
    if _NUMBERED_LIST.match(text):
        # A revised requirement is the day's plan as a numbered list ("1) wake up ..., 2) paint
        # in the park from 9:00 am to 12:00 pm, ..."): each item is a clause with its own place,
        # and waking up and going to bed are the code's own first and last items.
        items = [_NUMBERED_LIST.sub("", item).strip() for item in re.split(r",\s*(?=\d+\)\s)", text)]
        return [
            item
            for item in items
            if item
            and clock_minute(item) is not None
            and len(item) <= 120
            and not is_waking_up(item)
            and not is_bed(item)
        ]
    items, place = [], None
    for clause in re.split(r",\s*(?:and\s+)?|\s+and\s+|;\s*|\.\s+", text):
        clause = re.sub(r"^(?:he|she|they)\s+", "", clause.strip(), flags=re.IGNORECASE)
        clause = _BARE_TIME.sub(lambda m: f"{m.group(1)}:{m.group(2) or '00'} {m.group(3).lower()}", clause)
        clause = re.sub(r"\bnoon\b", "12:00 pm", re.sub(r"\bmidnight\b", "12:00 am", clause))
        named, timed = _NAMED_PLACE.search(clause), _TIME_WORDS.search(clause)
        if named:
            place = named.group(1)
        elif place and timed:
            clause = f"{clause[: timed.start()]} at {place}{clause[timed.start() :]}"
        if clause and clock_minute(clause) is not None and len(clause) <= 120:
            items.append(clause)
    return items


def planned_day(wake_hour: int, bed_hour: int = 23, identity: str = "", name: str = "") -> list[str]:
    """The fail-safe day: the requirement's timed clauses (places and hours) around meals, else :func:`generic_day`."""
    required = [
        item
        for item in requirement_items(identity, name)
        if since_wake(known_minute(item), wake_hour) < since_wake(bed_hour * 60, wake_hour)
    ]
    if not required:
        return generic_day(wake_hour, bed_hour)
    taken = {known_minute(item) // 60 for item in required}
    extra = [item for item in meals_and_breaks(wake_hour) if known_minute(item) // 60 not in taken]  # one item per hour
    middle = [item for item in required + extra if known_minute(item) // 60 > wake_hour or item in required]
    middle.sort(key=lambda item: since_wake(known_minute(item), wake_hour))
    return [wake_up_line(wake_hour)] + middle[: MAX_ITEMS - 2] + [bed_line(bed_hour)]


def fail_safe(inputs: DailyPlanInputs, choices: Choices) -> DailyPlanReply:
    bed = bed_hour_of(inputs.lifestyle)
    wake = hour_of(inputs.wake_up_time)
    day = planned_day(wake, 23 if bed is None else bed, inputs.identity, inputs.first_name)
    try:
        return DailyPlanReply.model_validate({"items": day}, context={"inputs": inputs})
    except ValueError:
        return DailyPlanReply(items=generic_day(wake, 23 if bed is None else bed))


DAILY_PLAN = Task("daily_plan", DailyPlanInputs, DailyPlanReply, fail_safe)


def daily_plan(
    llm: LanguageModel,
    *,
    identity: str,
    lifestyle: str,
    date: str,
    first_name: str,
    wake_up_hour: int,
    persona: str | None = None,
) -> list[str]:
    """The day's broad plan; item 1 is always "wake up and complete the morning routine at <H>:00 am",
    and the last is "go to bed at <H>:00 pm" at the lifestyle's bedtime when it names one.

    ``date`` is written like "Monday February 13".
    """
    inputs = DailyPlanInputs(
        identity=identity,
        lifestyle=lifestyle,
        date=date,
        first_name=first_name,
        wake_up_time=format_hour(wake_up_hour),
    )
    items = list(llm.ask(DAILY_PLAN, inputs, persona=persona or first_name).items)
    return with_wake_and_bed(items, wake_up_hour, bed_hour_of(lifestyle))


def with_wake_and_bed(items: list[str], wake_up_hour: int, bed_hour: int | None) -> list[str]:
    """The plan with the code's own first (waking) and last (bed) items."""
    middle = items[1:]
    if bed_hour is None:
        return [wake_up_line(wake_up_hour)] + middle
    if middle and is_bed(middle[-1]):
        middle = middle[:-1]
    return [wake_up_line(wake_up_hour)] + middle + [bed_line(bed_hour)]
