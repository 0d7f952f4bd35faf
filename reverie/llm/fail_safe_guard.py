"""A fail-safe that cannot fail: the task's own, and if that raises, the same with tamer inputs.

A fail-safe builds its answer from the call's typed inputs (a name, an activity, a statement), and
the answer must pass the schema's checks. Inputs the engine can really produce (an activity
"(1)" with no words, a status of one long word, a very long description) can make that
answer invalid. Then the fail-safe is asked again with the inputs tamed: each text on one
line and cut to a few words, texts without letters replaced; and last with every text
replaced by a plain phrase. Choices keep only usable names. Each retry is logged.
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel

from reverie.llm.safe_text import has_a_letter
from reverie.llm.task import Choices, Task

log = logging.getLogger("reverie.llm")

PLAIN = "going about the day as usual"
MAX_CHOICE = 120


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut if cut else text[:limit]


def _tame(value: Any, limit: int | None) -> Any:
    if isinstance(value, str):
        if limit is None or not has_a_letter(value):
            return PLAIN
        return _cut(value, limit)
    if isinstance(value, list):
        return [_tame(v, limit) for v in value]
    if isinstance(value, tuple):
        return tuple(_tame(v, limit) for v in value)
    if isinstance(value, dict):  # keys are names (e.g. a place tree): kept
        return {k: _tame(v, limit) for k, v in value.items()}
    return value


def _usable_choices(choices: Choices) -> Choices:
    out: Choices = {}
    for key, values in choices.items():
        usable = [v for v in values if isinstance(v, str) and has_a_letter(v) and len(v) <= MAX_CHOICE]
        out[key] = usable or list(values)
    return out


def fail_safe(task: Task[Any, Any], inputs: dict[str, Any], choices: Choices) -> BaseModel:
    """``task.fail_safe(<typed inputs>, choices)``, retried with tamer inputs if it raises.

    ``inputs`` is the dict the prompt was rendered from; the fail-safe gets it as the
    task's inputs model (inputs that do not fit it are a bug in the unit: ``InputsMismatch``)."""
    typed = task.typed(inputs)
    try:
        made: BaseModel = task.fail_safe(typed, choices)
        return made
    except Exception as exc:  # a fail-safe must not end a run: try again with tamer inputs
        first = exc
    tame_choices = _usable_choices(choices)
    for limit in (60, 20, None):
        try:
            result: BaseModel = task.fail_safe(task.typed(_tame(typed.model_dump(), limit)), tame_choices)
        except Exception:
            continue
        log.warning(
            "prompt %s: the fail-safe needed tamer inputs (%s: %s)",
            task.name,
            type(first).__name__,
            " ".join(str(first).split())[:200],
        )
        return result
    raise first
