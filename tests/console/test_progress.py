"""The progress bar of `run` and `server`: it moves while a long step runs, and log lines
(a fail-safe warning, say) print above it instead of through it."""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from reverie.console.runner import run_steps


class _Ledger:
    def __init__(self):
        self.count = 0


class _Llm:
    def __init__(self):
        self.ledger = _Ledger()


class SlowSim:
    """Stands in for a Simulation whose steps take a while and ask the model (no model here:
    this only exercises the bar's display)."""

    def __init__(self):
        self.curr_time, self.step_no, self.llm = datetime(2023, 2, 13), 0, _Llm()

    def run(self, n, *, headless, should_stop):
        for _ in range(3):
            time.sleep(0.6)
            self.llm.ledger.count += 1
        logging.getLogger("reverie.llm").warning("prompt wake_up_hour: fail-safe used")
        self.step_no += 1
        self.curr_time += timedelta(seconds=10)
        return 1


def test_the_bar_counts_calls_during_a_step_and_logs_print_on_their_own_line(capsys):
    assert run_steps(SlowSim(), 2, headless=True, progress=True) == 2
    err = capsys.readouterr().err
    assert "LLM calls 1" in err or "LLM calls 2" in err, "refreshed in the middle of the first step"
    warnings = [line for line in err.replace("\r", "\n").splitlines() if "fail-safe used" in line]
    assert warnings and all(line.strip() == "prompt wake_up_hour: fail-safe used" for line in warnings)
