"""A persona: its memory and the order of its cognitive stages for one step (docs/LOOP.md §3)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reverie.engine_time import timed
from reverie.memory import AssociativeMemory, Embedder, PersonaMemory, SpatialMemory, VectorIndex
from reverie.memory.scratch import Scratch, Tile
from reverie.persona.execute import execute
from reverie.persona.options import CognitionOptions
from reverie.persona.perceive import perceive
from reverie.persona.plan import plan_own, plan_reaction
from reverie.persona.reflect import reflect
from reverie.persona.retrieve import retrieve
from reverie.persona.seeded_status import Seeds
from reverie.persona.step import Moved, NewDay, Stage, StartedMove, StepContext

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.tasks.convo_thoughts import ChatNotes
    from reverie.world.maze import Maze


# One step of cognition, top to bottom (docs/LOOP.md §3). Each stage takes the persona and the
# step's context, which holds what the stages above it returned, and returns its own result.
# The first part reads and writes this persona and the map only, so a scheduler may run it beside
# other residents' (docs/LOOP.md §2a); the second reacts to the others.
OWN_STAGES: tuple[tuple[str, Stage], ...] = (
    ("perceive", perceive),  # -> Perceived: the new event memories
    ("retrieve", retrieve),  # -> Retrieved: what memory holds about them
    ("plan", plan_own),  # -> PlannedOwn: the day when it starts, the next action when one ends
)
REACTING_STAGES: tuple[tuple[str, Stage], ...] = (
    ("plan", plan_reaction),  # -> Planned: a reaction to what was perceived; where to head
    ("reflect", reflect),  # -> Reflected: insights, thoughts of a conversation that ends
    ("execute", execute),  # -> Moved: one tile of the path there
)
STAGES = OWN_STAGES + REACTING_STAGES


class Persona:
    def __init__(self, name: str, memory: PersonaMemory, options: CognitionOptions = CognitionOptions()):
        self.name = name
        self.memory = memory
        self.options = options
        self.seeds = Seeds()  # what the run's seeds fix in this persona's days (the simulation gives them)
        self.learned_from: tuple | None = None  # (tile, vision radius) the places were last learned from
        self.chat_notes: dict[str, ChatNotes] = {}  # packed mode: notes a partner's call wrote, by partner

    def take_seeds(self, seeds: Seeds) -> None:
        self.seeds = seeds

    # The original's attribute names, used throughout cognition.
    @property
    def scratch(self) -> Scratch:
        return self.memory.scratch

    @property
    def s_mem(self) -> SpatialMemory:
        return self.memory.spatial

    @property
    def a_mem(self) -> AssociativeMemory:
        return self.memory.associative

    @classmethod
    def load(
        cls,
        name: str,
        folder: Path,
        options: CognitionOptions = CognitionOptions(),
        *,
        embedder: Embedder | None = None,
        index: VectorIndex | None = None,
    ) -> Persona:
        """The persona whose memory is in ``folder`` (the constructor's order: name, memory, options);
        ``embedder`` and ``index``: where that memory's vectors come from and go."""
        return cls(name, PersonaMemory.load(folder, embedder=embedder, index=index), options)

    def save(self, folder: Path) -> None:
        self.memory.save(folder)

    def identity(self) -> str:
        return self.scratch.identity()

    def current_event(self) -> tuple:
        return self.scratch.curr_event()

    def object_event(self) -> tuple:
        return self.scratch.curr_obj_event()

    def move(self, *args: Any, **kwargs: Any) -> tuple[Tile, str | None, str]:
        """One step of cognition: perceive → retrieve → plan → reflect → execute (the arguments of
        :meth:`start_move`, then :meth:`finish_move`)."""
        return self.finish_move(self.start_move(*args, **kwargs))

    def start_move(
        self,
        maze: Maze,
        personas: dict[str, Persona],
        tile: Tile,
        curr_time: datetime,
        *,
        rng: random.Random,
        llm: LanguageModel,
        occupied: Callable[[Tile], bool] | None = None,
    ) -> StartedMove:
        """The persona's own stages (:data:`OWN_STAGES`): they read and write this persona and the
        map only. ``occupied``: whether a persona stands on a tile at this step (default: read
        from the maze)."""
        s = self.scratch
        s.move_to(tile)
        ctx = StepContext(
            maze=maze,
            llm=llm,
            rng=rng,
            personas=personas,
            occupied=occupied,
            new_day=NewDay.between(s.curr_time, curr_time),
            previous_time=s.curr_time,
        )
        s.set_time(curr_time)

        return StartedMove(self._run(OWN_STAGES, ctx))

    def finish_move(
        self, started: StartedMove, personas: Mapping[str, Persona] | None = None
    ) -> tuple[Tile, str | None, str]:
        """The stages that react to the others (:data:`REACTING_STAGES`). ``personas``: the
        others as this persona sees them now (default: the step's)."""
        ctx = started.ctx if personas is None else replace(started.ctx, personas=dict(personas))
        return self._run(REACTING_STAGES, ctx).result(Moved).as_tuple()

    def _run(self, stages: tuple[tuple[str, Stage], ...], ctx: StepContext) -> StepContext:
        for stage_name, stage in stages:
            with timed(stage_name):
                ctx = ctx.having(stage(self, ctx))
        return ctx
