"""Where the residents stand at a step: the environment file, waited for in a live run, and each
one's tile in it, checked against the map. ``sim`` is a :class:`reverie.simulation.simulation.Simulation`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from reverie.errors import UserError
from reverie.simulation.storage import DamagedFile


def wait_environment(sim: Any, headless: bool, poll_s: float, should_stop: Callable[[], bool]) -> dict | None:
    path = sim.storage.environment_path(sim.step_no)
    while True:
        env = sim.storage.read_environment(sim.step_no)
        if env is not None and all(n in env for n in sim.persona_names):
            return env
        if headless:
            raise UserError(f"{path} is missing — headless runs write it themselves; the run folder is damaged")
        if should_stop():
            return None
        time.sleep(poll_s)


def position(sim: Any, env: dict, name: str) -> tuple[int, int]:
    """``name``'s tile in ``environment/<step>.json``; one line when it is not on the map
    (a negative index would wrap round it)."""
    where = env[name]
    try:
        x, y = where["x"], where["y"]
        ok = all(isinstance(v, (int, float)) and not isinstance(v, bool) and float(v).is_integer() for v in (x, y))
        tile = (int(x), int(y)) if ok else None
        ok = ok and sim.maze.in_bounds(tile)
    except (TypeError, KeyError):
        ok = False
    if not ok or tile is None:
        raise DamagedFile(
            sim.storage.environment_path(sim.step_no),
            f"the position of '{name}' is not a tile of the map (0..{sim.maze.width - 1}, 0..{sim.maze.height - 1})",
        )
    return tile
