"""The hour a persona wakes up on a new day (prompt wake_up_hour).

The reply is ``{"hour": 0..23}``: an enum, so a grammar enforces the range; without a
grammar "6am", "6:30 am" or "18:00" are read as hours too (docs/FIDELITY.md). An hour more than 1 hour from the one the lifestyle names is sent back with
that hour, so the day's sleeping hours agree with the persona's habits. The code knows those
hours before the call: :func:`allowed_hours` passes them as the call's ``hours`` choice, so a
grammar offers only them (the bundled model answered "13" for a 6am habit, again after the
correction). The fail-safe reads the hour out of the persona's lifestyle text
("... awakes up around 7am ..."), else 8.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import CHOICES_KEY, Choices, Task, TaskInputs
from reverie.tasks.clock import WAKE_WORDS, format_hour, hour_after
from reverie.tasks.common import Reply, inputs_of

HOURS = tuple(range(24))
DEFAULT_WAKE_UP_HOUR = 8
MAX_SHIFT = 1  # hours a day's wake-up may differ from the lifestyle's


def _hour_value(value: Any) -> Any:
    """ "6", "6am", "6:30 am", "18:00" -> int hour; anything else is left for the enum check."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if not isinstance(value, str):
        return value
    match = re.fullmatch(r"\s*(\d{1,2})(?::\d\d)?\s*(am|pm|a\.m\.|p\.m\.)?\s*", value.lower())
    if not match:
        raise ValueError(f"{value!r} is not an hour; answer with a whole number from 0 to 23, like 7")
    hour = int(match.group(1))
    suffix = (match.group(2) or "").replace(".", "")
    if suffix and not 1 <= hour <= 12:
        raise ValueError(f"{value!r} is not a clock hour; answer with a whole number from 0 to 23, like 7")
    if suffix == "pm" and hour != 12:
        hour += 12
    elif suffix == "am" and hour == 12:
        hour = 0
    return hour


class WakeUpInputs(TaskInputs):
    identity: str
    lifestyle: str
    first_name: str


class WakeUpHourReply(Reply):
    hour: Literal[HOURS] = Field(
        description="hour of waking up, 24-hour clock (0-23)", json_schema_extra={CHOICES_KEY: "hours"}
    )

    @field_validator("hour", mode="before")
    @classmethod
    def _read_hour(cls, value: Any) -> Any:
        value = _hour_value(value)
        if isinstance(value, int) and not isinstance(value, bool) and value not in HOURS:
            raise ValueError(f"{value} is not an hour of the day; answer with a whole number from 0 to 23")
        return value

    @field_validator("hour")
    @classmethod
    def _agrees_with_habits(cls, value: int, info: ValidationInfo) -> int:
        inputs = inputs_of(info, WakeUpInputs)
        usual = hour_after(inputs.lifestyle, WAKE_WORDS) if inputs else None
        if inputs is None or usual is None:
            return value
        off = min((value - usual) % 24, (usual - value) % 24)
        if off > MAX_SHIFT:
            name = inputs.first_name or "the character"
            raise ValueError(
                f"{name}'s habits say {name} wakes up around {format_hour(usual)}; {value} is {off} hours "
                f"off: answer {usual} or an hour at most {MAX_SHIFT} away"
            )
        return value


def allowed_hours(lifestyle: str) -> list[int]:
    """The hours a day's wake-up may take: the lifestyle's hour and those at most ``MAX_SHIFT`` away, else any."""
    usual = hour_after(lifestyle, WAKE_WORDS)
    if usual is None:
        return list(HOURS)
    return [(usual + shift) % 24 for shift in range(-MAX_SHIFT, MAX_SHIFT + 1)]


def fail_safe(inputs: WakeUpInputs, choices: Choices) -> WakeUpHourReply:
    hour = hour_after(inputs.lifestyle, WAKE_WORDS)
    return WakeUpHourReply(hour=DEFAULT_WAKE_UP_HOUR if hour is None else hour)


WAKE_UP_HOUR = Task("wake_up_hour", WakeUpInputs, WakeUpHourReply, fail_safe)


def wake_up_hour(
    llm: LanguageModel, *, identity: str, lifestyle: str, first_name: str, persona: str | None = None
) -> int:
    """The hour (0..23) the persona wakes up today."""
    inputs = WakeUpInputs(identity=identity, lifestyle=lifestyle, first_name=first_name)
    choices = {"hours": [str(hour) for hour in allowed_hours(lifestyle)]}
    return int(llm.ask(WAKE_UP_HOUR, inputs, choices=choices, persona=persona or first_name).hour)
