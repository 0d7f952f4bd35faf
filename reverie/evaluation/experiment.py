"""`python -m reverie experiment`: the paper's information-diffusion experiment, two game days.

    python -m reverie experiment [--base NAME] [--seeds FILE] [--model bundled|scripted|PATH]
        [--server URL] [--hours 48] [--evaluate-every 6] [--sim NAME] [--resume] [--pairs K]
        [--max-wall-minutes M]

Forks a base (default the 25-person town, ``base_willow_creek_n25``; any base, an imported
original too) at the start of its first day, with the seeds of its ``reverie/seeds.json`` or of
``--seeds FILE`` (a seed its persona's ``currently`` already tells is not added again), loads its
history, interviews everyone before the first hour, then runs ``--hours`` game hours
(default 48: the paper's two days) with `game_day`'s machinery, interviewing everyone every
``--evaluate-every`` game hours and at the end. After every hour the progress is kept, so
``--resume`` goes on from the last checkpoint towards the hours asked. At the end it prints the
paper's table beside this run's (diffusion of both facts, density, invited/came,
hallucinations) and writes it to ``<sim>/experiment.json`` (shown on ``/runs/<sim>/``).

The scripted model (``--model scripted``) shows whether news can travel and people gather in
the town; its figures are the plumbing's, never the agents' behaviour.
"""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path

from reverie.config import BackendKind, Settings
from reverie.errors import UserError
from reverie.evaluation import day_options
from reverie.evaluation.experiment_report import ExperimentKey as R
from reverie.evaluation.experiment_table import PAPER_HOURS, meets, paper_figures, table_lines
from reverie.jsonio import read_json, write_json_atomic
from reverie.sim_layout import EXPERIMENT_PROGRESS as PROGRESS_FILE
from reverie.sim_layout import EXPERIMENT_REPORT as EXPERIMENT_FILE

BASE = "base_willow_creek_n25"
# What gives a conversation its topic, once per conversation: the packed conversation's own call,
# or (faithful mode, a packed call that failed or gave no topic) the summary.
PACKED_CONVERSATION, CONVERSATION_SUMMARY = "conversation_packed", "summarize_conversation"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", default=BASE, help=f"base simulation to fork (default {BASE})")
    parser.add_argument(
        "--seeds",
        metavar="FILE",
        type=Path,
        help="the seeds to plant (a JSON list, as a base's reverie/seeds.json), in place of the base's",
    )
    parser.add_argument("--sim", help="name of the run (default: experiment_<date-time>)")
    parser.add_argument(
        "--hours",
        type=int,
        default=PAPER_HOURS,
        help="game hours to run (default 48, the paper's two days; a shorter run says so)",
    )
    day_options.add_model(parser)
    parser.add_argument(
        "--server",
        metavar="URL",
        help="an OpenAI-compatible server's base URL instead of the "
        'in-process model ([backend] kind = "openai", base_url = URL)',
    )
    parser.add_argument(
        "--slots", type=int, metavar="N", help="with --server: its parallel slots ([backend] parallel_slots)"
    )
    day_options.add_faithful(parser)
    day_options.add_evaluate_every(
        parser, "interview everyone every H game hours (default 6; 0: only at the start and the end)"
    )
    day_options.add_pairs(parser, "ask about K random pairs of residents (default: all 300)")
    day_options.add_history(parser, "whispers loaded first (default: the base world's agent_history_init_n<N>.csv)")
    day_options.add_max_wall_minutes(
        parser, "stop after the game hour in which M minutes of wall time run out (--resume goes on)"
    )
    day_options.add_force_seed_plan(
        parser, "code puts each seed's event (the party) into its host's plan (default off; the table says so)"
    )
    parser.add_argument("--resume", action="store_true", help="go on with the run --sim towards its --hours")


def experiment_settings(
    settings: Settings,
    *,
    model: str | None,
    server: str | None,
    slots: int | None,
    packed: bool,
    force_seed_plan: bool = False,
) -> Settings:
    from reverie.evaluation.game_day import day_settings

    s = day_settings(settings, model=model, packed=packed, force_seed_plan=force_seed_plan)
    if server:
        s.backend.kind, s.backend.base_url = BackendKind.OPENAI, server
    if slots:
        if not server and not s.backend.kind.server:
            raise UserError("--slots needs --server URL (a model server with several slots)")
        s.backend.parallel_slots = slots
    return s


def conversations(ledger: Path) -> int:
    """Conversations held so far: each packed call that wrote one (not its fail-safe), and each
    summary not asked in the same step by the persona whose packed call wrote the lines (the
    summary follows such a call only when the topic it gave failed its checks)."""
    from reverie.evaluation.day_figures import run_lines

    held, written = 0, set()
    for line in run_lines(ledger):
        who = (line.get("persona"), line.get("step"))
        if line.get("prompt") == PACKED_CONVERSATION and not line.get("fallback"):
            held += 1
            written.add(who)
        elif line.get("prompt") == CONVERSATION_SUMMARY and who not in written:
            held += 1
    return held


def build_report(
    sim_dir: Path,
    *,
    sim_code: str,
    model: str,
    hours_asked: int,
    progress: dict,
    residents: int,
    conversations_held: int,
    force_seed_plan: bool = False,
) -> dict:
    from reverie.evaluation.evaluation_metrics import METRICS
    from reverie.evaluation.evaluation_report import read_evaluation
    from reverie.evaluation.metrics import Shown

    evaluated = read_evaluation(sim_dir)
    series = METRICS.table(evaluated.checkpoints if evaluated else [], Shown.EXPERIMENT)
    hours_run = len(progress.get("hours") or [])
    days = hours_run / 24 if hours_run else 0
    start, end = (series[0], series[-1]) if series else (None, None)
    return {
        R.SIM: sim_code,
        R.BASE: progress.get("base"),
        R.MODEL: model,
        R.HOURS_ASKED: hours_asked,
        R.HOURS_RUN: hours_run,
        R.SHORTER_THAN_PAPER: hours_run < PAPER_HOURS,
        R.PAPER: paper_figures(),
        R.START: start,
        R.END: end,
        R.CHECKPOINTS: series,
        R.CONVERSATIONS: conversations_held,
        R.CONVERSATIONS_PER_AGENT_DAY: round(2 * conversations_held / (residents * days), 2) if days else None,
        R.MEETS_PAPER: meets(end) if end else None,
        R.SCRIPTED: model == "scripted",
        R.FORCE_SEED_PLAN: force_seed_plan,
        R.TABLE: table_lines(start, end, hours_run=hours_run, hours_asked=hours_asked, model=model),
    }


def main(args: argparse.Namespace, settings: Settings) -> int:
    from reverie.evaluation.game_day import DayAsk, HourKeeper, run_day

    if args.hours < 1:
        raise UserError("--hours must be at least 1")
    if args.resume and not args.sim:
        raise UserError("--resume needs --sim NAME: the run to go on with")
    settings = experiment_settings(
        settings,
        model=args.model,
        server=args.server,
        slots=args.slots,
        packed=not args.faithful,
        force_seed_plan=args.force_seed_plan,
    )
    sim_code = args.sim or f"experiment_{datetime.now().strftime('%Y%m%d_%H%M%S')}"
    sim_dir = settings.paths.storage / sim_code
    previous = None
    if args.resume:
        path = sim_dir / PROGRESS_FILE
        if not path.is_file():
            raise UserError(f"--resume: {sim_code} has no {PROGRESS_FILE} — start it without --resume")
        previous = read_json(path)
    seeds = None if args.resume else _seeds_for(settings, args.base, getattr(args, "seeds", None))
    done = len((previous or {}).get("hours") or [])
    left = args.hours - done
    model = args.model or Path(settings.models.cheap.path).name
    history = day_options.history_of(args)
    keeper = HourKeeper(sim_dir / PROGRESS_FILE, progress=previous)

    if left > 0:
        print(f"experiment {sim_code}: {args.hours} game hours asked, {done} done, running {left}")
        ask = DayAsk(
            args.base,
            sim_code,
            hours=left,
            evaluate_every=args.evaluate_every,
            pairs=args.pairs,
            max_wall_s=day_options.max_wall_s(args),
            history=history,
            evaluate_start=previous is None,
            seeds=seeds,
        )
        run_day(settings, ask, previous=previous, on_hour=keeper)
    report = build_report(
        sim_dir,
        sim_code=sim_code,
        model=model,
        hours_asked=args.hours,
        progress=keeper.progress,
        residents=keeper.residents or _residents(sim_dir),
        conversations_held=conversations(sim_dir / "reverie" / "llm_calls.jsonl"),
        force_seed_plan=settings.simulation.force_seed_plan,
    )
    write_json_atomic(sim_dir / EXPERIMENT_FILE, report)
    print()
    for line in report[R.TABLE]:
        print(line)
    if report[R.CONVERSATIONS_PER_AGENT_DAY] is not None:
        print(
            f"conversations: {report[R.CONVERSATIONS]} ({report[R.CONVERSATIONS_PER_AGENT_DAY]} per resident "
            f"and game day)"
        )
    if report[R.FORCE_SEED_PLAN]:
        print("force_seed_plan was on: the code put each seed's event into its host's plan")
    if report[R.SCRIPTED]:
        print("the scripted model answers by rule: these figures show the town's plumbing, not agents' behaviour")
    print(f"report: {sim_dir / EXPERIMENT_FILE}")
    return 0


def _seeds_for(settings: Settings, base: str, seeds: Path | None) -> Path | None:
    """The seeds file to give the fork (None: the base's own); the experiment needs seeds."""
    from reverie.simulation.seeds import read_seeds, read_seeds_file

    if seeds is not None:
        if not read_seeds_file(seeds):
            raise UserError(f"--seeds {seeds}: the file has no seeds — give the facts to spread")
        return seeds
    if not (settings.paths.storage / base).is_dir():
        raise UserError(f"--base {base}: no such simulation in {settings.paths.storage} — import or generate it first")
    if not read_seeds(settings.paths.storage / base):
        raise UserError(
            f"--base {base} has no reverie/seeds.json: give --seeds FILE with the facts to spread "
            "(see docs/EXPERIMENT.md)"
        )
    return None


def _residents(sim_dir: Path) -> int:
    meta = Path(sim_dir) / "reverie" / "meta.json"
    return len(read_json(meta).get("persona_names") or []) if meta.is_file() else 0
