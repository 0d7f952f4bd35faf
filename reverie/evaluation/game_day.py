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
import json
import resource
import sys
import time
from datetime import datetime
from pathlib import Path

from reverie import engine_time
from reverie.benchmarks.bench import DAY_PLANNING
from reverie.benchmarks.bench_figures import totals
from reverie.benchmarks.model_server import reset_stats, server_stats, stats_line
from reverie.config import BUNDLED, SCRIPTED, Settings, load_settings
from reverie.errors import UserError
from reverie.jsonio import read_json, write_json_atomic
from reverie.sim_layout import GAME_DAY_PROGRESS

# The interview prompts: asked by `evaluate` only, never by a step of the simulation.
EVALUATION_PROMPTS = frozenset({"interview_judge", "safety_score", "summarize_ideas", "next_convo_line"})
SCRIPTED_N_CTX = 1 << 16
TARGETS = {"calls_per_day": 4000, "tokens_per_day": 1_000_000, "overhead_share": 0.05}


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def run_lines(ledger_path: Path) -> list[dict]:
    """The run's own ledger lines (the interviews of ``evaluate`` left out)."""
    if not ledger_path.is_file():
        return []
    with open(ledger_path, encoding="utf-8") as fh:
        lines = [json.loads(line) for line in fh if line.strip()]
    return [line for line in lines if line.get("prompt") not in EVALUATION_PROMPTS]


def waiting_s(lines: list[dict]) -> float:
    """Seconds with at least one model call in flight: the union of the calls' intervals
    (``ts`` is when a call ended). On a multi-slot server calls overlap, so this is less than
    their latencies added up; lock-step, it is the same."""
    spans = sorted(
        (float(line["ts"]) - float(line.get("latency_s") or 0.0), float(line["ts"])) for line in lines if line.get("ts")
    )
    total, end = 0.0, float("-inf")
    for start, stop in spans:
        if stop > end:
            total += stop - max(start, end)
            end = stop
    return total


def hour_row(
    hour: int,
    lines: list[dict],
    *,
    steps: int,
    wall_s: float,
    awake_agent_hours: float,
    parts_s: dict[str, float] | None = None,
) -> dict:
    t = totals(lines)
    model_s = waiting_s(lines) if lines and all(line.get("ts") for line in lines) else t["latency_s"]
    return {
        "hour": hour,
        "steps": steps,
        "calls": t["calls"],
        "tokens": t["prompt_tokens"] + t["completion_tokens"],
        "prompt_tokens": t["prompt_tokens"],
        "completion_tokens": t["completion_tokens"],
        "fallbacks": t["fallbacks"],
        "awake_agent_hours": round(awake_agent_hours, 3),
        "calls_per_awake_agent_hour": round(t["calls"] / awake_agent_hours, 2) if awake_agent_hours else None,
        "wall_s": round(wall_s, 2),
        "model_s": round(model_s, 2),
        "model_share": round(model_s / wall_s, 4) if wall_s else None,
        "engine_ms_per_step": round(1000 * max(0.0, wall_s - model_s) / steps, 2) if steps else None,
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "engine_parts_s": {part: round(s, 6) for part, s in (parts_s or {}).items()},
    }


def parts_ms_per_step(parts_s: dict[str, float], steps: int) -> dict[str, float]:
    """Engine seconds per part (stages, and the inner parts they hold) -> ms per step, in order."""
    order = [*engine_time.STAGES, *engine_time.INNER]
    known = [part for part in order if part in parts_s] + sorted(set(parts_s) - set(order))
    return {part: round(1000 * parts_s[part] / steps, 3) for part in known} if steps else {}


def format_parts(ms: dict[str, float]) -> str:
    """ "perceive 3.1, retrieve 20.4, ... (of which chroma 12.0, ...)" ms per step."""
    stages = ", ".join(f"{part} {ms[part]}" for part in ms if part not in engine_time.INNER)
    inner = ", ".join(f"{part} {ms[part]}" for part in engine_time.INNER if part in ms)
    return stages + (f" (of which {inner})" if inner else "")


def awake_agent_hours_in_day(personas) -> float:
    """The awake hours of every persona's hourly schedule for the day, added up."""
    from reverie.persona.sleep import is_sleep

    minutes = 0
    for persona in personas:
        minutes += sum(int(m) for activity, m in persona.scratch.f_daily_schedule_hourly_org if not is_sleep(activity))
    return minutes / 60


def day_summary(
    rows: list[dict], per_prompt: dict[str, int], planning: dict | None = None, awake_day: float | None = None
) -> dict:
    """The day's figures. A shorter run's calls and tokens scale to 24 hours, except the
    day's planning (``planning``: its calls and tokens), which happens once a day. With
    ``awake_day`` (the awake agent-hours the day's schedules hold) they scale by awake
    agent-hours instead: a sleeping persona makes no call, so a morning is not a night."""
    hours = len(rows)
    calls = sum(r["calls"] for r in rows)
    tokens = sum(r["tokens"] for r in rows)
    plan_calls, plan_tokens = (planning or {}).get("calls", 0), (planning or {}).get("tokens", 0)
    wall = sum(r["wall_s"] for r in rows)
    model = sum(r["model_s"] for r in rows)
    steps = sum(r["steps"] for r in rows)
    awake = sum(r["awake_agent_hours"] for r in rows)
    parts_s: dict[str, float] = {}
    for r in rows:
        for part, seconds in (r.get("engine_parts_s") or {}).items():
            parts_s[part] = parts_s.get(part, 0.0) + seconds
    by_awake = bool(awake_day and awake and hours < 24)
    scale = (awake_day / awake if by_awake else 24 / hours) if hours else 0.0
    overhead = 1 - model / wall if wall else None
    dominant = sorted(per_prompt.items(), key=lambda kv: -kv[1])[:5]
    if hours >= 24:
        note = None
    elif by_awake:
        note = (
            f"per-day figures scale the {hours} game hours run ({awake:.0f} awake agent-hours) to the "
            f"{awake_day:.0f} awake agent-hours of the day's schedules, the day's planning counted once"
        )
    else:
        note = f"per-day figures scale the {hours} game hours run by 24/{hours}, the day's planning counted once"
    return {
        "game_hours_run": hours,
        "extrapolated": hours < 24,
        "note": note,
        "awake_agent_hours_in_day": round(awake_day, 1) if awake_day else None,
        "calls": calls,
        "tokens": tokens,
        "fallbacks": sum(r["fallbacks"] for r in rows),
        "day_planning": {"calls": plan_calls, "tokens": plan_tokens},
        "calls_per_day": round(plan_calls + (calls - plan_calls) * scale),
        "tokens_per_day": round(plan_tokens + (tokens - plan_tokens) * scale),
        "calls_per_awake_agent_hour": round(calls / awake, 2) if awake else None,
        "wall_s": round(wall, 1),
        "model_share": round(model / wall, 4) if wall else None,
        "overhead_share": round(overhead, 4) if overhead is not None else None,
        "engine_ms_per_step": round(1000 * max(0.0, wall - model) / steps, 2) if steps else None,
        "engine_parts_ms_per_step": parts_ms_per_step(parts_s, steps),
        "peak_rss_mb": max((r["peak_rss_mb"] for r in rows), default=None),
        "top_prompts_by_calls": dominant,
        "targets": {
            "calls_per_day": {
                "target": TARGETS["calls_per_day"],
                "met": plan_calls + (calls - plan_calls) * scale <= TARGETS["calls_per_day"],
            },
            "tokens_per_day": {
                "target": TARGETS["tokens_per_day"],
                "met": plan_tokens + (tokens - plan_tokens) * scale <= TARGETS["tokens_per_day"],
            },
            "overhead_share": {
                "target": TARGETS["overhead_share"],
                "met": overhead is not None and overhead <= TARGETS["overhead_share"],
            },
        },
    }


def format_row(r: dict) -> str:
    per = r["calls_per_awake_agent_hour"]
    return (
        f"hour {r['hour']:02d}  steps {r['steps']}  calls {r['calls']}  tokens {r['tokens']}  "
        f"fallbacks {r['fallbacks']}  calls/awake agent-hour {per if per is not None else 'n/a'}  "
        f"wall {r['wall_s']:.0f}s  in model {r['model_share'] or 0:.1%}  "
        f"engine {r['engine_ms_per_step']} ms/step  peak {r['peak_rss_mb']:.0f} MB"
    )


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


def base_history(settings: Settings, maze_name: str, residents: int) -> Path | None:
    """The history a base's world ships for its residents (``<maze>/agent_history_init_n<N>.csv``
    in the assets folder), the one the paper's runs loaded first; None when there is none."""
    path = settings.paths.assets / maze_name / f"agent_history_init_n{residents}.csv"
    return path if path.is_file() else None


def say_evaluation(sim, sim_code: str, pairs: int | None, say) -> dict:
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
    return METRICS.collect(checkpoint, Shown.GAME_DAY)


def run_day(
    settings: Settings,
    *,
    base: str,
    sim_code: str,
    hours: int,
    evaluate_every: int,
    say=print,
    llm=None,
    start: str | None = None,
    pairs: int | None = None,
    max_wall_s: float | None = None,
    history: Path | str | None = "base",
    evaluate_start: bool = False,
    previous: dict | None = None,
    on_hour=None,
    seeds: Path | None = None,
) -> dict:
    """Fork ``base`` and run it ``hours`` game hours. ``history``: a CSV of whispers loaded
    first (as `call -- load history` does), "base" for the base's own (:func:`base_history`),
    None for none; its calls are not the day's. ``evaluate_start``: interview everyone
    before the first hour too (the "before" of the paper's figures). ``previous``: the report
    of an earlier run of ``sim_code`` to go on from (its last checkpoint): ``hours`` more game
    hours are run and added to its rows; no history and no start evaluation then. ``on_hour(sim,
    progress)``: called after every game hour (and its evaluation) with ``{"hours": rows so far,
    "history": ...}``, the form ``previous`` takes (a caller keeps it to resume from). ``seeds``: a
    seeds file the fork takes in place of the base's."""
    from reverie.persona.sleep import asleep
    from reverie.simulation.history import load_history
    from reverie.simulation.simulation import Simulation
    from reverie.tasks.day_coherence import coherence_line, persona_day

    if previous is None:
        sim = Simulation.fork(settings, base, sim_code, llm=llm, start=start, seeds=seeds)
    else:
        sim = Simulation.open(settings, sim_code, llm=llm, resume=True)
    rows, report = list(previous["hours"]) if previous else [], {}
    stopped = None
    day_started = time.perf_counter()
    try:
        steps_per_hour = 3600 // sim.sec_per_step
        ledger = sim.storage.ledger_path
        if history == "base" and previous is None:
            history = base_history(settings, sim.maze_name, len(sim.personas))
        loaded = (previous or {}).get("history") or {"file": None, "memories": 0, "calls": 0}
        if history is not None and previous is None:
            before = len(run_lines(ledger))
            counts = load_history(sim, Path(history), warn=say)
            loaded = {"file": str(history), "memories": sum(counts.values()), "calls": len(run_lines(ledger)) - before}
            say(
                f"history {Path(history).name}: {loaded['memories']} memories for {len(counts)} residents "
                f"({loaded['calls']} calls, not counted in the day)"
            )
        evaluations = list((previous or {}).get("evaluations", []))
        if evaluate_start and evaluate_every >= 0 and previous is None:
            evaluations.append(say_evaluation(sim, sim_code, pairs, say))
        seen = len(run_lines(ledger))
        day_from = seen if previous is None else loaded["calls"]  # the history's lines come first
        for hour in range(hours):
            awake = 0

            def count(s) -> None:
                nonlocal awake
                awake += sum(not asleep(p.scratch) for p in s.personas.values())

            clock_hour = sim.curr_time.hour  # the row is labelled with the game hour it covers
            on_bench_server = settings.backend.kind == "openai" and reset_stats(settings.backend.base_url)
            started, parts_before = time.perf_counter(), engine_time.totals()
            done = sim.run(steps_per_hour, headless=True, on_step=count)
            wall = time.perf_counter() - started
            lines = run_lines(ledger)
            row = hour_row(
                clock_hour,
                lines[seen:],
                steps=done,
                wall_s=wall,
                awake_agent_hours=awake * sim.sec_per_step / 3600,
                parts_s=engine_time.since(parts_before),
            )
            served = server_stats(settings.backend.base_url) if on_bench_server else None
            if served is not None:
                row["bench_server"] = served
            seen = len(lines)
            rows.append(row)
            say(format_row(row))
            if served is not None:
                say(f"  {stats_line(served)}")
            spent = time.perf_counter() - day_started
            if max_wall_s is not None and spent >= max_wall_s and hour < hours - 1:
                stopped = (
                    f"stopped after {hour + 1} of {hours} game hours: {spent / 60:.0f} min of wall time "
                    f"reached the budget of {max_wall_s / 60:.0f} min"
                )
                say(stopped)
            last = hour == hours - 1 or stopped is not None
            if evaluate_every >= 0 and (last or (evaluate_every and (hour + 1) % evaluate_every == 0)):
                evaluations.append(say_evaluation(sim, sim_code, pairs, say))
            if on_hour is not None:
                on_hour(
                    sim,
                    {
                        "base": (previous or {}).get("base", base),
                        "sim": sim_code,
                        "history": loaded,
                        "start": (previous or {}).get("start") or start or "00:00",
                        "hours": list(rows),
                        "evaluations": list(evaluations),
                        "force_seed_plan": settings.simulation.force_seed_plan
                        or bool((previous or {}).get("force_seed_plan")),
                    },
                )
            if stopped:
                break
        sim.save()
        per_prompt: dict[str, int] = {}
        planning = {"calls": 0, "tokens": 0}
        for line in run_lines(ledger)[day_from:]:
            per_prompt[line["prompt"]] = per_prompt.get(line["prompt"], 0) + 1
            if line["prompt"] in DAY_PLANNING:
                planning["calls"] += 1
                planning["tokens"] += int(line.get("prompt_tokens") or 0) + int(line.get("completion_tokens") or 0)
        days = [persona_day(p) for p in sim.personas.values() if p.scratch.daily_req]
        report = {
            "base": (previous or {}).get("base", base),
            "sim": sim_code,
            "start": (previous or {}).get("start") or start or "00:00",
            "hours_asked": len((previous or {}).get("hours", [])) + hours,
            "stopped": stopped,
            "packed": settings.simulation.packed_actions,
            "force_seed_plan": settings.simulation.force_seed_plan or bool((previous or {}).get("force_seed_plan")),
            "model": settings.models.cheap.path,
            "backend": settings.backend.kind,
            "parallel_slots": settings.backend.parallel_slots,
            "history": loaded,
            "hours": rows,
            "day": day_summary(rows, per_prompt, planning, awake_agent_hours_in_day(sim.personas.values())),
            "per_prompt_calls": per_prompt,
            "evaluations": evaluations,
            "day_coherence": {
                "line": coherence_line(days),
                "days": len(days),
                "clean": sum(d.ok for d in days),
                "violations": {d.persona: d.violations for d in days if d.violations},
            },
        }
        return report
    finally:
        sim.close()


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

    def __call__(self, sim, progress: dict) -> None:
        sim.save()
        write_json_atomic(self.path, progress)
        self.progress, self.residents = progress, len(sim.personas)


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
    parser.add_argument(
        "--model",
        metavar="bundled|scripted|PATH",
        help="model file for both roles (default: the config's); scripted: the scripted town model",
    )
    parser.add_argument("--faithful", action="store_true", help="the original's one-prompt-per-question pipeline")
    parser.add_argument(
        "--evaluate-every",
        type=int,
        default=6,
        metavar="H",
        help="interview everyone every H game hours (0: only at the end; -1: never, "
        "run `python -m reverie evaluate SIM` afterwards)",
    )
    parser.add_argument(
        "--max-wall-minutes",
        type=float,
        metavar="M",
        help="stop after the game hour in which M minutes of wall time run out (the figures "
        "are those of the hours run)",
    )
    parser.add_argument(
        "--pairs", type=int, metavar="K", help="the interviews ask about K random pairs of residents (default: all 300)"
    )
    parser.add_argument(
        "--history",
        metavar="CSV|none",
        default="base",
        help="whispers loaded before the first hour, as `call -- load history` (a CSV path; default: the "
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
    parser.add_argument(
        "--force-seed-plan",
        action="store_true",
        help="code puts each seed's event (the party) into its persona's plan (default: off, the "
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
        previous = None
        progress_path = settings.paths.storage / sim_code / GAME_DAY_PROGRESS
        if args.resume:
            path = args.out or settings.paths.storage / sim_code / "game_day.json"
            if progress_path.is_file():  # stopped inside an hour: the last hour it finished
                path = progress_path
            if not path.is_file():
                raise UserError(f"--resume: no report {path} — run it first without --resume")
            previous = read_json(path)
        history = None if args.history == "none" else args.history
        if history not in (None, "base") and not Path(history).is_file():
            raise UserError(f"--history {args.history}: no such file — give a CSV of 'Name,Whisper' rows, or none")
        keep = HourKeeper(progress_path, progress=previous)
        before = keep.hours
        report = run_day(
            settings,
            base=args.base,
            sim_code=sim_code,
            hours=args.hours,
            evaluate_every=args.evaluate_every,
            start=args.start,
            pairs=args.pairs,
            history=history,
            evaluate_start=args.evaluate_start,
            previous=previous,
            max_wall_s=None if args.max_wall_minutes is None else args.max_wall_minutes * 60,
            on_hour=keep,
        )
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
