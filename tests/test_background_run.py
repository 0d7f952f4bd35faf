"""The session runs' machinery (tests/background_run.py) on tiny child processes: output kept
whole, one run at a time in the queue's order, a run needed early started at once, a timeout."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from tests.background_run import BackgroundRun, RunQueue


def child(tmp_path, name: str, code: str, timeout: float = 60) -> BackgroundRun:
    return BackgroundRun([sys.executable, "-c", code], tmp_path / name, timeout=timeout)


def test_a_run_gives_what_subprocess_run_gives(tmp_path):
    code = "import sys; print('out ' * 20000); print('err', file=sys.stderr); sys.exit(3)"
    run = child(tmp_path, "big", code).result()  # more than a pipe holds: a file never stalls the child
    expected = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (
        (run.returncode, run.stdout, run.stderr)
        == (expected.returncode, expected.stdout, expected.stderr)
        == (
            3,
            "out " * 20000 + "\n",
            "err\n",
        )
    )


def test_the_queue_runs_one_at_a_time_in_its_order_and_starts_a_needed_run_at_once(tmp_path):
    started: dict[str, float] = {}

    def start(name: str, seconds: float):
        def go() -> BackgroundRun:
            started[name] = time.monotonic()
            return child(tmp_path, name, f"import time; time.sleep({seconds})")

        return go

    queue = RunQueue({"first": start("first", 1.0), "second": start("second", 0.1)})
    first = queue.run("first")
    assert first is not None and first.result().returncode == 0
    second = queue.run("second")
    assert second is not None and second.result().returncode == 0
    assert first.ended is not None and started["second"] >= first.ended  # waited for the first to end
    assert first.seconds is not None and first.seconds >= 1.0

    early = RunQueue({"slow": start("slow", 30), "needed": start("needed", 0.1)})
    try:
        slow = early.run("slow")
        needed = early.run("needed")  # a test needs it now: it does not wait behind "slow"
        assert needed is not None and needed.result().returncode == 0 and needed.ended is not None
        assert slow is not None and slow.proc.poll() is None and needed.ended < started["slow"] + 20
    finally:
        early.stop()
    assert slow.proc.returncode is not None and slow.proc.returncode < 0  # the session's end killed it


def test_a_start_that_fails_fails_the_test_that_needs_it(tmp_path):
    def broken() -> BackgroundRun:
        raise FileNotFoundError("no village here")

    queue = RunQueue({"broken": broken})
    for _ in range(2):
        with pytest.raises(FileNotFoundError, match="no village here"):
            queue.run("broken")


def test_a_run_past_its_timeout_is_killed(tmp_path):
    run = child(tmp_path, "stuck", "import time; time.sleep(60)", timeout=0.5)
    with pytest.raises(subprocess.TimeoutExpired):
        run.result()
    assert run.proc.returncode is not None
