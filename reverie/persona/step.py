"""What one step of a persona's cognition works in: the town, the others, the model, the dice,
and whether a new game day began (docs/LOOP.md §3)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import TYPE_CHECKING

from reverie.persona.agent import Agent

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.world.maze import Maze


class NewDay(Enum):
    """The step opens the persona's first day, a later day, or neither."""

    FIRST = "First day"
    NEXT = "New day"
    SAME = "same day"

    @classmethod
    def between(cls, previous: datetime | None, now: datetime) -> NewDay:
        """Which one a step from ``previous`` (None: never stepped) to ``now`` is."""
        if previous is None:
            return cls.FIRST
        if previous.strftime("%A %B %d") != now.strftime("%A %B %d"):
            return cls.NEXT
        return cls.SAME


@dataclass(frozen=True)
class StepContext:
    """Everything a cognitive stage needs besides the persona itself."""

    maze: Maze
    llm: LanguageModel
    rng: random.Random
    personas: dict[str, Agent] = field(default_factory=dict)  # by name, the persona itself included
    new_day: NewDay = NewDay.SAME
    previous_time: datetime | None = None  # the persona's clock before this step
    # Whether a persona stands on a tile at this step; None: read from the maze. A scheduler
    # that lets residents run ahead answers it from their positions at this step.
    occupied: Callable[[tuple[int, int]], bool] | None = None


@dataclass(frozen=True)
class StartedMove:
    """A step whose own part is done (:meth:`reverie.persona.persona.Persona.start_move`): its
    context and what it retrieved, for the part that reacts to the others."""

    ctx: StepContext
    retrieved: dict
