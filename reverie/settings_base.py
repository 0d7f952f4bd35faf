"""What every table of ``config.toml`` shares: unknown keys refused, strict types, each key's
docstring its meaning (the generated config reference, docs/reference/config.md)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict


def number_only(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("must be a number (such as 0.5), without quotes")
    return value


# Types are strict: `autosave_every = true` or `debug = "yes"` is refused, not converted.
Number = Annotated[float, BeforeValidator(number_only)]


class Section(BaseModel):
    # Each key's docstring is its meaning in the generated config reference (docs/reference/config.md).
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)
