"""What an action's description says: decomposed actions read "<task> (<subtask>)", and its
words may say sleep. The descriptions are a model's (schedule items, a conversation's topic) or
a loaded file's, so this module is their one reader: cognition decides on what it returns."""

from __future__ import annotations

import re
from dataclasses import dataclass

_SLEEP = re.compile(r"\b(sleeping|asleep|sleep)\b")


def activity_part(description: str) -> str:
    """ "writing a paper (reading sources)" -> "writing a paper " (the whole text without parentheses)."""
    return description.split("(")[0]


def main_action(description: str) -> str:
    """ "writing a paper (reading sources)" -> "writing a paper"."""
    return activity_part(description).strip() or description.strip()


def is_decomposed(description: str) -> bool:
    """A "<task> (<subtask>)" description: a plan item the code has decomposed into subtasks."""
    return "(" in description


def subtask(description: str) -> str:
    """ "writing a paper (reading sources)" -> "reading sources"; no parentheses -> the whole text."""
    if is_decomposed(description):
        inner = description.rsplit("(", 1)[1].split(")")[0].strip()
        if inner:
            return inner
    return description.strip()


@dataclass(frozen=True)
class SleepWords:
    """What a description's words say of sleep."""

    activity: bool  # the activity (before a "(subtask)") names sleep: "sleeping", "asleep", "sleep"
    sleeping: bool  # "sleeping" anywhere: nobody starts a conversation or a wait with it (the original's test)
    bedtime: bool  # "sleep" or "bed" anywhere ("getting ready for bed")
    in_bed: bool  # "sleeping", "asleep" or "in bed" anywhere: sleep itself, never broken into subtasks

    @classmethod
    def read(cls, description: str | None) -> SleepWords:
        text = description or ""
        return cls(
            activity=bool(_SLEEP.search(activity_part(text).lower())),
            sleeping="sleeping" in text,
            bedtime="sleep" in text or "bed" in text,
            in_bed="sleeping" in text or "asleep" in text or "in bed" in text,
        )
