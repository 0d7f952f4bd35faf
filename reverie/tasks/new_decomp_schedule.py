"""Re-plan the rest of a time window after an unplanned activity (prompt new_decomp_schedule).

Used when a persona starts a conversation or waits for someone: the inserted activity
takes some minutes, and the rest of the window (up to its end) is re-planned. The model
gives only the remainder, as ``{"activity", "minutes"}`` items with rough minutes that the
code scales to what is left (the model is never asked for a sum). The grammar allows at most
one item per 15 minutes left (``SLOT``; at most ``MAX_ITEMS``): a small model fills a list to
its bound, and a longer list does not fit the reply's ``max_tokens`` (docs/FIDELITY.md). The fail-safe resumes the original plan where the inserted activity ends.
"""

from __future__ import annotations

import re

from pydantic import Field, model_validator

from reverie.action_text import is_decomposed
from reverie.llm.language_model import LanguageModel
from reverie.llm.task import MOST_ITEMS_KEY, Choices, Task, TaskInputs
from reverie.tasks.clock import format_minute
from reverie.tasks.common import Reply, check_text, one_line, timed, timed_step
from reverie.tasks.task_decomp import fit_durations, slots

MAX_ITEMS = 12
SLOT = 15  # at most one item per this many minutes left
ACTIVITY_CHARS = 80  # an item's bound (``PlanEntry.activity``)
_PLAN_LINE = re.compile(r"\((\d+) min\): (.+)$")


class NewScheduleInputs(TaskInputs):
    name: str
    window_start: str
    window_end: str
    original_plan: str
    inserted_act: str
    inserted_minutes: str
    done_so_far: str
    resume_at: str
    remaining_minutes: str


class PlanEntry(Reply):
    activity: str = Field(max_length=ACTIVITY_CHARS, description="what the character does, a short phrase")
    minutes: int = Field(description="roughly how long, in minutes")


class NewScheduleReply(Reply):
    items: list[PlanEntry] = Field(min_length=1, max_length=MAX_ITEMS, json_schema_extra={MOST_ITEMS_KEY: "slots"})

    @model_validator(mode="after")
    def _check(self) -> NewScheduleReply:
        self.items = timed(self.items)
        for number, item in enumerate(self.items, 1):
            item.activity = timed_step("item", number, item.activity.rstrip("."), item.minutes, like=30)
        return self


def plan_lines(start_minute: int, entries: list[tuple[str, int]]) -> str:
    """``[(activity, minutes)]`` -> "09:00 to 09:30 (30 min): activity" lines."""
    lines, minute = [], start_minute
    for activity, minutes in entries:
        lines.append(
            f"{format_minute(minute)} to {format_minute(minute + minutes)} ({minutes} min): {one_line(activity)}"
        )
        minute += minutes
    return "\n".join(lines)


def read_plan_lines(text: str) -> list[tuple[str, int]]:
    entries = []
    for line in str(text).splitlines():
        match = _PLAN_LINE.search(line.strip())
        if match:
            entries.append((match.group(2).strip(), int(match.group(1))))
    return entries


def cut_to(entries: list[tuple[str, int]], total: int) -> list[tuple[str, int]]:
    """Leading entries up to ``total`` minutes, the last one shortened to fit."""
    kept, used = [], 0
    for activity, minutes in entries:
        minutes = min(max(0, int(minutes)), total - used)
        if minutes > 0:
            kept.append((activity, minutes))
            used += minutes
    return kept


def resume_plan(original: list[tuple[str, int]], offset: int, remaining: int) -> list[tuple[str, int]]:
    """The original plan from ``offset`` minutes in, cut or stretched to ``remaining`` minutes."""
    result: list[tuple[str, int]] = []
    minute = 0
    for activity, minutes in original:
        start, end = max(minute, offset), minute + minutes
        if end > start:
            result.append((activity, end - start))
        minute = end
    if not result and original:
        result = [(original[-1][0], remaining)]
    return fit_durations(result, remaining) if remaining > 0 else []


FILLER = "going about the day"


def within(activity: str, limit: int = ACTIVITY_CHARS) -> str:
    """``activity`` in at most ``limit`` characters. A decomposed item, "plan item (subtask)",
    keeps its subtask whole and closed, so what the persona does now still reads from it
    (``reverie.action_text.subtask``); its plan item is shortened instead."""
    if len(activity) <= limit:
        return activity
    if activity.endswith(")") and is_decomposed(activity):
        item, step = activity[:-1].rsplit("(", 1)
        room = limit - len(step.strip()) - 3  # " (" and ")"
        if room >= 4 and item.strip():
            return f"{item.strip()[:room].rstrip()} ({step.strip()})"
        return step.strip()[:limit]
    return activity[:limit]


def _usable(activity: str) -> str:
    """The plan's wording when it reads as an activity, else a neutral one."""
    try:
        return check_text(activity.rstrip("."))
    except ValueError:  # e.g. "(1)": no words
        return FILLER


def rest_of_plan(original: list[tuple[str, int]], offset: int, remaining: int) -> list[tuple[str, int]]:
    """The original plan resumed ``offset`` minutes in, for ``remaining`` minutes, each activity
    usable as one (a neutral filler when nothing of the plan is left), its wording kept whole."""
    entries = resume_plan(original, offset, remaining) or [(FILLER, max(remaining, 1))]
    return [(_usable(activity), minutes) for activity, minutes in entries]


def resumed_schedule(
    *, main_act_dur: list[tuple[str, int]], truncated_act_dur: list[tuple[str, int]], start_minute: int, end_minute: int
) -> list[tuple[str, int]]:
    """The window's new schedule without a call (packed mode): what happened so far, ending with
    the inserted activity, then the original plan resumed where that activity ends (the
    fail-safe's rule), summing to exactly ``end_minute - start_minute`` as the asked one does."""
    total = end_minute - start_minute
    done = cut_to(list(truncated_act_dur), total)
    remaining = total - sum(m for _, m in done)
    if remaining <= 0:
        return done
    return done + rest_of_plan(list(main_act_dur), total - remaining, remaining)


def fail_safe(inputs: NewScheduleInputs, choices: Choices) -> NewScheduleReply:
    original = read_plan_lines(inputs.original_plan)
    try:
        remaining = int(inputs.remaining_minutes.strip() or 0)
    except ValueError:
        remaining = sum(m for _, m in original)
    offset = sum(m for _, m in original) - remaining
    entries = rest_of_plan(original, offset, remaining)
    try:
        return NewScheduleReply(items=[PlanEntry(activity=within(a), minutes=m) for a, m in entries[:MAX_ITEMS]])
    except ValueError:  # pydantic's ValidationError included
        return NewScheduleReply(items=[PlanEntry(activity=FILLER, minutes=max(remaining, 1))])


NEW_DECOMP_SCHEDULE = Task("new_decomp_schedule", NewScheduleInputs, NewScheduleReply, fail_safe)


def new_decomp_schedule(
    llm: LanguageModel,
    *,
    name: str,
    main_act_dur: list[tuple[str, int]],
    truncated_act_dur: list[tuple[str, int]],
    start_minute: int,
    end_minute: int,
    inserted_act: str,
    inserted_act_dur: int,
) -> list[tuple[str, int]]:
    """The window's new schedule ``[(activity, minutes), ...]``, summing to exactly
    ``end_minute - start_minute`` (the minutes of the plan items it replaces, so the day
    keeps its 1,440 minutes).

    ``main_act_dur`` is the original plan of the window; ``truncated_act_dur`` is what has
    happened in it so far, ending with the inserted activity; the rest is re-planned.
    """
    start, total = start_minute, end_minute - start_minute
    done = cut_to(list(truncated_act_dur), total)
    remaining = total - sum(m for _, m in done)
    if remaining <= 0:
        return done
    inputs = NewScheduleInputs(
        name=name,
        window_start=format_minute(start),
        window_end=format_minute(start + total),
        original_plan=plan_lines(start, list(main_act_dur)),
        inserted_act=one_line(inserted_act),
        inserted_minutes=str(inserted_act_dur),
        done_so_far=plan_lines(start, done) or "(nothing yet)",
        resume_at=format_minute(start + total - remaining),
        remaining_minutes=str(remaining),
    )
    reply = llm.ask(NEW_DECOMP_SCHEDULE, inputs, choices={"slots": slots(remaining, SLOT)}, persona=name)
    rest = fit_durations([(item.activity, item.minutes) for item in reply.items], remaining, 5)
    return done + rest
