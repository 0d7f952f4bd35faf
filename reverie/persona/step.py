"""What one step of a persona's cognition works in: the town, the others, the model, the dice,
whether a new game day began, and what the stages before have returned (docs/LOOP.md §3).

Every cognitive stage has one shape, :class:`Stage`: it takes the persona and the step's
context and returns its own typed result, which the step adds to the context for the
stages after it (``ctx.result(Perceived)``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import Enum
from typing import TYPE_CHECKING, Protocol, TypeVar

from reverie.address import Address
from reverie.memory.associative import Relevant
from reverie.memory.concept_node import ConceptNode
from reverie.memory.scratch import Tile
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
class Perceived:
    """Perceive: the event memories stored this step, nearest first."""

    nodes: list[ConceptNode]


@dataclass(frozen=True)
class Retrieved:
    """Retrieve: for each newly perceived event's description, ``{curr_event, events, thoughts}``."""

    by_event: dict[str, Relevant]


@dataclass(frozen=True)
class PlannedOwn:
    """Plan, the persona's own part: whether a day was planned and whether a next action was chosen."""

    day: bool
    action: bool


@dataclass(frozen=True)
class Planned:
    """Plan, the reaction: the address the persona is heading to this step."""

    address: Address


@dataclass(frozen=True)
class Reflected:
    """Reflect: whether the persona reflected on its recent memories, and whether it kept
    thoughts of a conversation that ends."""

    on_memories: bool
    on_chat: bool


@dataclass(frozen=True)
class Moved:
    """Execute: the tile taken this step, the action's emoji, and "<description> @ <address>"."""

    tile: Tile
    pronunciatio: str | None
    description: str

    def as_tuple(self) -> tuple[Tile, str | None, str]:
        return self.tile, self.pronunciatio, self.description


StageResult = Perceived | Retrieved | PlannedOwn | Planned | Reflected | Moved
R = TypeVar("R", bound=StageResult)
R_co = TypeVar("R_co", bound=StageResult, covariant=True)


@dataclass(frozen=True)
class StepContext:
    """Everything a cognitive stage needs besides the persona itself."""

    maze: Maze
    llm: LanguageModel
    rng: random.Random
    personas: Mapping[str, Agent] = field(default_factory=dict)  # by name, the persona itself included
    new_day: NewDay = NewDay.SAME
    previous_time: datetime | None = None  # the persona's clock before this step
    # Whether a persona stands on a tile at this step; None: read from the maze. A scheduler
    # that lets residents run ahead answers it from their positions at this step.
    occupied: Callable[[tuple[int, int]], bool] | None = None
    results: tuple[StageResult, ...] = ()  # what the stages before returned, in their order

    def having(self, result: StageResult) -> StepContext:
        """This context with a stage's result added, for the stages after it."""
        return replace(self, results=(*self.results, result))

    def result(self, kind: type[R]) -> R:
        """What an earlier stage of this step returned as a ``kind``."""
        for result in self.results:
            if isinstance(result, kind):
                return result
        raise LookupError(f"no stage before this one returned a {kind.__name__}")


class Stage(Protocol[R_co]):
    """One cognitive stage: reads the persona and the step's context, returns its result."""

    def __call__(self, persona: Agent, ctx: StepContext, /) -> R_co: ...


@dataclass(frozen=True)
class StartedMove:
    """A step whose own stages are done (:meth:`reverie.persona.persona.Persona.start_move`): its
    context, holding their results, for the stages that react to the others."""

    ctx: StepContext
