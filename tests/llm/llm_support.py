"""The LLM room's test helpers: a small test task with its prompt text, and the token counts its
scripted fake model (reverie.llm.fake_model.FakeChatModel) reports."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator

from reverie.llm.task import Task, TaskInputs, choice_field
from reverie.tasks.registry import product_tasks

TASK = "llm_test_wake_up"


class WakeUpInputs(TaskInputs):
    name: str
    lifestyle: str
    earliest: int


class WakeUp(BaseModel):
    model_config = ConfigDict(extra="forbid")

    hour: Literal[5, 6, 7, 8, 9, 10]
    place: str = choice_field("places", max_length=40)

    @field_validator("hour")
    @classmethod
    def _not_before_rule(cls, hour, info):
        inputs = (info.context or {}).get("inputs")
        earliest = inputs.earliest if inputs else 0
        if hour < earliest:
            raise ValueError(f"must be {earliest} or later")
        return hour


def _fail_safe(inputs: WakeUpInputs, choices) -> WakeUp:
    return WakeUp(hour=7, place=(choices.get("places") or ["bedroom"])[0])


WAKE_UP_TASK = Task(name=TASK, inputs=WakeUpInputs, schema=WakeUp, fail_safe=_fail_safe)
TASKS = product_tasks().with_(WAKE_UP_TASK)  # the shipped tasks and this one

PROMPT = '''role = "cheap"
description = "the hour a person wakes up and the room they start in"
inputs = ["name", "lifestyle", "earliest"]
system = """You plan the morning of a person who lives in a small town.
You always answer with a JSON object and nothing else."""
user = """{name} {lifestyle}. {name} never gets up before {earliest}.
At what hour does {name} wake up, and in which room?"""

[[examples]]
user = "Sam is a baker. At what hour does Sam wake up, and in which room?"
assistant = '{"hour": 5, "place": "bedroom"}'
'''

INPUTS = {"name": "Maria", "lifestyle": "is a student who likes to sleep in", "earliest": 6}
CHOICES = {"places": ["bedroom", "kitchen", "bathroom"]}


# What the scripted fake model says each call cost.
USAGE = {"input_tokens": 40, "output_tokens": 9, "total_tokens": 49}
