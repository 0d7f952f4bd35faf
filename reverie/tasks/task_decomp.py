"""Break one block of the schedule into subtasks in 5-minute increments (prompt task_decomp).

As the original, the prompt asks for the block's subtasks in 5-minute increments. The
grammar allows at most one subtask per 10 minutes of the block (``SLOT``; at most
``MAX_SUBTASKS``), because a small model fills a list to its bound (docs/FIDELITY.md). The
reply is a list of ``[action, minutes]`` pairs, which cost fewer reply tokens than objects
(docs/SPEED.md): the model writes the steps, the code does the arithmetic. Validators require
only a positive number of minutes; the code scales them to the block in 5-minute steps
(docs/FIDELITY.md). The function
returns ``[("<task> (<subtask>)", minutes), ...]`` summing exactly to the block, as
``f_daily_schedule`` expects.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, NamedTuple

from pydantic import Field, ValidationInfo, model_validator

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import MOST_ITEMS_KEY, Choices, Task, TaskInputs
from reverie.tasks.clock import format_minute
from reverie.tasks.common import Reply, inputs_of, one_line, timed, timed_step
from reverie.tasks.hourly_schedule import strip_subject

MAX_SUBTASKS = 16  # the grammar's bound for the longest blocks; the prompt sets none
STEP = 5
SLOT = 10  # at most one subtask per this many minutes of the block


class TaskDecompInputs(TaskInputs):
    identity: str
    schedule_context: str
    first_name: str
    task: str
    time_range: str
    duration: str


class Subtask(NamedTuple):
    """One step of the reply, written as a pair: ``["mixing the dough", 10]``."""

    action: Annotated[str, Field(max_length=60)]  # what the character does, a short phrase
    minutes: int  # roughly how long it takes


class TaskDecompReply(Reply):
    subtasks: list[Subtask] = Field(min_length=1, max_length=MAX_SUBTASKS, json_schema_extra={MOST_ITEMS_KEY: "slots"})

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo) -> TaskDecompReply:
        inputs = inputs_of(info, TaskDecompInputs)
        first = inputs.first_name if inputs else ""
        self.subtasks = [
            sub._replace(
                action=timed_step("subtask", number, strip_subject(sub.action.strip(), first), sub.minutes, like=15)
            )
            for number, sub in enumerate(timed(self.subtasks), 1)
        ]
        return self


def _int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def generic_steps(total: int) -> list[tuple[str, int]]:
    """A plain split of a block: get started, do it, wrap up."""
    if total >= 30 and total % STEP == 0:
        return [("getting started", STEP), ("working on it", total - 2 * STEP), ("wrapping up", STEP)]
    return [("working on it", max(total, 1))]


def fail_safe(inputs: TaskDecompInputs, choices: Choices) -> TaskDecompReply:
    total = _int(inputs.duration) or 60
    return TaskDecompReply(subtasks=[Subtask(action=a, minutes=m) for a, m in generic_steps(total)])


TASK_DECOMP = Task("task_decomp", TaskDecompInputs, TaskDecompReply, fail_safe)


def slots(minutes: int, length: int) -> list[str]:
    """The ``length``-minute slots of ``minutes`` (at least one), as minutes from the start:
    ``slots(60, 10)`` is ``["0", "10", ..., "50"]``. A reply gets at most one item per slot."""
    return [str(m) for m in range(0, max(minutes, 1), length)]


def fit_durations(items: list[tuple[str, int]], total: int, step: int = 1) -> list[tuple[str, int]]:
    """Scale durations so they add up to exactly ``total`` (order kept, zero-length items dropped).

    With ``step`` > 1 and ``total`` a multiple of it, every boundary falls on a multiple of ``step``."""
    items = [(name, max(0, int(minutes))) for name, minutes in items]
    found = sum(minutes for _, minutes in items)
    if total <= 0:
        return []
    if found <= 0:
        return [(items[0][0] if items else "working on it", total)]
    grain = step if step > 1 and total % step == 0 else 1
    fitted, cumulative, previous = [], 0, 0
    for name, minutes in items:
        cumulative += minutes
        boundary = round(cumulative * total / found / grain) * grain
        if boundary > previous:
            fitted.append((name, boundary - previous))
            previous = boundary
    return fitted


def describe_schedule(date: str, name: str, blocks: list[tuple[int, int, str]]) -> str:
    """The surrounding-schedule sentence: ``blocks`` are (start minute, end minute, task)."""
    parts = [
        f"from {format_minute(start)} to {format_minute(end)}, {name} is planning on {one_line(task)}"
        for start, end, task in blocks
    ]
    if not parts:
        return f"Today is {date}."
    text = "; ".join(parts)
    return f"Today is {date}. {text[0].upper()}{text[1:]}."


def task_decomp(
    llm: LanguageModel,
    *,
    identity: str,
    schedule_context: str,
    first_name: str,
    task: str,
    time_range: str,
    duration: int,
    persona: str | None = None,
) -> list[tuple[str, int]]:
    """``[("<task> (<subtask>)", minutes), ...]`` adding up to ``duration``, in 5-minute steps when it is a multiple of 5."""
    inputs = TaskDecompInputs(
        identity=identity,
        schedule_context=schedule_context,
        first_name=first_name,
        task=task,
        time_range=time_range,
        duration=str(duration),
    )
    reply = llm.ask(TASK_DECOMP, inputs, choices={"slots": slots(duration, SLOT)}, persona=persona or first_name)
    steps = fit_durations([(sub.action, sub.minutes) for sub in reply.subtasks], duration, STEP)
    out: list[tuple[str, int]] = []
    for action, minutes in steps:
        name = f"{task} ({re.sub(r'[()]', '', action).strip()})"
        if out and out[-1][0] == name:  # the same subtask twice in a row is one (as the original merged them)
            out[-1] = (name, out[-1][1] + minutes)
        else:
            out.append((name, minutes))
    return out
