"""What a stop signal does (docs/RUNS.md §1): Ctrl-C (SIGINT), SIGTERM (``docker stop``,
systemd, ``timeout``) and SIGHUP (a closed terminal) all mean the same thing.

- Outside a run of steps, each raises KeyboardInterrupt, as Ctrl-C does, so a command
  unwinds the same way (a lock released, a half-made fork removed).
- During a run (:func:`stop_after_step`), the first one lets the current step finish and
  the run be saved; a second one stops at once, keeping the last checkpoint.
- During the final save (:func:`deferred`), none interrupts it: the save completes, then the
  command ends as asked.

SIGTERM and SIGHUP also mean "end" (:func:`ending`): the interactive server saves and
finishes rather than go back to its prompt.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def _install(handler: Callable[[int, FrameType | None], Any]) -> dict[int, Any]:
    """Set ``handler`` for every stop signal not ignored (``nohup`` ignores SIGHUP, a shell's
    background job SIGINT: they stay so); the handlers it replaced (none off the main thread)."""
    previous = {}
    for signum in STOP_SIGNALS:
        try:
            if signal.getsignal(signum) != signal.SIG_IGN:
                previous[signum] = signal.signal(signum, handler)
        except ValueError:  # not the main thread: signals are the main thread's to handle
            break
    return previous


def _restore(previous: dict) -> None:
    for signum, handler in previous.items():
        signal.signal(signum, handler if handler is not None else signal.SIG_DFL)


_ending: list[int] = []  # SIGTERM or SIGHUP received: the process is asked to end, not only to pause


def ending() -> bool:
    """Has SIGTERM or SIGHUP been received? (An interactive server then saves and finishes
    instead of waiting at its prompt for someone who is not there.)"""
    return bool(_ending)


def _note(signum: int) -> None:
    if signum != signal.SIGINT:
        _ending.append(signum)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    _note(signum)
    raise KeyboardInterrupt


@contextmanager
def as_interrupts() -> Iterator[None]:
    """SIGTERM and SIGHUP raise KeyboardInterrupt like Ctrl-C, for the whole command."""
    _ending.clear()
    previous = _install(_interrupt)
    try:
        yield
    finally:
        _restore(previous)


def _name(signum: int) -> str:
    return "Ctrl-C" if signum == signal.SIGINT else signal.Signals(signum).name


@contextmanager
def stop_after_step() -> Iterator[Callable[[], bool]]:
    """A stop signal asks the run to stop after the current step (a second one stops at once).
    Yields a function: has a stop been asked?"""
    state = {"stop": False}

    def handler(signum: int, frame: FrameType | None) -> None:
        _note(signum)
        if state["stop"]:
            raise KeyboardInterrupt
        state["stop"] = True
        print(f"\n{_name(signum)}: stopping after this step, then saving (again to stop now)...", file=sys.stderr)

    previous = _install(handler)
    try:
        yield lambda: state["stop"]
    finally:
        _restore(previous)


@contextmanager
def deferred(doing: str = "saving first") -> Iterator[list[int]]:
    """Stop signals wait until the block is done (a save is never cut in half). Yields the list
    of those received meanwhile, for the caller to act on (the command is ending anyway)."""
    received: list[int] = []

    def handler(signum: int, frame: FrameType | None) -> None:
        _note(signum)
        received.append(signum)
        print(f"\n{_name(signum)}: {doing}...", file=sys.stderr)

    previous = _install(handler)
    try:
        yield received
    finally:
        _restore(previous)
