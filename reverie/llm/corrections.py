"""Problems with a model's reply, and the correction message that lists them.

Each problem names the field path, what was wrong and, where there are any, the
allowed values, in words a small model can act on.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

MAX_LISTED = 40
WHOLE = "(whole reply)"


@dataclass(frozen=True)
class Problem:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def field_path(loc: Iterable[int | str]) -> str:
    """('plan', 0, 'task') -> 'plan[0].task'."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or WHOLE


def listing(values: Sequence[Any]) -> str:
    """The allowed values, each whole: a value cut off with "..." could never be copied right."""
    shown = ", ".join(_json(v) for v in list(values)[:MAX_LISTED])
    extra = len(values) - MAX_LISTED
    return shown + (f" (and {extra} more)" if extra > 0 else "")


def _json(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _short(value: Any) -> str:
    """The reply's own value, cut to 80 characters. The reply is the message just before the
    correction; the cut quote stays because a small model's repeat of a failed daily plan
    changes when it copies the quote, and then passes more often (docs/SPEED.md)."""
    text = _json(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _explain(error: ErrorDetails) -> str:
    kind, ctx, got = error["type"], error.get("ctx") or {}, error.get("input")
    if kind == "missing":
        return "missing — add this field"
    if kind == "extra_forbidden":
        return "not an allowed field — remove it"
    if kind in ("literal_error", "enum"):
        return f"got {_short(got)}; allowed values: {ctx.get('expected', '')}"
    if kind == "string_too_long":
        return f"too long ({len(got) if isinstance(got, str) else '?'} characters); at most {ctx.get('max_length')}"
    if kind == "string_too_short":
        return f"too short; at least {ctx.get('min_length')} characters"
    if kind == "too_long":
        return f"too many items; at most {ctx.get('max_length')}"
    if kind == "too_short":
        return f"too few items; at least {ctx.get('min_length')}"
    if kind in ("value_error", "assertion_error"):
        message = error["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
        return f"{message} (got {_short(got)})"
    return f"{error['msg']} (got {_short(got)})"


def from_validation_error(exc: ValidationError) -> list[Problem]:
    return [Problem(field_path(e["loc"]), _explain(e)) for e in exc.errors(include_url=False)]


def not_a_choice(path: str, value: Any, allowed: list[str]) -> Problem:
    return Problem(path, f"{_short(value)} is not one of the allowed values; choose one of: {listing(allowed)}")


def not_json(detail: str, cut_off: bool) -> Problem:
    if cut_off:
        return Problem(WHOLE, "the reply was cut off before the JSON object ended — answer shorter")
    return Problem(WHOLE, f"not a valid JSON object ({detail}) — reply with only one JSON object")


def correction_message(problems: list[Problem]) -> str:
    lines = "\n".join(f"- {p}" for p in problems)
    return (
        f"Your reply had {len(problems)} problem{'s' if len(problems) != 1 else ''}:\n{lines}\n"
        "Reply again with only the corrected JSON object."
    )
