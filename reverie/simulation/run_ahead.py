"""Residents who cannot meet run ahead of each other ([simulation] scheduler = "out_of_order").

The step loop (docs/LOOP.md §2) waits for every resident at every step. Here each resident
keeps its own clock and runs its next step as soon as nobody behind it could still change what
it sees, and nothing it does could change what they see (docs/LOOP.md §2a):

- at step ``s``, residents of whom either perceives the other then (its tile at ``s``, or at
  ``s - 1`` where its events stay until its step starts, lies in the perceiver's arena view), or
  linked (talking to each other, or one walking to the other), form a group that runs its
  members one after another in persona order, as the step loop does;
- a group may run step ``s`` only if every resident behind it, at step ``c < s`` on tile ``p``,
  could not have come near any member by then: one tile a step, so for every ``u`` in
  ``[c, s]`` the member's tile at ``u`` lies more than ``vision + MARGIN + (u - c)`` tiles from
  ``p`` in a straight line, or more than ``u - c + MARGIN`` steps' walk from ``p`` into that
  tile's arena (a persona sees only its own arena, and walls make the walk longer than the
  line), and the two are not linked. The same bound keeps a resident ahead out of sight of
  those behind, whose events (its own and its object's, both on its tile) it has moved on the map;
- the one read that reaches beyond sight, whether a target tile is ``occupied``
  (``reverie/persona/execute.py``), is answered from the residents' positions at the asking
  step; a resident behind that could stand on that tile by then is waited for;
- object states live on the tiles of their users, so they are read within sight only.

Every resident's choices (its dice are seeded by step and name) and every model call are then
those of the step loop, so the same replies give the same files. Within a group, members
nobody can write at the step start their own part at once (:mod:`reverie.simulation.group_step`).
``movement/<step>.json``, the next environment file and the timeline are written in step order
once every resident has passed the step. Each resident stages its files as it passes a
checkpoint's step and goes on; the checkpoint is committed once the last one has passed, so it
holds whole steps and nobody waits for it. A step that fails stops the run there: the others go
on up to it, so the steps written are those before it whatever the threads' timing.

A group's thread holds one of ``workers`` turns while it thinks (the server's slots) and gives
it back while it waits for a resident behind it; the residents furthest behind never wait,
so the run always goes on.
"""

from __future__ import annotations

import contextvars
import math
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any

from reverie.clock import format_time
from reverie.persona.sleep import lies_still_until
from reverie.persona.step import NewDay
from reverie.simulation import checkpoint
from reverie.simulation.concurrency import joined
from reverie.simulation.group_step import group_step, partners
from reverie.world.arena_walks import ArenaWalks

# Tiles added to the vision radius: a step's own move and the last step's object tile stay clear too.
MARGIN = 2

Tile = tuple[int, int]


@dataclass(slots=True)
class TileRun:
    """Steps ``first`` to ``last`` of one resident, all on ``tile``."""

    first: int
    last: int
    tile: Tile


def chebyshev(a: Tile, b: Tile) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


class RunAhead:
    """One run ahead of ``sim``: :meth:`run` takes every resident from ``sim.step_no`` to a common step."""

    def __init__(self, sim: Any, workers: int):  # a reverie.simulation.simulation.Simulation
        self.sim = sim
        self.names = list(sim.personas)
        self.order = {name: i for i, name in enumerate(self.names)}
        self.turns = threading.Semaphore(max(1, workers))
        self.cond = threading.Condition()
        self.clock: dict[str, int] = {}
        self.pos: dict[str, dict[int, Tile]] = {}
        # Each resident's tiles as runs, in step order: a tile held for many steps (a sleeper, a
        # desk) is one run, so a check over a gap of steps walks its runs.
        self.runs: dict[str, list[TileRun]] = {}
        self.moves: dict[int, dict[str, dict]] = {}
        self.running: set[str] = set()
        self.failure: BaseException | None = None  # the error of the first step that failed
        self.stop: int | None = None  # that step: the others go on up to it, none past it
        self.ended_early = False
        self.context = contextvars.copy_context()
        self._views: dict[tuple, frozenset] = {}
        self.walks = ArenaWalks(sim.maze)
        self._met: dict[tuple[str, int, str, int, int], bool] = {}  # _may_meet's answers

    # -- the loop ---------------------------------------------------------------------------
    def run(
        self,
        steps: int,
        env: dict,
        *,
        on_step: Callable[[Any], None] | None = None,
        saves: Iterable[int] = (),
        lost: Callable[[], object] = lambda: None,
    ) -> int:
        """Run ``steps`` steps from ``env`` (the environment of ``sim.step_no``); returns the steps written.
        ``saves``: the steps at which a checkpoint is written. ``lost``: whether the run must stop at
        its next checkpoint (the model server or the vector store went away)."""
        sim, start = self.sim, self.sim.step_no
        self.end = start + steps
        self.saves = sorted(s for s in saves if start < s <= self.end)
        self.start, self.start_time = start, sim.curr_time
        for name in self.names:
            self.clock[name] = start
            tile = (int(env[name]["x"]), int(env[name]["y"]))
            before = sim.personas[name].scratch.curr_tile  # where its events are until its step starts
            self.pos[name], self.runs[name] = {}, []
            self._place_at(name, start - 1, (int(before[0]), int(before[1])) if before else tile)
            self._place_at(name, start, tile)
        written = start
        # Threads kept for the whole run: a thread started for each group's step cost the loop a
        # thread's start while it held the lock. Each resident is in at most one running group and
        # one running part, so a thread per resident in each pool is never short.
        groups = ThreadPoolExecutor(max_workers=len(self.names), thread_name_prefix="run-ahead")
        self.parts = ThreadPoolExecutor(max_workers=len(self.names), thread_name_prefix="own-part")
        try:
            while True:
                with self.cond:
                    for group in self._ready_groups():
                        self.running.update(group)
                        groups.submit(self._run_group, self.clock[group[0]], group)
                    complete = self._complete_steps(written)
                    if not complete:
                        if not self.running:
                            break
                        self.cond.wait()
                        continue
                for step in complete:  # files in step order, outside the lock
                    sim.finish_step({name: self.moves[step].pop(name) for name in self.names}, headless=True)
                    written += 1
                    if written in self.saves:
                        checkpoint.commit(sim.storage, checkpoint.staging_for(sim.storage, written), sim.meta_dict())
                        sim.last_save_step = written
                    if on_step:
                        on_step(sim)
                    if written < self.end and lost():
                        self._end_at_next_save()
        except BaseException:
            with self.cond:
                self.stop = self.start - 1  # no group starts any more
            self._torn()
            raise
        finally:  # the groups still thinking end at their next stage: they see the run halted
            groups.shutdown(wait=False)
            self.parts.shutdown(wait=False)
        if self.failure is not None:
            self._torn()
            raise self.failure
        if written < self.end and not self.ended_early:
            raise RuntimeError("run ahead: no group may run and none is running")
        return written - start

    def _torn(self) -> None:
        """Residents stand at different steps: only the last checkpoint is whole."""
        self.sim.torn = True
        checkpoint.drop_stages(self.sim.storage)

    def _end_at_next_save(self) -> None:
        """End the run where everyone can still stand at one step: the first checkpoint (or the
        run's end) at or past the resident furthest ahead, counting the steps being thought."""
        with self.cond:
            ahead = max(self.clock[n] + (n in self.running) for n in self.names)
            self.end = next((s for s in self.saves if s >= ahead), self.end)
            self.ended_early = True

    def _complete_steps(self, written: int) -> list[int]:
        done, step = [], written
        while len(self.moves.get(step, ())) == len(self.names) and all(self.clock[n] > step for n in self.names):
            done.append(step)
            step += 1
        return done

    def _limit(self) -> int:
        """No group starts at this step or later: the run's end, or the first step that failed."""
        return self.end if self.stop is None else min(self.end, self.stop)

    # -- who may run --------------------------------------------------------------------------
    def _ready_groups(self) -> list[list[str]]:
        """The groups that may start now, each in persona order."""
        end = self._limit()
        self._links = {name: partners(self.sim.personas[name].scratch) for name in self.names}
        self._vision = {name: int(self.sim.personas[name].scratch.vision_r) for name in self.names}
        self._still = {name: self._still_until(name) for name in self.names if name not in self.running}
        if len(self._met) > 200_000:  # the answers of steps long passed
            self._met.clear()
        by_step: dict[int, list[str]] = {}
        for name in self.names:
            if self.clock[name] < end:
                by_step.setdefault(self.clock[name], []).append(name)
        groups = []
        for step, cohort in by_step.items():
            for group in self._groups(cohort, step):
                if not any(n in self.running for n in group) and self._may_run(group, step):
                    groups.append(sorted(group, key=self.order.__getitem__))
        return groups

    def _groups(self, cohort: list[str], step: int) -> list[list[str]]:
        """The residents at ``step`` that may meet there, joined transitively (running ones included)."""
        links = (
            (a, b)
            for i, a in enumerate(cohort)
            for b in cohort[i + 1 :]
            if self._linked(a, b) or self._sees(a, b, step) or self._sees(b, a, step)
        )
        return joined(cohort, links)

    def _sees(self, a: str, b: str, step: int) -> bool:
        """Whether ``a`` perceives at ``step`` the tile ``b`` stands on then or stood on the step before
        (where ``b``'s events are until its step starts): the tiles of its arena within its vision."""
        key = (self.pos[a][step], self._vision[a])
        view = self._views.get(key)
        if view is None:
            view = self._views[key] = frozenset(t for t, _ in self.sim.maze.arena_view(*key))
        return self.pos[b][step] in view or self.pos[b].get(step - 1) in view

    def _when(self, step: int) -> datetime:
        return self.start_time + timedelta(seconds=self.sim.sec_per_step * (step - self.start))

    def _still_until(self, name: str) -> int:
        """The last step up to which ``name`` (not running) surely stands on its tile: its clock, or,
        while it lies still (asleep in place), the step its action ends at, within today."""
        clock, scratch = self.clock[name], self.sim.personas[name].scratch
        until, now = lies_still_until(scratch), self._when(clock)
        if until is None or NewDay.between(scratch.curr_time, now) is not NewDay.SAME:
            return clock
        midnight = datetime.combine(now.date() + timedelta(days=1), time())
        seconds = (min(until, midnight) - now).total_seconds()
        # the first step whose time has reached the action's end (or the next day): it may move there
        return clock + max(0, math.ceil(seconds / self.sim.sec_per_step))

    def _reach(self, a: str, b: str) -> int:
        return max(self._vision[a], self._vision[b]) + MARGIN

    def _linked(self, a: str, b: str) -> bool:
        return b in self._links[a] or a in self._links[b]

    def _may_run(self, group: list[str], step: int) -> bool:
        for member in group:
            for other in self.names:
                behind = self.clock[other]
                if other in group or behind >= step:
                    continue
                if self._linked(member, other) or self._may_meet(member, step, other, behind):
                    return False
        return True

    def _may_meet(self, member: str, step: int, other: str, behind: int) -> bool:
        """Whether ``other``, at step ``behind`` on its tile, could by some step ``u`` up to ``step``
        have walked within sight of the member's tile at ``u``: within ``vision + MARGIN + walk`` tiles
        of it in a straight line, and into its arena within ``walk + MARGIN`` steps, where ``walk`` is
        the steps it may walk by ``u`` (``u - behind``, less those it surely lies still)."""
        still = self._still.get(other, behind)
        # The answer depends only on these: the member's tiles up to ``step`` and the other's at
        # ``behind`` are fixed once known, so it is worked out once while nobody moves.
        key = (member, step, other, behind, still)
        met = self._met.get(key)
        if met is None:
            met = self._met[key] = self._could_meet(member, step, other, behind, still)
        return met

    def _could_meet(self, member: str, step: int, other: str, behind: int, still: int) -> bool:
        reach, at = self._reach(member, other), self.pos[other][behind]
        gap = step - behind
        if chebyshev(self.pos[member][step], at) > reach + 2 * gap:  # clear whatever the member's path since then
            return False
        # Latest first, a run of steps on one tile at a time: its latest step in [behind, step] has
        # the longest walk, and a longer walk only comes nearer, so that step decides for the run.
        for run in reversed(self.runs[member]):
            if run.last < behind:
                break
            if run.first > step:
                continue
            walk = max(0, min(run.last, step) - still)
            if (
                chebyshev(run.tile, at) <= reach + walk
                and self.walks.steps(self.sim.maze.arena_of(run.tile), at) <= walk + MARGIN
            ):
                return True
        return False

    # -- a group's step -------------------------------------------------------------------------
    def _run_group(self, step: int, group: list[str]) -> None:
        moved: dict[str, dict] = {}
        try:
            with self.turns:
                self.context.copy().run(self._think, step, group, moved)
            # Files only, so the turn is free for a group that asks the model meanwhile.
            if step + 1 in self.saves and len(moved) == len(group):  # they pass a checkpoint's step
                staging = checkpoint.staging_for(self.sim.storage, step + 1)
                checkpoint.stage(self.sim.storage, {n: self.sim.personas[n] for n in group}, staging)
        except BaseException as exc:  # handed to the loop's thread
            with self.cond:
                if self.stop is None or step < self.stop:  # the earliest failed step wins, as in the step loop
                    self.failure, self.stop = exc, step
        finally:
            with self.cond:
                for name, entry in moved.items():
                    self.moves.setdefault(step, {})[name] = entry
                    self._place_at(name, step + 1, (entry["movement"][0], entry["movement"][1]))
                    self.clock[name] = step + 1
                self.running.difference_update(group)
                self.cond.notify_all()

    def _place_at(self, name: str, step: int, tile: Tile) -> None:
        """``name`` stands on ``tile`` at ``step``, the step after its last known one."""
        self.pos[name][step] = tile
        runs = self.runs[name]
        if runs and runs[-1].tile == tile:
            runs[-1].last = step
        else:
            runs.append(TileRun(step, step, tile))

    def _halted(self, step: int) -> bool:
        return self.stop is not None and step >= self.stop

    def _think(self, step: int, group: list[str], moved: dict) -> None:
        sim = self.sim
        when = self.start_time + timedelta(seconds=sim.sec_per_step * (step - self.start))
        if sim.llm is not None:
            sim.llm.set_clock(step, format_time(when))
        sim.place(group, {name: self.pos[name][step] for name in group})

        def halted() -> bool:
            # Read without the lock, which the loop holds while it picks groups: a halt can land just
            # after any check, locked or not, and ``stop`` is one attribute, set under the lock.
            return self._halted(step)

        group_step(
            sim,
            group,
            step,
            when,
            occupied=lambda tile: self._occupied(tile, step),
            halted=halted,
            moved=moved,
            pool=self.parts,
        )

    def _occupied(self, tile: Tile, step: int) -> bool:
        """Whether a resident stands on ``tile`` at ``step``; waits for one behind that could be there."""
        tile = (int(tile[0]), int(tile[1]))
        for name in self.names:
            with self.cond:
                known = self.pos[name].get(step)
                if known is None and chebyshev(self.pos[name][self.clock[name]], tile) > step - self.clock[name]:
                    continue  # too far behind to stand there by then
            if known is None:
                self.turns.release()  # another group thinks while this one waits
                try:
                    with self.cond:
                        while step not in self.pos[name] and not self._halted(step):
                            self.cond.wait()
                        if step not in self.pos[name]:
                            raise RuntimeError("run ahead stopped")
                        known = self.pos[name][step]
                finally:
                    self.turns.acquire()
            if known == tile:
                return True
        return False
