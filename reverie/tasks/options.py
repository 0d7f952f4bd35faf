"""Call-time option lists (sectors, arenas, objects): reading them in validators, filtering them.

The structured chain already turns ``choice_field`` values into an enum and checks them;
:func:`check_choice` repeats that check inside the schema so a unit validated on its own
(tests, replays without a grammar) gives the same correction message.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any

from pydantic import AfterValidator, ValidationInfo

from reverie.llm.task import choice_field


def choices_of(info: ValidationInfo, key: str) -> list[str] | None:
    """The options passed under ``key`` for this call, or None when validated without them."""
    context = info.context or {}
    options = (context.get("choices") or {}).get(key)
    return list(options) if options else None


def check_choice(value: str, info: ValidationInfo, key: str) -> str:
    """Return ``value`` if it is one of the call's options (case-insensitive match fixed up)."""
    options = choices_of(info, key)
    if options is None or value in options:
        return value
    for option in options:
        if option.lower() == value.strip().lower():
            return option
    raise ValueError(f"{value!r} is not one of: {', '.join(options)}; copy one of them exactly")


def Choice(key: str, description: str) -> Any:
    """A field taking one of the names passed at call time under ``key``: an enum in the
    grammar's schema, and checked again by :func:`check_choice`."""
    return Annotated[
        str,
        choice_field(key, description=description),
        AfterValidator(lambda value, info: check_choice(value, info, key)),
    ]


def joined(options: Iterable[str]) -> str:
    """``["a", "b"]`` -> ``"a, b"`` (how option lists appear in prompts)."""
    return ", ".join(options)


def keep_own_private(options: Iterable[str], last_name: str, marker: str) -> list[str]:
    """Drop other people's private places: names containing ``marker`` (e.g. "'s house")
    are kept only if they contain the persona's ``last_name``. Order is preserved."""
    kept = []
    for option in options:
        if marker in option and last_name not in option:
            continue
        kept.append(option)
    return kept


def unique(options: Iterable[Any]) -> list[str]:
    """Options as strings, first occurrence kept, empties dropped."""
    seen: dict[str, None] = {}
    for option in options:
        text = str(option).strip()
        if text and text not in seen:
            seen[text] = None
    return list(seen)
