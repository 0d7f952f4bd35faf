"""A game day run one game hour at a time and measured: ``run_day``, the machinery of ``game_day``
and ``experiment``.

The day reads top to bottom as its phases: open the run (a fork, or the run to go on with), load
the history, interview everyone before the first hour when asked, run the hours (a row each, the
interviews that fall due, the progress kept), then account the day's calls and write the report.
What the day has done so far is a :class:`DayProgress`, the form a stopped day goes on from.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reverie import engine_time
from reverie.benchmarks.model_server import reset_stats, server_stats, stats_line
from reverie.config import Settings
from reverie.evaluation.day_figures import (
    awake_agent_hours_in_day,
    day_summary,
    format_row,
    hour_row,
    prompt_accounts,
    run_lines,
)
from reverie.jsonio import write_json_atomic

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.simulation.simulation import Simulation

Say = Callable[[str], object]
# Called after every game hour (and its interviews) with the simulation and the progress so far.
OnHour = Callable[[Any, dict], None]


@dataclass(frozen=True)
class DayAsk:
    """What a caller asks of a day (:func:`run_day`): fork ``base`` as ``sim_code`` and run it
    ``hours`` game hours, from ``start`` ("HH:MM"; default: the base's clock)."""

    base: str
    sim_code: str
    hours: int
    evaluate_every: int  # interview every N game hours; 0: only at the end; -1: never
    start: str | None = None
    pairs: int | None = None  # interview only this many pairs, drawn at random (default: all)
    max_wall_s: float | None = None  # stop after the hour in which the wall time reaches this budget
    # Whispers loaded first (as `call -- load history` does): a CSV, "base" for the base's own
    # (:func:`base_history`), None for none; their calls are not the day's.
    history: Path | str | None = "base"
    evaluate_start: bool = False  # interview everyone before the first hour too (the paper's "before")
    seeds: Path | None = None  # a seeds file the fork takes in place of the base's

    def evaluation_due(self, hour: int, *, stopped: bool) -> bool:
        """Everyone is interviewed every ``evaluate_every`` game hours (``hour`` counts from 0) and
        after the last hour run: the last asked, or the one the day ``stopped`` after."""
        every = self.evaluate_every
        last = hour == self.hours - 1 or stopped
        return every >= 0 and (last or bool(every and (hour + 1) % every == 0))


@dataclass
class LoadedHistory:
    """The whispers loaded before the first hour: their file, the memories they made and the calls
    they took (which are not the day's)."""

    file: str | None = None
    memories: int = 0
    calls: int = 0


@dataclass
class DayProgress:
    """What a day has done so far. ``to_json`` is what ``on_hour`` is given after every hour and a
    stopped day's ``--resume`` goes on from; ``resume`` reads that back (or a whole earlier report)."""

    base: str
    sim: str
    history: LoadedHistory
    start: str
    hours: list[dict] = field(default_factory=list)  # a row per game hour run (``hour_row``)
    evaluations: list[dict] = field(default_factory=list)  # each interview's figures in the paper's table
    force_seed_plan: bool = False

    @classmethod
    def fresh(cls, ask: DayAsk, settings: Settings) -> DayProgress:
        return cls(
            base=ask.base,
            sim=ask.sim_code,
            history=LoadedHistory(),
            start=ask.start or "00:00",
            force_seed_plan=settings.simulation.force_seed_plan,
        )

    @classmethod
    def resume(cls, previous: dict, ask: DayAsk, settings: Settings) -> DayProgress:
        """An earlier sitting's progress (or report) of ``ask.sim_code``, to add this sitting's hours to."""
        return cls(
            base=previous.get("base", ask.base),
            sim=ask.sim_code,
            history=LoadedHistory(**previous["history"]) if previous.get("history") else LoadedHistory(),
            start=previous.get("start") or ask.start or "00:00",
            hours=list(previous["hours"]),
            evaluations=list(previous.get("evaluations", [])),
            force_seed_plan=settings.simulation.force_seed_plan or bool(previous.get("force_seed_plan")),
        )

    def to_json(self) -> dict:
        return {
            "base": self.base,
            "sim": self.sim,
            "history": asdict(self.history),
            "start": self.start,
            "hours": list(self.hours),
            "evaluations": list(self.evaluations),
            "force_seed_plan": self.force_seed_plan,
        }


def run_day(
    settings: Settings,
    ask: DayAsk,
    *,
    say: Say = print,
    llm: LanguageModel | None = None,
    previous: dict | None = None,
    on_hour: OnHour | None = None,
) -> dict:
    """Fork ``ask.base`` and run it ``ask.hours`` game hours. ``previous``: the report of an
    earlier run of ``ask.sim_code`` to go on from (its last checkpoint): ``hours`` more game hours
    are run and added to its rows; no history and no start evaluation then. ``on_hour(sim,
    progress)``: called after every game hour (and its evaluation) with ``{"hours": rows so far,
    "history": ...}``, the form ``previous`` takes (a caller keeps it to resume from)."""
    resumed = previous is not None
    progress = DayProgress.resume(previous, ask, settings) if previous is not None else DayProgress.fresh(ask, settings)
    day = Day(settings, open_run(settings, ask, llm, resume=resumed), ask, progress, len(progress.hours), say)
    try:
        if not resumed:
            day.load_history()
            day.evaluate_at_start()
        day.count_from(resumed=resumed)
        day.run_hours(on_hour)
        day.sim.save()
        return day.report()
    finally:
        day.sim.close()


def open_run(settings: Settings, ask: DayAsk, llm: LanguageModel | None, *, resume: bool) -> Simulation:
    """A fork of the base at the start asked, or (``resume``) the run to go on with, from its last checkpoint."""
    from reverie.simulation.simulation import Simulation

    if resume:
        return Simulation.open(settings, ask.sim_code, llm=llm, resume=True)
    return Simulation.fork(settings, ask.base, ask.sim_code, llm=llm, start=ask.start, seeds=ask.seeds)


@dataclass
class Day:
    """A day being run: the simulation, what was asked, the progress so far and where the ledger is."""

    settings: Settings
    sim: Simulation
    ask: DayAsk
    progress: DayProgress
    hours_before: int  # the rows of the earlier sittings
    say: Say = print
    seen: int = 0  # the run's ledger lines already counted in an hour's row
    day_from: int = 0  # the first ledger line of the day's own calls (the history's come first)
    stopped: str | None = None  # why the day stopped before the hours asked: the wall budget ran out
    on_bench_server: bool | None = None  # whether the backend is the bench server (None: not asked yet)
    started: float = field(default_factory=time.perf_counter)

    def load_history(self) -> None:
        """Load the whispers asked for (the base's own by default) before the first hour."""
        from reverie.simulation.history import load_history

        history = self.ask.history
        if history == "base":
            history = base_history(self.settings, self.sim.maze_name, len(self.sim.personas))
        if history is None:
            return
        before = len(run_lines(self.sim.storage.ledger_path))
        counts = load_history(self.sim, Path(history), warn=self.say)
        calls = len(run_lines(self.sim.storage.ledger_path)) - before
        self.progress.history = LoadedHistory(str(history), sum(counts.values()), calls)
        self.say(
            f"history {Path(history).name}: {self.progress.history.memories} memories for {len(counts)} residents "
            f"({calls} calls, not counted in the day)"
        )

    def evaluate_at_start(self) -> None:
        if self.ask.evaluate_start and self.ask.evaluate_every >= 0:
            self.progress.evaluations.append(say_evaluation(self.sim, self.ask.sim_code, self.ask.pairs, self.say))

    def count_from(self, *, resumed: bool) -> None:
        """The hours' rows count the ledger lines from here; the day's calls, from the history's end."""
        self.seen = len(run_lines(self.sim.storage.ledger_path))
        self.day_from = self.progress.history.calls if resumed else self.seen

    def run_hours(self, on_hour: OnHour | None) -> None:
        """Run the hours asked, one game hour at a time: a row each, the interviews that fall due and
        the progress handed to ``on_hour``; stop early when the wall budget runs out."""
        for hour in range(self.ask.hours):
            row, served = self.run_hour()
            self.progress.hours.append(row)
            self.say(format_row(row))
            if served is not None:
                self.say(f"  {stats_line(served)}")
            self.check_budget(hour)
            if self.ask.evaluation_due(hour, stopped=self.stopped is not None):
                self.progress.evaluations.append(say_evaluation(self.sim, self.ask.sim_code, self.ask.pairs, self.say))
            if on_hour is not None:
                on_hour(self.sim, self.progress.to_json())
            if self.stopped:
                break

    def run_hour(self) -> tuple[dict, dict | None]:
        """One game hour: its row (labelled with the game hour it covers) and, on the bench server,
        the server's own figures for it."""
        from reverie.persona.sleep import asleep

        awake = 0

        def count(s: Any) -> None:
            nonlocal awake
            awake += sum(not asleep(p.scratch) for p in s.personas.values())

        backend = self.settings.backend
        clock_hour = self.sim.curr_time.hour
        on_bench_server = self.reset_bench_server()
        started, parts_before = time.perf_counter(), engine_time.totals()
        done = self.sim.run(3600 // self.sim.sec_per_step, headless=True, on_step=count)
        wall = time.perf_counter() - started
        lines = run_lines(self.sim.storage.ledger_path)
        row = hour_row(
            clock_hour,
            lines[self.seen :],
            steps=done,
            wall_s=wall,
            awake_agent_hours=awake * self.sim.sec_per_step / 3600,
            parts_s=engine_time.since(parts_before),
        )
        served = server_stats(backend.base_url) if on_bench_server else None
        if served is not None:
            row["bench_server"] = served
        self.seen = len(lines)
        return row, served

    def reset_bench_server(self) -> bool:
        """Start the bench server's figures afresh for the hour. Whether the backend is the bench
        server is asked at the first hour only: another server is not sent a reset every hour."""
        backend = self.settings.backend
        if self.on_bench_server is False or backend.kind != "openai":
            return False
        self.on_bench_server = reset_stats(backend.base_url)
        return self.on_bench_server

    def check_budget(self, hour: int) -> None:
        """Stop after this hour when the wall budget has run out and hours are left."""
        spent = time.perf_counter() - self.started
        budget = self.ask.max_wall_s
        if budget is not None and spent >= budget and hour < self.ask.hours - 1:
            self.stopped = (
                f"stopped after {hour + 1} of {self.ask.hours} game hours: {spent / 60:.0f} min of wall time "
                f"reached the budget of {budget / 60:.0f} min"
            )
            self.say(self.stopped)

    def report(self) -> dict:
        """The day's report: the progress, the day's figures, its calls by prompt and its days' coherence."""
        from reverie.tasks.day_coherence import coherence_line, persona_day

        per_prompt, planning = prompt_accounts(run_lines(self.sim.storage.ledger_path)[self.day_from :])
        days = [persona_day(p) for p in self.sim.personas.values() if p.scratch.daily_req]
        progress, settings = self.progress, self.settings
        return {
            "base": progress.base,
            "sim": progress.sim,
            "start": progress.start,
            "hours_asked": self.hours_before + self.ask.hours,
            "stopped": self.stopped,
            "packed": settings.simulation.packed_actions,
            "force_seed_plan": progress.force_seed_plan,
            "model": settings.models.cheap.path,
            "backend": settings.backend.kind,
            "parallel_slots": settings.backend.parallel_slots,
            "history": asdict(progress.history),
            "hours": progress.hours,
            "day": day_summary(
                progress.hours, per_prompt, planning, awake_agent_hours_in_day(self.sim.personas.values())
            ),
            "per_prompt_calls": per_prompt,
            "evaluations": progress.evaluations,
            "day_coherence": {
                "line": coherence_line(days),
                "days": len(days),
                "clean": sum(d.ok for d in days),
                "violations": {d.persona: d.violations for d in days if d.violations},
            },
        }


def base_history(settings: Settings, maze_name: str, residents: int) -> Path | None:
    """The history a base's world ships for its residents (``<maze>/agent_history_init_n<N>.csv``
    in the assets folder), the one the paper's runs loaded first; None when there is none."""
    path = settings.paths.assets / maze_name / f"agent_history_init_n{residents}.csv"
    return path if path.is_file() else None


def say_evaluation(sim: Any, sim_code: str, pairs: int | None, say: Say) -> dict:
    """Interview everyone now: a checkpoint of ``evaluation.json``, summed up in a few lines;
    returns its figures in the paper's table (the metrics shown in ``game_day.json``, for the report)."""
    from reverie.evaluation import evaluation
    from reverie.evaluation.evaluation_metrics import METRICS
    from reverie.evaluation.metrics import Shown

    sim.save()
    checkpoint = evaluation.evaluate(sim, say=lambda _line: None, pairs=pairs)
    evaluation.save_checkpoint(sim.storage.dir, sim_code, checkpoint)
    for line in evaluation.summary_lines(checkpoint):
        say(line)
    figures: dict = METRICS.collect(checkpoint, Shown.GAME_DAY)
    return figures


class HourKeeper:
    """``run_day``'s ``on_hour`` for a run that can be stopped anywhere: after every game hour
    the simulation is saved and the rows so far are written to ``path``, the ``previous`` a
    ``--resume`` goes on from (the hour it was stopped in is run again, and the ledger forgets
    that hour's calls when the run is opened: ``Simulation.open``)."""

    def __init__(self, path: Path, *, progress: dict | None = None):
        self.path = path
        self.progress = progress or {"hours": []}  # the rows so far: ``previous``'s until an hour is done
        self.residents = 0

    @property
    def hours(self) -> int:
        """Game hours kept so far, the earlier sittings' included."""
        return len(self.progress.get("hours") or [])

    def __call__(self, sim: Any, progress: dict) -> None:
        sim.save()
        write_json_atomic(self.path, progress)
        self.progress, self.residents = progress, len(sim.personas)
