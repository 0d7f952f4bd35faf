"""What a prompt is to the code: a schema, a fail-safe, and dynamic choices.

A :class:`Task` binds ``prompts/<name>.toml`` (the wording, edited by prompt engineers)
to the typed answer the code expects. The structured chain does the rest: it renders
the prompt, constrains the reply with the schema's grammar, validates it, feeds the
errors back to the model, and falls back to ``fail_safe`` when attempts run out.

Dynamic choices: a string field (or list-of-strings field) declared with
``choice_field("sectors")`` must take one of the values passed at call time as
``ask(..., choices={"sectors": [...]})``. The chain puts them into the JSON schema as an
``enum`` (so the grammar enforces them) and checks them after parsing, with a correction
message that lists the allowed values.

Validators on the schema can read the call's context through pydantic's
``ValidationInfo.context``: ``{"inputs": {...}, "choices": {...}}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pydantic import BaseModel, Field

from reverie.llm.prompt_size import Drop, Trim

Inputs = dict[str, Any]
Choices = dict[str, list[str]]

CHOICES_KEY = "x-choices"


def choice_field(choices_key: str, *, max_length: int = 120, description: str = "", **kwargs) -> Any:
    """A string field whose allowed values are passed at call time under ``choices_key``."""
    return Field(
        max_length=max_length,
        description=description,
        json_schema_extra={CHOICES_KEY: choices_key},
        **kwargs,
    )


@dataclass(frozen=True)
class Task:
    """One prompt's contract. ``name`` is the file ``prompts/<name>.toml``."""

    name: str
    schema: type[BaseModel]
    # (inputs, choices) -> a valid schema instance that keeps the simulation sensible.
    fail_safe: Callable[[Inputs, Choices], BaseModel]
    # Where cognition uses it (shown by `prompts list`).
    used_in: str = ""
    # Inputs that grow with the run, cut from their least relevant end when the prompt
    # would not fit the context window (see reverie.llm.prompt_size).
    trim: tuple[Trim, ...] = ()


def memories(*names: str) -> tuple[Trim, ...]:
    """Ranked inputs (most relevant first): the last lines go first."""
    return tuple(Trim(name, Drop.LAST) for name in names)


def transcript_of(*names: str) -> tuple[Trim, ...]:
    """Chronological inputs (oldest line first): the oldest lines go first."""
    return tuple(Trim(name, Drop.FIRST) for name in names)


_REGISTRY: dict[str, Task] = {}


def register(task: Task) -> Task:
    """Add a task to the registry (one call per prompt, at import of its unit)."""
    if task.name in _REGISTRY and _REGISTRY[task.name] is not task:
        raise ValueError(f"task {task.name!r} registered twice")
    _REGISTRY[task.name] = task
    return task


def get_task(name: str) -> Task:
    from reverie import tasks  # noqa: F401  (importing the package registers every task)

    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"no task named {name!r}; known: {', '.join(sorted(_REGISTRY))}") from None


def all_tasks() -> dict[str, Task]:
    from reverie import tasks  # noqa: F401

    return dict(sorted(_REGISTRY.items()))
