"""Move a stopped simulation's clock forward to a time of day, without any model call.

Only ``reverie/meta.json`` (``curr_time`` and ``step``, kept in step: one step per
``sec_per_step``) and the environment file of the new step (the positions, unchanged)
are written. The personas' files are left alone, which keeps the engine's rules:

- a persona detects a new day by comparing the date of its ``scratch.curr_time`` with
  the server's time; a persona that never ran (``curr_time`` null, as in a base
  simulation) plans its first day at the first step it runs, i.e. at the new time;
  one whose date is earlier plans a new day there, one on the same date keeps its plan;
- an action is over when the time is at or past its end, so actions that end in the
  skipped time are replaced at the first step.

The target is the first ``HH:MM`` at or after the current time (the next day's if the
time of day has passed), so the clock never goes backwards.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from reverie.clock import format_time, parse_time
from reverie.errors import UserError
from reverie.simulation.storage import SimStorage


def parse_hhmm(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*", text or "")
    if not match or int(match.group(1)) > 23 or int(match.group(2)) > 59:
        raise UserError(f"--start {text!r}: give a time of day as HH:MM, e.g. 08:00")
    return int(match.group(1)), int(match.group(2))


def target_time(now: datetime, hhmm: str, sec_per_step: int) -> datetime:
    """The first ``hhmm`` at or after ``now``, rounded up to a whole step after ``now``."""
    hour, minute = parse_hhmm(hhmm)
    target = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if target < now:
        target += timedelta(days=1)
    steps = -(-int((target - now).total_seconds()) // sec_per_step)  # ceil
    return now + timedelta(seconds=steps * sec_per_step)


def fast_forward(storage: SimStorage, hhmm: str) -> tuple[int, datetime]:
    """Set the stopped simulation in ``storage`` to ``hhmm``; returns (new step, new time)."""
    meta = storage.read_meta()
    now, step, sec = parse_time(meta["curr_time"]), int(meta["step"]), int(meta["sec_per_step"])
    if sec < 1:
        raise UserError(f"{storage.meta_path}: sec_per_step must be at least 1")
    target = target_time(now, hhmm, sec)
    new_step = step + int((target - now).total_seconds()) // sec
    if new_step == step:
        return step, now
    env = storage.read_environment(step)
    if env is None:
        raise UserError(f"{storage.environment_path(step)} is missing — the simulation cannot be moved to {hhmm}")
    storage.write_environment(new_step, env)
    meta.update(curr_time=format_time(target), step=new_step)
    storage.write_meta(meta)
    return new_step, target
