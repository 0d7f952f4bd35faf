"""A group's step in the out-of-order scheduler, its members' own parts side by side (docs/LOOP.md §2a).

Residents who see each other at a step run one after another in persona order, as the step loop
has them: a later one sees what the earlier ones did. But the first part of a resident's step
(:meth:`~reverie.persona.persona.Persona.start_move`: perceive, retrieve, plan the day and the
next action, the step's costly calls) reads and writes only the resident itself and the map. Only
the reaction that follows reads another resident, and only a conversation it starts writes one
(the partner's action, and at its end the partner's notes). So a member that nobody before it can start a conversation with at this step is *alone*: its
first part starts at once beside the others', while the members before it react to a copy of it
as it stood before the step. Nobody can when, by its state before the step, it is asleep, without
an action, waiting, or the hour is 23 (:func:`reverie.persona.react.open_to_talk`), or when each
member before it already knows its event on its tile (among its newest memories, so not perceived
anew: a persona reacts only to what it perceives anew); and it is not in a conversation. Every
member's second part (react, reflect, execute) keeps persona order, so each one reads and writes
what it would in the step loop.
"""

from __future__ import annotations

import contextvars
import copy
import random
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from typing import Any

from reverie.persona.perceive import known
from reverie.persona.react import open_to_talk
from reverie.persona.step import StartedMove


def alone(persona: Any, before: list[Any], when: datetime) -> bool:
    """Whether none of the members ``before`` it can write ``persona`` at a step at ``when`` (see the module)."""
    if persona.scratch.chatting_with:
        return False
    event = persona.current_event()  # on its tile this step
    return not open_to_talk(persona.scratch, when) or all(known(other, event) for other in before)


def as_before(persona: Any) -> Any:
    """``persona`` as the members before it see it: its scratch as it stands now, before its step."""
    view = copy.copy(persona)
    view.memory = copy.copy(persona.memory)
    view.memory.scratch = copy.deepcopy(persona.scratch)
    return view


def group_step(
    sim: Any,  # a reverie.simulation.simulation.Simulation
    group: list[str],
    step: int,
    when: datetime,
    *,
    occupied: Callable[[tuple[int, int]], bool],
    halted: Callable[[], bool],
    moved: dict[str, dict],
) -> None:
    """Run ``group`` (persona order) at ``step``, filling ``moved`` with each member's movement entry."""
    personas = sim.personas

    def start(name: str) -> StartedMove:
        persona = personas[name]
        return persona.start_move(
            sim.maze,
            personas,
            persona.scratch.curr_tile,
            when,
            rng=random.Random(f"{step}:{name}"),
            llm=sim.llm,
            occupied=occupied,
        )

    early = [n for i, n in enumerate(group) if i and alone(personas[n], [personas[m] for m in group[:i]], when)]
    if not early:
        for name in group:
            if halted():
                return
            moved[name] = sim._move(name, step=step, when=when, occupied=occupied)
        return
    views = {name: as_before(personas[name]) for name in early}
    with ThreadPoolExecutor(max_workers=len(early), thread_name_prefix=f"own-{step}") as pool:
        started: dict[str, Future] = {name: pool.submit(contextvars.copy_context().run, start, name) for name in early}
        for i, name in enumerate(group):
            if halted():
                return
            begun = started[name].result() if name in started else start(name)
            seen = {**personas, **{n: views[n] for n in group[i + 1 :] if n in views}}
            moved[name] = sim.movement_entry(name, personas[name].finish_move(begun, seen))
