"""What `run` and `server` share: opening a simulation, running steps with a progress
bar, stopping cleanly on Ctrl-C, SIGTERM or SIGHUP (:mod:`reverie.simulation.stop_signals`),
and the LLM-call count shown to the user."""

from __future__ import annotations

import logging
import sys
import threading
from datetime import datetime

from reverie.errors import UserError
from reverie.simulation.stop_signals import stop_after_step

DISCLAIMER = (
    "Note: the agents in this simulation are computational constructs driven by a language model. "
    "They have no feelings, intentions or agency of their own; treat what they say accordingly."
)


def generated_name(fork_sim_code: str) -> str:
    """ "base_willow_creek" -> "willow_creek-20230213-081500" (names starting with "base_" are kept for bases)."""
    from reverie.sim_layout import BASE_PREFIX

    stem = fork_sim_code[len(BASE_PREFIX) :] if fork_sim_code.startswith(BASE_PREFIX) else fork_sim_code
    return f"{stem or 'run'}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"


def llm_calls(llm) -> int:
    """How many `ask` calls the ledger has counted so far (0 if unknown)."""
    ledger = getattr(llm, "ledger", None)
    if ledger is None:
        return 0
    count = getattr(ledger, "count", None)
    if isinstance(count, int):
        return count
    try:
        summary = ledger.summary()
    except Exception:
        return 0
    total = 0
    for row in (summary or {}).values():
        if isinstance(row, dict):
            total += int(row.get("calls", 0) or 0)
    return total


def run_steps(sim, steps: int, *, headless: bool, progress: bool = True) -> int:
    """Run up to ``steps`` steps; returns how many ran. A stop signal ends it after the current step.

    The bar shows the game time, the step and the LLM calls so far; it is refreshed every
    second (a step with a day to plan takes minutes), and log lines print above it."""
    from tqdm import tqdm
    from tqdm.contrib.logging import logging_redirect_tqdm

    done = 0
    with (
        stop_after_step() as should_stop,
        tqdm(total=steps, unit="step", disable=not progress, dynamic_ncols=True, file=sys.stderr) as bar,
        logging_redirect_tqdm(loggers=[logging.getLogger("reverie")]),
    ):

        def describe():
            bar.set_description(sim.curr_time.strftime("%b %d %H:%M:%S"), refresh=False)
            bar.set_postfix_str(f"step {sim.step_no}, LLM calls {llm_calls(sim.llm)}")

        describe()
        ticking = threading.Event()
        ticker = threading.Thread(target=_tick, args=(describe, ticking), daemon=True)
        if progress:
            ticker.start()
        try:
            # Residents who run ahead of each other stop together at a whole step: each run of
            # them is as long as the autosave's (a first Ctrl-C stops at its end).
            ahead = sim.runs_ahead(headless) if hasattr(sim, "runs_ahead") else False
            chunk = (sim.settings.simulation.autosave_every or 30) if ahead else 1
            while done < steps:
                if should_stop():
                    break
                if ahead:
                    ran = sim.run(
                        min(chunk, steps - done),
                        headless=headless,
                        should_stop=should_stop,
                        on_step=lambda _sim: (bar.update(1), describe()),
                    )
                else:
                    ran = sim.run(1, headless=headless, should_stop=should_stop)
                    bar.update(ran)
                    describe()
                if not ran:
                    break
                done += ran
        except KeyboardInterrupt:
            print("\ninterrupted mid-step: the last checkpoint is kept (continue with --resume)", file=sys.stderr)
            raise
        finally:
            ticking.set()
            if ticker.is_alive():
                ticker.join(2)
    return done


def _tick(describe, stop: threading.Event, every_s: float = 1.0) -> None:
    while not stop.wait(every_s):
        describe()


def debug_log(enabled: bool) -> None:
    """One line per step (and other engine details) on stderr when ``debug = true``."""
    if not enabled:
        return
    logger = logging.getLogger("reverie")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)


MAX_STEPS = 1_000_000  # about 115 game days at the original's 10-second steps


def require_positive(n, what="--steps", most: int = MAX_STEPS) -> int:
    if n is None or n < 1:
        raise UserError(f"{what} must be a whole number of at least 1")
    if n > most:
        raise UserError(
            f"{what} {n} is more than this command runs at once (at most {most:,}) — "
            "run fewer and continue with run --resume"
        )
    return n
