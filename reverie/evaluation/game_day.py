"""A game day of the 25-person town, measured: the benchmark behind the paper's figures.

    python -m reverie.evaluation.game_day [--base base_willow_creek_n25] [--sim NAME]
        [--start HH:MM] [--hours 24] [--max-wall-minutes M] [--model bundled|PATH] [--faithful]
        [--evaluate-every H] [--pairs K] [--force-seed-plan] [--out FILE]

Forks the base into the storage folder (the run stays there: ``/runs/<sim>/`` shows it),
then runs it one game hour at a time from midnight (or from ``--start``: the clock moves
there with no model call, and the day is planned at the first step) on the fastest path (packed actions;
a multi-slot server when ``[backend] parallel_slots`` says so). After every hour it
prints one row, and at the end the day's figures next to the targets:

- LLM calls and tokens, calls per awake agent-hour, fail-safes;
- wall time and the share of it inside the model (with a call in flight: on a multi-slot
  server calls overlap); engine time per step (everything but the model: perception,
  retrieval, Chroma, path finding, files), and that time split into the stages of
  cognition (perceive, retrieve, plan, reflect, execute; of which Chroma, embeddings and
  path finding), added up over the personas (``reverie/engine_time.py``);
- peak memory (resident set size of this process).

Every ``--evaluate-every`` game hours, and at the end, ``evaluate`` interviews everyone
(a checkpoint of ``evaluation.json``; its figures in the paper's table, the metrics shown in
``game_day.json``, are the report's ``evaluations``); its calls are in the run's ledger but not in the run's figures. When fewer than 24 hours are run, the per-day figures are extrapolated
from the hours run, and say so. This is a benchmark, not a test: a whole day takes hours.
The run is saved after every hour (``HourKeeper``), so a day stopped inside an hour goes on
from the last hour it finished with ``--resume``.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from reverie.config import BUNDLED, SCRIPTED, Settings, load_settings
from reverie.errors import UserError
from reverie.evaluation import day_options
from reverie.evaluation.day_figures import (
    awake_agent_hours_in_day,
    day_summary,
    format_parts,
    hour_row,
    run_lines,
    waiting_s,
)
from reverie.evaluation.day_run import DayAsk, HourKeeper, run_day
from reverie.jsonio import read_json, write_json_atomic
from reverie.sim_layout import GAME_DAY_PROGRESS

# The day's run and its figures live in day_run and day_figures; callers read these names from here.
__all__ = [
    "DayAsk",
    "HourKeeper",
    "awake_agent_hours_in_day",
    "day_summary",
    "hour_row",
    "run_day",
    "run_lines",
    "waiting_s",
]

SCRIPTED_N_CTX = 1 << 16


def day_settings(settings: Settings, *, model: str | None, packed: bool, force_seed_plan: bool = False) -> Settings:
    s = settings.model_copy(deep=True)
    s.simulation.packed_actions = packed
    s.simulation.force_seed_plan = s.simulation.force_seed_plan or force_seed_plan
    if model:
        path = model if model in (BUNDLED, SCRIPTED) else str(Path(model).expanduser().resolve())
        if path not in (BUNDLED, SCRIPTED) and not Path(path).is_file():
            raise UserError(f"--model {model}: no such file — give a GGUF file, 'bundled' or 'scripted'")
        s.models.strong.path = s.models.cheap.path = path
        if path == SCRIPTED:  # no context window: prompts are never cut to fit one
            s.models.strong.n_ctx = s.models.cheap.n_ctx = SCRIPTED_N_CTX
    return s


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m reverie.evaluation.game_day`` (also read by the docs' reference)."""
    parser = argparse.ArgumentParser(prog="python -m reverie.evaluation.game_day", description=__doc__.splitlines()[0])
    parser.add_argument("--config", help="config file")
    parser.add_argument("--base", default="base_willow_creek_n25", help="base simulation to fork")
    parser.add_argument("--sim", help="name of the run (default: n25_day_<date-time>)")
    parser.add_argument(
        "--start", metavar="HH:MM", help="move the clock to this time of day first (default: the base's)"
    )
    parser.add_argument("--hours", type=int, default=24, help="game hours to run (default 24)")
    day_options.add_model(parser)
    day_options.add_faithful(parser)
    day_options.add_evaluate_every(
        parser,
        "interview everyone every H game hours (0: only at the end; -1: never, "
        "run `python -m reverie evaluate SIM` afterwards)",
    )
    day_options.add_max_wall_minutes(
        parser,
        "stop after the game hour in which M minutes of wall time run out (the figures are those of the hours run)",
    )
    day_options.add_pairs(parser, "the interviews ask about K random pairs of residents (default: all 300)")
    day_options.add_history(
        parser,
        "whispers loaded before the first hour, as `call -- load history` (a CSV path; default: the "
        "base world's agent_history_init_n<N>.csv when it ships one; none: no history)",
    )
    parser.add_argument(
        "--evaluate-start",
        action="store_true",
        help="interview everyone before the first hour too (the figures' starting point)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on with the run --sim from its last checkpoint for --hours more game hours, adding "
        "them to its report (a run stopped inside an hour goes on from the last hour it "
        "finished: every hour is saved)",
    )
    day_options.add_force_seed_plan(
        parser,
        "code puts each seed's event (the party) into its persona's plan (default: off, the "
        "plan comes from the persona's identity, as in the original); the report says so",
    )
    parser.add_argument("--out", type=Path, help="JSON report (default: <sim folder>/game_day.json)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if not 1 <= args.hours <= 24:
            raise UserError("--hours must be from 1 to 24")
        settings = day_settings(
            load_settings(args.config), model=args.model, packed=not args.faithful, force_seed_plan=args.force_seed_plan
        )
        if args.resume and not args.sim:
            raise UserError("--resume needs --sim NAME: the run to go on with")
        sim_code = args.sim or f"n25_day_{datetime.now().strftime('%Y%m%d_%H%M%S')}"
        progress_path = settings.paths.storage / sim_code / GAME_DAY_PROGRESS
        previous = None
        if args.resume:
            previous = resumed_progress(args.out or settings.paths.storage / sim_code / "game_day.json", progress_path)
        history = day_options.history_of(args)
        keep = HourKeeper(progress_path, progress=previous)
        before = keep.hours
        ask = DayAsk(
            args.base,
            sim_code,
            hours=args.hours,
            evaluate_every=args.evaluate_every,
            start=args.start,
            pairs=args.pairs,
            max_wall_s=day_options.max_wall_s(args),
            history=history,
            evaluate_start=args.evaluate_start,
        )
        report = run_day(settings, ask, previous=previous, on_hour=keep)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        if not progress_path.is_file():
            print("\ninterrupted before the first game hour ended: nothing to go on from", file=sys.stderr)
            return 130
        left = args.hours - (keep.hours - before)
        print(
            f"\ninterrupted: {keep.hours} game hour(s) are kept in {progress_path}; go on with "
            f"--resume --sim {sim_code} --hours {left}",
            file=sys.stderr,
        )
        return 130
    out = args.out or settings.paths.storage / sim_code / "game_day.json"
    write_json_atomic(out, report)
    progress_path.unlink(missing_ok=True)
    print_day(report, out)
    return 0


def resumed_progress(report_path: Path, progress_path: Path) -> dict:
    """What ``--resume`` goes on from: the progress of a day stopped inside an hour (the last hour
    it finished), else the report of the day's earlier sitting."""
    path = progress_path if progress_path.is_file() else report_path
    if not path.is_file():
        raise UserError(f"--resume: no report {path} — run it first without --resume")
    previous: dict = read_json(path)
    return previous


def print_day(report: dict, out: Path) -> None:
    """The day's figures next to the targets, as the command ends."""
    day = report["day"]
    if report.get("stopped"):
        print(f"\n{report['stopped']}")
    if report.get("force_seed_plan"):
        print("\nforce_seed_plan was on: the code put each seed's event into its persona's plan")
    print(f"\nper game day{' (EXTRAPOLATED: ' + day['note'] + ')' if day['extrapolated'] else ''}:")
    for key in ("calls_per_day", "tokens_per_day", "overhead_share"):
        target = day["targets"][key]
        print(f"  {key} {day[key]}  target {target['target']}  {'met' if target['met'] else 'MISSED'}")
    print(
        f"  calls per awake agent-hour {day['calls_per_awake_agent_hour']}, fail-safes {day['fallbacks']}, "
        f"wall {day['wall_s']} s ({day['model_share']:.1%} in the model), "
        f"engine {day['engine_ms_per_step']} ms/step, peak {day['peak_rss_mb']} MB"
    )
    if day.get("engine_parts_ms_per_step"):
        print("  engine ms per step, added up over the personas: " + format_parts(day["engine_parts_ms_per_step"]))
    print("  " + report["day_coherence"]["line"] + " (the residents' days as planned)")
    print("  most calls: " + ", ".join(f"{name} {n}" for name, n in day["top_prompts_by_calls"]))
    print(f"report: {out}")


if __name__ == "__main__":
    raise SystemExit(main())
