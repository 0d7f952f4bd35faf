"""A child process started before the tests that read it, collected when the first of them asks.

The session's real-model runs (fixtures ``readme_first_run`` and ``the_ville_recording`` in
tests/conftest.py) start as soon as the selected tests are known, one after another in the
order the tests need them (a :class:`RunQueue`): llama.cpp generates on half the cores by
default, so the other tests run beside them instead of waiting for them. Output goes to files
(a pipe nobody reads would fill and stall the child); a watcher thread notes when the child
ended, so its seconds are its own, not the wait of whoever collects it.
"""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path


class BackgroundRun:
    """``argv`` running from now on, its stdout and stderr in ``log_dir``; :meth:`result` waits for it."""

    def __init__(self, argv: list[str], log_dir: Path, *, timeout: float, **popen) -> None:
        self.argv = argv
        self.started = time.monotonic()
        self.ended: float | None = None
        self._deadline = self.started + timeout
        self._timeout = timeout
        log_dir.mkdir(parents=True, exist_ok=True)
        self._stdout, self._stderr = log_dir / "stdout.txt", log_dir / "stderr.txt"
        with self._stdout.open("wb") as out, self._stderr.open("wb") as err:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, **popen)
        self._watcher = threading.Thread(target=self._watch, daemon=True)
        self._watcher.start()

    def _watch(self) -> None:
        self.proc.wait()
        self.ended = time.monotonic()

    def wait(self) -> None:
        """Until the child has ended (or its timeout has passed)."""
        self._watcher.join(max(0.0, self._deadline - time.monotonic()))

    def result(self) -> subprocess.CompletedProcess:
        """The finished run (its output as text), like ``subprocess.run(..., capture_output=True, text=True)``;
        past its timeout it is killed and ``subprocess.TimeoutExpired`` raised, as ``subprocess.run`` does."""
        self.wait()
        if self._watcher.is_alive():
            self.stop()
            raise subprocess.TimeoutExpired(self.argv, self._timeout)
        return subprocess.CompletedProcess(
            self.argv, self.proc.returncode, self._stdout.read_text(), self._stderr.read_text()
        )

    @property
    def seconds(self) -> float | None:
        """How long the child ran (None while it runs)."""
        return None if self.ended is None else self.ended - self.started

    def stop(self) -> None:
        """Kill the child if it still runs (a session that ends before asking for it)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


class RunQueue:
    """Runs started one at a time, in the order of ``starts``, by a background thread; :meth:`run`
    starts one at once if its turn has not come (a test needs it now). A start may give None
    (nothing to run: an earlier recording is reused)."""

    def __init__(self, starts: dict[str, Callable[[], BackgroundRun | None]]) -> None:
        self._starts = starts
        self._runs: dict[str, BackgroundRun | None] = {}
        self._failed: dict[str, Exception] = {}
        self._lock = threading.Lock()
        self._stopped = False
        threading.Thread(target=self._work, daemon=True).start()

    def __contains__(self, name: str) -> bool:
        return name in self._starts

    def run(self, name: str) -> BackgroundRun | None:
        """The run ``name``, started now if it was not yet (a start that failed raises its error again)."""
        with self._lock:
            if name in self._failed:
                raise self._failed[name]
            if name not in self._runs and not self._stopped:
                try:
                    self._runs[name] = self._starts[name]()
                except Exception as error:
                    self._failed[name] = error
                    raise
            return self._runs.get(name)

    def _work(self) -> None:
        for name in self._starts:
            try:
                started = self.run(name)
            except Exception:  # the test that needs it gets the error
                continue
            if started is not None:
                started.wait()

    def stop(self) -> None:
        """No more starts; kill the runs still going."""
        with self._lock:
            self._stopped = True
            runs = [run for run in self._runs.values() if run is not None]
        for run in runs:
            run.stop()
