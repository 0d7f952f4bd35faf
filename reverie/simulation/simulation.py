"""One simulation: fork or open it, step it (docs/LOOP.md §2), save it.

A step: read the positions for ``step`` (the browser's ``environment/<step>.json`` in
live mode, our own previous movement in headless mode), put every persona's event on
its tile, let each persona perceive → retrieve → plan → reflect → execute, write
``movement/<step>.json``, advance the clock. With a multi-slot model server, personas
that cannot meet this step think at the same time (:mod:`reverie.simulation.concurrency`).
"""

from __future__ import annotations

import logging
import random
import shutil
import sys
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from reverie.clock import format_time, parse_time
from reverie.config import Scheduler, Settings
from reverie.errors import UserError
from reverie.sim_layout import is_sim_name
from reverie.simulation import checkpoint, checkpoint_check
from reverie.simulation.concurrency import cognition_workers, interaction_groups, run_groups
from reverie.simulation.ledger_rollback import rollback_ledger
from reverie.simulation.loading import load_personas, load_world, make_llm
from reverie.simulation.lock import SimLock
from reverie.simulation.positions import position, wait_environment
from reverie.simulation.run_ahead import RunAhead
from reverie.simulation.seeds import plant_seeds, read_seeds_file, seeds_path
from reverie.simulation.storage import DamagedFile, SimStorage, check_sim_name, refuse_base
from reverie.simulation.storage import fork as fork_storage
from reverie.simulation.timeline import Timeline

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.memory.vector_index import VectorIndex

log = logging.getLogger(__name__)

BLANK = (None, None, None)


class Simulation:
    def __init__(
        self, settings: Settings, storage: SimStorage, *, llm: LanguageModel | None = None, world=None, personas=None
    ):
        self.settings = settings
        self.storage = storage
        meta = storage.read_meta()
        self.meta = meta
        try:
            self.fork_sim_code = meta.get("fork_sim_code")
            self.start_date = meta["start_date"]
            self.curr_time = parse_time(meta["curr_time"])
            self.sec_per_step = int(meta["sec_per_step"])
            self.maze_name = meta["maze_name"]
            self.persona_names = list(meta["persona_names"])
            self.step_no = int(meta["step"])
        except (KeyError, TypeError, ValueError) as exc:
            raise DamagedFile(storage.meta_path, f"{type(exc).__name__}: {exc}") from None
        self.llm: LanguageModel | None = llm
        self.maze = world
        self.personas = personas or {}
        self.vector_index: VectorIndex | None = None  # the personas' Chroma store (checked after each step)
        # Each persona's object event of the last step and its tile, set back to blank next step.
        self.game_obj_cleanup: dict[str, tuple[tuple, tuple[int, int]]] = {}
        self.timeline = Timeline(storage.timeline_path)
        self.last_save_step = self.step_no
        self.fresh_fork = False  # made by Simulation.fork in this process (removed if its start fails)
        self._lock: SimLock | None = None
        self.torn = False  # a run ahead stopped midway: the residents are not at one step

    # -- construction ------------------------------------------------------------------
    @classmethod
    def fork(
        cls,
        settings: Settings,
        fork_sim_code: str,
        sim_code: str,
        *,
        overwrite: bool = False,
        start: str | None = None,
        seeds: Path | None = None,
        **kw,
    ) -> Simulation:
        """A new simulation copied from ``fork_sim_code``; ``start`` ("HH:MM") moves its clock there
        first; ``seeds``: a seeds file that becomes the fork's own (in place of the base's)."""
        target = SimStorage(settings.paths.storage, sim_code)
        if overwrite and is_sim_name(sim_code) and target.exists():
            refuse_base(target, "overwritten")
            SimLock(target).acquire().release()  # never replace a simulation another process is running
        storage = fork_storage(settings.paths.storage, fork_sim_code, sim_code, overwrite=overwrite)
        try:
            if seeds is not None:
                read_seeds_file(seeds)  # a bad file stops here, with the line naming what to fix
                shutil.copyfile(seeds, seeds_path(storage.dir))
            if start:
                from reverie.simulation.fast_forward import fast_forward

                fast_forward(storage, start)
            sim = cls.open(settings, sim_code, storage=storage, **kw)
        except BaseException:
            shutil.rmtree(storage.dir, ignore_errors=True)  # a failed start leaves no half-made fork behind
            raise
        sim.fresh_fork = True
        return sim

    @classmethod
    def open(
        cls,
        settings: Settings,
        sim_code: str,
        *,
        storage: SimStorage | None = None,
        record: Path | None = None,
        replay: Path | None = None,
        llm: LanguageModel | None = None,
        resume: bool = False,
        instead: str | None = None,
    ) -> Simulation:
        """An existing simulation, locked for this process; never a base (``instead``: how to
        do the same in a fork, for the one-line refusal). ``resume``: from its last checkpoint
        whose files all parse (:mod:`reverie.simulation.checkpoint_check`)."""
        check_sim_name(sim_code)
        storage = storage or SimStorage(settings.paths.storage, sim_code, settings.paths.temp_storage)
        storage.temp_storage = settings.paths.temp_storage
        if not storage.exists():
            raise UserError(
                f"no simulation '{sim_code}' to {'resume' if resume else 'open'} in {storage.root} — "
                "give the name of a folder there (see /runs/)"
            )
        refuse_base(storage, "resumed into" if resume else "written", instead)
        lock = SimLock(storage).acquire()
        try:
            if resume:
                checkpoint.recover(storage)
                used = checkpoint_check.usable_checkpoint(storage, settings.paths.assets)
                if used is not None:
                    print(used, file=sys.stderr)
            sim = cls(settings, storage)
            sim._lock = lock
            if resume:
                # The run continues from its last complete checkpoint: later files are re-made,
                # and the ledger forgets the calls of the steps that will run again.
                storage.drop_steps_from(sim.step_no)
                rollback_ledger(storage.ledger_path, sim.step_no)
                rollback_ledger(storage.trace_path, sim.step_no)
                sim.timeline.note(f"resumed at step {sim.step_no} ({format_time(sim.curr_time)})")
            load_world(sim)
            sim.llm = llm or make_llm(sim, record, replay)
            load_personas(sim)
        except BaseException:
            lock.release()
            raise
        backend = settings.backend
        if backend.parallel_slots > 1 and not backend.kind.server:
            log.warning(
                "[backend] parallel_slots = %d applies to an OpenAI-compatible server; "
                "the in-process model answers one call at a time",
                backend.parallel_slots,
            )
        return sim

    # -- clock -------------------------------------------------------------------------
    @property
    def curr_time_str(self) -> str:
        return format_time(self.curr_time)

    # -- the step loop ---------------------------------------------------------------------
    def run(
        self,
        steps: int,
        *,
        headless: bool = True,
        on_step: Callable[[Simulation], None] | None = None,
        poll_s: float = 0.1,
        should_stop: Callable[[], bool] = lambda: False,
    ) -> int:
        """Run up to ``steps`` steps (fewer if ``should_stop`` while waiting); autosaves. Returns steps run."""
        self.storage.announce(self.step_no)
        if self.llm is not None:
            if self.llm.backend_lost is not None:
                self.llm.reconnect()  # the server was unreachable during an earlier run: try it again
            self.llm.check_backend()  # a model server that cannot serve this run stops it before its first step
        if steps > 0 and not any(p.scratch.curr_time for p in self.personas.values()):
            plant_seeds(self)  # before anyone's first step, at step 0 or after `--start` moved the clock
        every = self.settings.simulation.autosave_every
        if self.runs_ahead(headless):
            return self._run_ahead(steps, every, on_step)
        done = 0
        for _ in range(steps):
            env = wait_environment(self, headless, poll_s, should_stop)
            if env is None:
                break
            self.step(env, headless=headless)
            done += 1
            lost = self.llm.backend_lost if self.llm is not None else None
            if lost is not None:  # a server failure is never kept: the step is not saved, resume asks again
                raise lost
            index = getattr(self, "vector_index", None)
            gone = index.check() if index is not None else None
            if gone is not None:  # a Chroma server went away: the step ended on memory's own vectors
                self.save()
                raise gone
            if every and self.step_no - self.last_save_step >= every:
                self.save()
            if on_step:
                on_step(self)
        return done

    def runs_ahead(self, headless: bool) -> bool:
        """Residents who cannot meet run ahead of each other (:mod:`reverie.simulation.run_ahead`):
        headless, with the out-of-order scheduler and a server that answers several calls at once."""
        return headless and self.settings.simulation.scheduler == Scheduler.OUT_OF_ORDER and self.cognition_workers > 1

    def _run_ahead(self, steps: int, every: int, on_step) -> int:
        """``steps`` steps out of order in one run ahead; each checkpoint (every ``every`` steps) is
        written once the last resident has passed its step, so it holds whole steps."""
        saves = range(self.last_save_step + every, self.step_no + steps + 1, every) if every else ()
        env = wait_environment(self, True, 0.0, lambda: False)
        done = RunAhead(self, self.cognition_workers).run(steps, env, on_step=on_step, saves=saves, lost=self._lost)
        gone = self._lost()
        if gone is not None:  # the run ended on fail-safes or memory's own vectors: keep it, then stop
            self.save()
            raise gone
        return done

    def _lost(self) -> BaseException | None:
        """The model server's or the vector store's failure that ends the run, if any."""
        lost = self.llm.backend_lost if self.llm is not None else None
        index = getattr(self, "vector_index", None)
        return lost or (index.check() if index is not None else None)

    def step(self, env: dict, *, headless: bool = True) -> dict:
        """Process one environment frame and write ``movement/<step>.json``."""
        if self.llm is not None:
            self.llm.set_clock(self.step_no, self.curr_time_str)
        self.place(list(self.personas), {name: position(self, env, name) for name in self.personas})

        # Cognition, persona by persona (later ones see earlier ones' changes); with a
        # multi-slot server, groups of personas that cannot meet this step run side by side.
        workers = self.cognition_workers
        if workers == 1:
            moved = {name: self._move(name) for name in self.personas}
        else:
            moved = run_groups(interaction_groups(self.personas, self.maze), self._move, workers)
        movement = self.finish_step({name: moved[name] for name in self.personas}, headless=headless)
        return movement

    def place(self, names: list[str], tiles: dict[str, tuple[int, int]]) -> None:
        """The start of a step for ``names`` (in persona order): their object events of the last
        step go back to blank, then each one's event goes onto the tile the environment reports,
        with its object's event there when it has arrived."""
        for name in names:
            done = self.game_obj_cleanup.pop(name, None)
            if done is not None:
                self.maze.turn_event_from_tile_idle(*done)
        for name in names:
            persona, new_tile = self.personas[name], tiles[name]
            self.maze.remove_subject_events_from_tile(name, persona.scratch.curr_tile)
            self.maze.add_event_to_tile(persona.current_event(), new_tile)
            if not persona.scratch.planned_path and persona.scratch.act_address:
                obj_event = persona.object_event()
                self.maze.add_event_to_tile(obj_event, new_tile)
                blank = (persona.scratch.act_address, None, None, None)
                self.maze.remove_event_from_tile(blank, new_tile)
                self.game_obj_cleanup[name] = (obj_event, new_tile)
            persona.scratch.move_to(new_tile)

    def finish_step(self, movements: dict[str, dict], *, headless: bool) -> dict:
        """Write the step's ``movement/<step>.json`` (and, headless, the next environment), advance the clock."""
        movement = {"persona": movements, "meta": {"curr_time": self.curr_time_str}}
        self.storage.write_movement(self.step_no, movement)
        if headless:
            # The browser would report these positions back; headless, we do it ourselves.
            self.storage.write_environment(
                self.step_no + 1,
                {
                    name: {"maze": self.maze_name, "x": m["movement"][0], "y": m["movement"][1]}
                    for name, m in movements.items()
                },
            )
        self.timeline.record(self.step_no, self.curr_time, movements)
        log.debug(
            "step %d %s %s",
            self.step_no,
            self.curr_time_str,
            "; ".join(f"{n}: {m['description']}" for n, m in movements.items()),
        )
        self.step_no += 1
        self.curr_time += timedelta(seconds=self.sec_per_step)
        return movement

    @property
    def cognition_workers(self) -> int:
        """Groups of personas that may think at once: the server's slots, else 1."""
        return cognition_workers(self.settings.backend, replaying=self.llm is not None and self.llm.replaying)

    def _move(self, name: str, *, step: int | None = None, when: datetime | None = None, occupied=None) -> dict:
        """One persona's cognition for ``step`` at ``when`` (default: this step), as its entry of
        ``movement/<step>.json``. ``occupied``: whether a tile holds a persona at that step
        (default: read from the maze)."""
        persona = self.personas[name]
        step = self.step_no if step is None else step
        moved = persona.move(
            self.maze,
            self.personas,
            persona.scratch.curr_tile,
            when or self.curr_time,
            rng=random.Random(f"{step}:{name}"),
            llm=self.llm,
            occupied=occupied,
        )
        return self.movement_entry(name, moved)

    def movement_entry(self, name: str, moved: tuple) -> dict:
        """A persona's entry of ``movement/<step>.json`` from what its step returned."""
        next_tile, emoji, description = moved
        scratch = self.personas[name].scratch
        return {
            "movement": [int(next_tile[0]), int(next_tile[1])],
            "pronunciatio": emoji,
            "description": description,
            # Read right after the move: a later persona's reaction may change it this step.
            "chat": scratch.chat if scratch.chatting_with else None,
        }

    # -- save ---------------------------------------------------------------------------
    def meta_dict(self) -> dict:
        return {
            "fork_sim_code": self.fork_sim_code,
            "start_date": self.start_date,
            "curr_time": self.curr_time_str,
            "sec_per_step": self.sec_per_step,
            "maze_name": self.maze_name,
            "persona_names": self.persona_names,
            "step": self.step_no,
        }

    def save(self) -> None:
        """Persona files and meta.json as one checkpoint (a kill -9 leaves the old or the new)."""
        if self.torn:  # the last checkpoint stays the run's; a resume starts there
            log.warning(
                "%s stopped while its residents stood at different steps: not saved; --resume continues "
                "from its checkpoint at step %d",
                self.storage.sim_code,
                self.last_save_step,
            )
            return
        checkpoint.save(self.storage, self.personas, self.meta_dict())
        self.last_save_step = self.step_no

    def delete(self) -> None:
        shutil.rmtree(self.storage.dir, ignore_errors=True)
        if self._lock is not None:
            self._lock.release()

    def close(self) -> None:
        for persona in self.personas.values():
            close = getattr(persona, "close", None)
            if close:
                close()
        if self._lock is not None:
            self._lock.release()
