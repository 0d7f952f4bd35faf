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
anew: a persona reacts only to what it perceives anew); and it is not in a conversation.

Once a member's first part is done, the residents its second part (react, reflect, execute) may
read or write are known (:func:`reaches`): those whose events it perceived anew, its partner, the
one it walks to. Its second part starts beside an earlier member's when the two reach nobody in
common, each other included, else after that member's whole step; a member that is not alone starts its first part once no
member before it can still write it (:func:`may_start`, :func:`may_finish`). So each one reads and
writes what it would in the step loop.
"""

from __future__ import annotations

import contextvars
import copy
import random
from collections.abc import Callable, Collection
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from datetime import datetime
from typing import TYPE_CHECKING, Any

from reverie.address import PersonaAt, parse_address
from reverie.persona.perceive import known
from reverie.persona.react import open_to_talk
from reverie.persona.step import Retrieved, StartedMove

if TYPE_CHECKING:
    from reverie.memory.scratch import Scratch


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


def partners(scratch: Scratch) -> set[str]:
    """The residents this one is bound to: its conversation partner, the one it walks to."""
    bound = {scratch.chatting_with} if scratch.chatting_with else set()
    address = parse_address(scratch.act_address) if scratch.act_address else None
    if isinstance(address, PersonaAt):
        bound.add(address.name)
    return bound


def reaches(persona: Any, started: StartedMove, names: Collection[str]) -> frozenset[str]:
    """The residents (of ``names``) that ``persona``'s second part may read or write, once its first
    part is done: the subjects of the events it perceived anew (a reaction is to one of them), its
    conversation partner and the one it walks to."""
    subjects = {r["curr_event"].subject for r in started.ctx.result(Retrieved).by_event.values()}
    return frozenset((subjects | partners(persona.scratch)) & set(names)) - {persona.name}


def may_start(name: str, group: list[str], *, alone: bool, reach: dict[str, frozenset[str]], done: set[str]) -> bool:
    """Whether ``name``'s first part may start: it is alone, or every member before it has done its
    first part and either cannot touch it this step or has done its whole step."""
    before = group[: group.index(name)]
    return alone or all(m in reach and (m in done or name not in reach[m]) for m in before)


def may_finish(name: str, group: list[str], *, reach: dict[str, frozenset[str]], done: set[str]) -> bool:
    """Whether ``name``'s second part may start (its first part done): every member before it has
    done its whole step, or has done its first part and the two touch no resident in common this
    step, themselves included (two who may talk to a third keep their order too)."""
    if name not in reach:
        return False
    mine = reach[name] | {name}
    return all(m in done or (m in reach and not (reach[m] | {m}) & mine) for m in group[: group.index(name)])


def group_step(
    sim: Any,  # a reverie.simulation.simulation.Simulation
    group: list[str],
    step: int,
    when: datetime,
    *,
    occupied: Callable[[tuple[int, int]], bool],
    halted: Callable[[], bool],
    moved: dict[str, dict],
    pool: Executor,
) -> None:
    """Run ``group`` (persona order) at ``step``, filling ``moved`` with each member's movement entry.
    The members' parts run on ``pool``, which has a thread for every part that may run at once."""
    personas = sim.personas
    if len(group) == 1:
        if not halted():
            moved[group[0]] = sim._move(group[0], step=step, when=when, occupied=occupied)
        return

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

    early = {n for i, n in enumerate(group) if i and alone(personas[n], [personas[m] for m in group[:i]], when)}
    views = {name: as_before(personas[name]) for name in early}
    started: dict[str, StartedMove] = {}
    reach: dict[str, frozenset[str]] = {}  # by member, once its first part is done
    done: set[str] = set()  # members whose whole step is done
    entries: dict[str, dict] = {}

    def finish(name: str) -> None:
        after = group[group.index(name) + 1 :]
        seen = {**personas, **{n: views[n] for n in after if n in views}}
        entries[name] = sim.movement_entry(name, personas[name].finish_move(started[name], seen))

    running: dict[Future, tuple[str, str]] = {}
    failed: dict[str, BaseException] = {}

    def submit(part: str, name: str) -> None:
        work = start if part == "start" else finish
        running[pool.submit(contextvars.copy_context().run, work, name)] = (part, name)

    to_start, to_finish = list(group), list(group)
    try:
        while to_finish and not failed and not halted():
            for name in [n for n in to_start if may_start(n, group, alone=n in early, reach=reach, done=done)]:
                to_start.remove(name)
                submit("start", name)
            for name in [n for n in to_finish if may_finish(n, group, reach=reach, done=done)]:
                to_finish.remove(name)
                submit("finish", name)
            if not running:
                break
            ended, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in ended:
                part, name = running.pop(future)
                if (error := future.exception()) is not None:
                    failed[name] = error
                elif part == "start":
                    started[name] = future.result()
                    reach[name] = reaches(personas[name], started[name], group)
                else:
                    done.add(name)
    finally:  # no part of this step outlives it, whatever ended the loop
        wait(running)
    for future, (_, name) in running.items():
        if (error := future.exception()) is not None:
            failed[name] = error
    if failed:  # the first in persona order, as the step loop raises it
        raise next(failed[name] for name in group if name in failed)
    for name in group:  # in persona order, up to the first member not done (a halted step)
        if name not in entries:
            return
        moved[name] = entries[name]
