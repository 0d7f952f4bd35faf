"""`python -m reverie bench`: time a short headless run and print its figures.

    python -m reverie bench [--fork BASE] [--start HH:MM] [--minutes M] [--model bundled|PATH]
                            [--out FILE] [--packed] [--no-cache] [--no-grammar] [--record F | --replay F]
    python -m reverie bench compare A.json B.json
    python -m reverie bench --server URL [--slots 4] [--pinning]   (lock-step vs N slots, side by side)

The run forks BASE into a temporary storage folder (removed afterwards unless ``--keep``),
moves the clock to ``--start`` without model calls, loads the models, then runs M game
minutes through the engine and reads the LLM ledger. It writes a JSON report and prints
the figures as one ``key=value`` row, last. ``compare`` prints two reports side by side
with the ratios B/A, so a change can be judged on a noisy machine.
"""

from __future__ import annotations

import argparse
import math
import shutil
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from reverie.benchmarks.bench_figures import compare, engine_line, figures, load_report, row, totals
from reverie.benchmarks.model_server import reset_stats, server_stats, stats_line
from reverie.config import BUNDLED, SCRIPTED, Settings
from reverie.errors import UserError
from reverie.jsonio import write_json_atomic
from reverie.llm.cassette_options import add_cassette_options, cassette_files
from reverie.simulation.fast_forward import parse_hhmm

SIM_NAME = "bench"
# Asked once a game day, when it starts (a bench from --start plans the day at its first step).
DAY_PLANNING = frozenset(
    {
        "wake_up_hour",
        "daily_plan",
        "hourly_schedule",
        "hourly_schedule_packed",
        "identity_new_currently",
        "identity_new_daily_req",
    }
)
REPORT_VERSION = 1


# A --server comparison (bench_server.py) and what shapes it: flag -> argparse keywords.
_SERVER_OPTIONS: dict[str, dict[str, Any]] = {
    "--server": dict(
        metavar="URL",
        help="run the same game time twice against this OpenAI-compatible server: "
        "lock-step (parallel_slots = 1) and --slots, side by side (see bench_server.py)",
    ),
    "--slots": dict(type=int, default=4, help="with --server: parallel_slots of the second run (default 4)"),
    "--out-of-order": dict(
        action="store_true",
        help="with --server: both runs on --slots, the lockstep and the out-of-order scheduler ([simulation] scheduler)",
    ),
    "--pinning": dict(
        action="store_true",
        help="with --server: a third run without slot pinning ([backend] slot_pinning), to compare cache hit rates",
    ),
}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fork", help="simulation to fork (default: [simulation] default_fork)")
    parser.add_argument("--start", metavar="HH:MM", help="move the clock to this time of day first (no model calls)")
    parser.add_argument("--minutes", type=int, default=10, help="game minutes to run (default 10)")
    parser.add_argument(
        "--model",
        metavar="bundled|scripted|PATH",
        help="model file for both roles (default: the config's); scripted: the scripted town model",
    )
    parser.add_argument("--out", type=Path, metavar="FILE", help="JSON report (default: ./bench-<fork>-<time>.json)")
    parser.add_argument("--packed", action="store_true", help="packed action mode ([simulation] packed_actions)")
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="no caches: no llama.cpp prompt cache ([backend] prompt_cache) and no reuse of "
        "today's answers ([simulation] reuse_answers)",
    )
    parser.add_argument("--no-grammar", action="store_true", help="no JSON-schema grammar ([repair] grammar)")
    add_cassette_options(parser, "answer from FILE (no model: engine overhead only)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary simulation and print where it is")
    for flag, options in _SERVER_OPTIONS.items():
        parser.add_argument(flag, **options)
    modes = parser.add_subparsers(dest="bench_mode", metavar="compare")
    cmp = modes.add_parser("compare", help="print two reports side by side with the ratios B/A")
    cmp.add_argument(
        "reports", nargs=2, type=Path, metavar="REPORT.json", help="two reports written by bench (A, then B)"
    )


def main(args, settings: Settings) -> int:
    if getattr(args, "bench_mode", None) == "compare":
        a, b = (load_report(path) for path in args.reports)
        for line in compare(a, b, names=tuple(p.name for p in args.reports)):
            print(line)
        return 0
    if args.minutes < 1:
        raise UserError("--minutes must be a whole number of game minutes, at least 1")
    if args.start:
        parse_hhmm(args.start)
    if args.server:
        from reverie.benchmarks import bench_server

        return bench_server.main(args, settings, run_bench)
    cassette = cassette_files(args)
    fork = args.fork or settings.simulation.default_fork
    report = run_bench(
        settings,
        fork=fork,
        start=args.start,
        minutes=args.minutes,
        model=args.model,
        packed=args.packed,
        cache=not args.no_cache,
        grammar=not args.no_grammar,
        **cassette,
        keep=args.keep,
        progress=True,
    )
    out = args.out or Path.cwd() / f"bench-{fork}-{datetime.now().strftime('%Y%m%d-%H%M%S')}.json"
    write_json_atomic(out, report)
    if report.get("warning"):
        print(f"warning: {report['warning']}", file=sys.stderr)
    if args.keep:
        print(f"simulation kept: {report['sim_dir']}")
    print(f"report: {out}")
    if report["calls_per_awake_agent_hour"] is not None:
        print(
            f"awake agent-hours {report['awake_agent_hours']:.2f}: "
            f"{report['calls_per_awake_agent_hour']:.1f} calls per awake agent-hour, "
            f"{report['calls_per_awake_agent_hour_besides_day_planning']:.1f} besides the day's planning "
            f"({report['day_planning_calls']} calls)"
        )
    if report.get("day_coherence"):
        coherence = report["day_coherence"]
        for name, violations in coherence["violations"].items():
            for violation in violations:
                print(f"  {name}: {violation}")
        print(f"day coherence: {coherence['clean']}/{coherence['days']} days with no violation")
    if report.get("bench_server"):
        print(stats_line(report["bench_server"]))
    print(engine_line(report))
    print(row(report["figures"]))
    return 0


# -- the run ---------------------------------------------------------------------------


def bench_settings(
    settings: Settings, root: Path, *, model: str | None, packed: bool, cache: bool, grammar: bool
) -> Settings:
    """A copy of ``settings`` for the bench: storage in ``root``, the chosen switches."""
    s = settings.model_copy(deep=True)
    s.paths.storage = root / "storage"
    s.paths.temp_storage = root / "temp_storage"
    s.simulation.packed_actions = packed
    s.backend.prompt_cache = cache
    s.simulation.reuse_answers = cache
    s.repair.grammar = grammar
    if model:
        path = model if model in (BUNDLED, SCRIPTED) else str(_gguf(Path(model)))
        s.models.strong.path = s.models.cheap.path = path
    return s


def _gguf(path: Path) -> Path:
    path = path.expanduser().resolve()
    try:
        with path.open("rb") as fh:
            magic = fh.read(4)
    except OSError:
        raise UserError(f"--model {path}: no such file — give a GGUF file or 'bundled'") from None
    if magic != b"GGUF":
        raise UserError(f"--model {path}: not a GGUF file — give a GGUF file or 'bundled'")
    return path


def _link_base(source_root: Path, storage: Path, fork: str) -> None:
    """Make the base simulation visible in the bench's storage (read-only use: it is only copied)."""
    source = source_root / fork
    if not (source / "reverie" / "meta.json").is_file():
        known = sorted(p.name for p in source_root.glob("*") if (p / "reverie" / "meta.json").is_file())
        raise UserError(f"no simulation '{fork}' to fork in {source_root} — known: {', '.join(known) or 'none'}")
    storage.mkdir(parents=True)
    try:
        (storage / fork).symlink_to(source.resolve(), target_is_directory=True)
    except OSError:
        shutil.copytree(source, storage / fork, ignore=shutil.ignore_patterns("llm_calls.jsonl", "chroma"))


def _make_llm(settings: Settings, ledger: Path, *, record, replay, chat_models):
    """The LLM facade with its models loaded now (not inside the timed run)."""
    from reverie.llm import LLM
    from reverie.tasks.registry import product_tasks

    started = time.perf_counter()
    if replay is not None:
        return LLM(settings, tasks=product_tasks(), ledger_path=ledger, replay=replay), 0.0
    if chat_models is None:
        from reverie.llm.models import build_chat_models

        chat_models = build_chat_models(settings)
    llm = LLM(settings, tasks=product_tasks(), chat_models=chat_models, ledger_path=ledger, record=record)
    llm.check_backend()  # a model server is identified and checked before the clock starts
    return llm, time.perf_counter() - started


def run_bench(
    settings: Settings,
    *,
    fork: str,
    start: str | None = None,
    minutes: int = 10,
    model: str | None = None,
    packed: bool = False,
    cache: bool = True,
    grammar: bool = True,
    record: Path | None = None,
    replay: Path | None = None,
    keep: bool = False,
    chat_models: dict | None = None,
    progress: bool = False,
) -> dict:
    """Fork, fast-forward, run ``minutes`` game minutes, and return the report (a dict).

    ``chat_models`` (tests): ``{"strong": m, "cheap": m}`` instead of loading the configured ones."""
    from reverie.memory.embedder import Embedder
    from reverie.persona.sleep import asleep
    from reverie.prompt_tools.evaluate import read_ledger, summarize
    from reverie.simulation.fast_forward import fast_forward
    from reverie.simulation.simulation import Simulation
    from reverie.simulation.storage import fork as fork_storage
    from reverie.tasks.day_coherence import persona_day

    root = Path(tempfile.mkdtemp(prefix="reverie-bench-"))
    sim = None
    try:
        s = bench_settings(settings, root, model=model, packed=packed, cache=cache, grammar=grammar)
        _link_base(settings.paths.storage, s.paths.storage, fork)
        storage = fork_storage(s.paths.storage, fork, SIM_NAME)
        start_step, start_time = fast_forward(storage, start) if start else (None, None)
        llm, load_s = _make_llm(s, storage.ledger_path, record=record, replay=replay, chat_models=chat_models)
        sim = Simulation.open(s, SIM_NAME, storage=storage, llm=llm)
        Embedder(s).model  # noqa: B018  (load the embedding model before the clock starts)
        steps = math.ceil(minutes * 60 / sim.sec_per_step)
        agents = len(sim.personas)
        first_time, first_step = sim.curr_time_str, sim.step_no
        awake_steps = 0

        def on_step(_sim) -> None:
            nonlocal awake_steps
            awake_steps += sum(not asleep(p.scratch) for p in _sim.personas.values())
            if progress:
                print(
                    f"\rbench: step {_sim.step_no - first_step}/{steps} ({_sim.curr_time_str})",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )

        on_bench_server = s.backend.kind == "openai" and reset_stats(s.backend.base_url)
        started, cpu_started = time.perf_counter(), time.process_time()
        done = sim.run(steps, headless=True, on_step=on_step)
        wall_s = time.perf_counter() - started
        # The engine's own work (perception, retrieval, embeddings, files): this process's CPU time,
        # all threads, while the model's calls run elsewhere.
        engine_cpu_s = time.process_time() - cpu_started
        served = server_stats(s.backend.base_url) if on_bench_server else None
        if progress:
            print(file=sys.stderr)
        if keep:
            sim.save()
        lines = read_ledger(storage.ledger_path)
        total = totals(lines)
        # A replay's usage is the recording's: no cache was used in this run.
        cached = None if replay else total["cached_tokens"]
        source = None if cached is None else "ledger"
        game_minutes = done * sim.sec_per_step / 60
        fig = figures(total, agents=agents, game_minutes=game_minutes, wall_s=wall_s, cached_tokens=cached)
        awake_hours = awake_steps * sim.sec_per_step / 3600
        per_prompt, _ = summarize(lines)
        planning = sum(1 for line in lines if line.get("prompt") in DAY_PLANNING)
        report = {
            "version": REPORT_VERSION,
            "fork": fork,
            "start": {"requested": start, "step": first_step, "time": first_time},
            "end": {"step": sim.step_no, "time": sim.curr_time_str},
            "steps": done,
            "settings": {
                "model": "replay" if replay else (model or s.models.cheap.path),
                "backend": s.backend.kind,
                "parallel_slots": s.backend.parallel_slots,
                "slot_pinning": s.backend.slot_pinning,
                "scheduler": str(s.simulation.scheduler),
                "packed": packed,
                "prompt_cache": cache,
                "reuse_answers": cache,
                "grammar": grammar,
                "cassette": "replay" if replay else "record" if record else None,
            },
            "figures": fig,
            "totals": {**total, "cached_tokens": cached, "cache_source": source},
            "load_s": round(load_s, 3),
            "engine": {
                "cpu_s": round(engine_cpu_s, 3),
                "share_of_wall": round(engine_cpu_s / wall_s, 4) if wall_s else 0.0,
            },
            "awake_agent_hours": awake_hours,
            "calls_per_awake_agent_hour": total["calls"] / awake_hours if awake_hours else None,
            "day_planning_calls": planning,
            "calls_per_awake_agent_hour_besides_day_planning": (total["calls"] - planning) / awake_hours
            if awake_hours
            else None,
            "per_prompt": {r.prompt: {k: v for k, v in vars(r).items() if k != "prompt"} for r in per_prompt},
            "fast_forward": {"step": start_step, "time": start_time.isoformat() if start_time else None},
        }
        if served is not None:
            report["bench_server"] = served
        if packed and "action_packed" not in report["per_prompt"] and "action_sector" in report["per_prompt"]:
            report["warning"] = (
                "--packed had no effect: the engine asked the faithful action prompts "
                "([simulation] packed_actions is not wired into the plan step)"
            )
        days = [persona_day(p) for p in sim.personas.values() if p.scratch.daily_req]
        report["day_coherence"] = {
            "days": len(days),
            "clean": sum(d.ok for d in days),
            "violations": {d.persona: d.violations for d in days},
        }
        if keep:
            report["sim_dir"] = str(storage.dir)
        return report
    finally:
        if sim is not None:
            sim.close()
        if not keep:
            shutil.rmtree(root, ignore_errors=True)
