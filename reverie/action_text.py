"""Parts of an action description: decomposed actions read "<task> (<subtask>)"."""

from __future__ import annotations


def main_action(description: str) -> str:
    """ "writing a paper (reading sources)" -> "writing a paper"."""
    return description.split("(")[0].strip() or description.strip()


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
