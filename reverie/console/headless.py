"""`python -m reverie run`: fork (or resume) a simulation and run N steps without a prompt.

Headless (default): the backend moves the agents itself and writes the same files the
browser would. ``--live``: wait for the browser's ``environment/<step>.json`` each step.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reverie.console.run_summary import print_summary
from reverie.console.runner import DISCLAIMER, debug_log, generated_name, llm_calls, require_positive, run_steps
from reverie.errors import UserError
from reverie.evaluation import day_options
from reverie.llm.cassette_options import add_cassette_options, cassette_files
from reverie.simulation.fast_forward import parse_hhmm
from reverie.simulation.stop_signals import deferred


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fork", help="simulation to fork (default: [simulation] default_fork)")
    parser.add_argument("--sim", help="name of the new simulation (default: <fork>-<date>-<time>)")
    parser.add_argument("--steps", type=int, required=True, help="how many steps to run")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--headless", dest="live", action="store_false", help="move the agents without a browser (default)"
    )
    mode.add_argument("--live", dest="live", action="store_true", help="wait for the browser's environment files")
    parser.set_defaults(live=False)
    parser.add_argument("--overwrite", action="store_true", help="replace an existing simulation of that name")
    parser.add_argument("--resume", metavar="NAME", help="continue NAME from its last checkpoint instead of forking")
    add_cassette_options(parser)
    parser.add_argument(
        "--model",
        metavar="bundled|scripted|PATH",
        help="model file for both roles (default: the config's); scripted: the scripted town model, "
        "which answers every prompt by rule (plumbing checks, not behaviour)",
    )
    parser.add_argument(
        "--start",
        metavar="HH:MM",
        help="move a new fork's clock to this time of day first, with no model call (e.g. 07:00)",
    )
    parser.add_argument(
        "--packed",
        action="store_true",
        help="one structured call per action, per day's schedule and per conversation ([simulation] packed_actions)",
    )
    day_options.add_force_seed_plan(
        parser,
        "code puts each seed's event (the party) into its persona's plan, for models too small "
        "to plan it from the identity ([simulation] force_seed_plan)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--compress", action="store_true", help="afterwards write the demo format and print how to watch it"
    )


def main(args, settings) -> int:
    from reverie.simulation.simulation import Simulation

    steps = require_positive(args.steps)
    debug_log(settings.debug)
    cassette = cassette_files(args)
    if args.start:
        parse_hhmm(args.start)
    if args.packed or args.force_seed_plan or args.model:
        from reverie.evaluation.game_day import day_settings

        settings = day_settings(
            settings,
            model=args.model,
            packed=args.packed or settings.simulation.packed_actions,
            force_seed_plan=args.force_seed_plan,
        )
    if args.resume:
        if args.fork or args.sim or args.start:
            raise UserError("--resume NAME continues an existing run; leave out --fork, --sim and --start")
        sim = Simulation.open(settings, args.resume, resume=True, **cassette)
    else:
        fork = args.fork or settings.simulation.default_fork
        name = args.sim or generated_name(fork)
        sim = Simulation.fork(settings, fork, name, overwrite=args.overwrite, start=args.start, **cassette)
    print(DISCLAIMER, file=sys.stderr)
    print(f"simulation {sim.storage.sim_code} at step {sim.step_no} ({sim.curr_time_str})", file=sys.stderr)
    if settings.simulation.force_seed_plan:
        print("force_seed_plan is on: the code puts each seed's event into its persona's plan", file=sys.stderr)
    start = sim.step_no
    try:
        done = run_steps(sim, steps, headless=not args.live, progress=not args.no_progress)
    except KeyboardInterrupt:
        sim.close()
        return 130
    except BaseException:
        sim.close()
        if sim.fresh_fork and sim.last_save_step == start and sim.step_no == start:
            sim.delete()  # e.g. the model failed to load: no half-made fork is left behind
            print(
                f"removed {sim.storage.sim_code}: it made no step, so there is nothing to resume — run the same "
                "command again",
                file=sys.stderr,
            )
        raise
    with deferred() as stopped:  # a stop signal now waits for the save: the steps run are kept
        sim.save()
        sim.close()
    print(
        f"ran {done} step(s); saved {sim.storage.dir} at step {sim.step_no} ({sim.curr_time_str}); "
        f"{llm_calls(sim.llm)} LLM call(s)",
        file=sys.stderr,
    )
    demo_step = _compress_and_explain(settings, sim.storage.sim_code) if args.compress and done else None
    if done:
        print_summary(sim.storage, start, sim.step_no, demo_step)
    return 0 if done == steps and not stopped else 130


def _compress_and_explain(settings, sim_code: str) -> int:
    from reverie.console.compress import compress, first_step

    folder = compress(settings, sim_code)
    manage = Path(__file__).resolve().parents[2] / "environment" / "frontend_server" / "manage.py"
    print(f"compressed into {folder}")
    print("watch it: start the frontend with")
    from reverie.config import DEFAULT_CONFIG

    env = "" if settings.source in (None, DEFAULT_CONFIG.resolve()) else f"REVERIE_CONFIG={settings.source} "
    print(f"  {env}{sys.executable} {manage} runserver")
    start = first_step(settings.paths.storage / sim_code)
    print(f"and open http://127.0.0.1:8000/demo/{sim_code}/{start}/3/")
    return start
