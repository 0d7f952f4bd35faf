"""`/replay/<sim>/<step>/`: play a stored run from its movement files (read only)."""

from __future__ import annotations

from django.shortcuts import render

from reverie.sim_layout import SimLayout
from translator import gamepage
from translator.simfiles import movement, numbered_files, positions, read_json, read_meta
from translator.sources import NotFound, parse_step, sim_dir
from translator.views.errors import page


def start_positions(sim_path, step: int, names: list[str]) -> dict[str, list[int]]:
    """Where the agents stand when `step` begins: environment/<step>, else movement/<step-1>."""
    envs = numbered_files(SimLayout(sim_path).environment_dir)
    if step in envs:
        return positions(read_json(envs[step]), names)
    prev = movement(sim_path, step - 1) if step > 0 else None
    if prev and isinstance(prev.get("persona"), dict):
        return {
            n: r["movement"]
            for n, r in prev["persona"].items()
            if n in names and isinstance(r, dict) and isinstance(r.get("movement"), list)
        }
    earlier = [s for s in envs if s <= step]
    if earlier:
        return positions(read_json(envs[max(earlier)]), names)
    return {}


@page
def replay(request, sim_code: str, step: str):
    sim_path = sim_dir(sim_code)
    step_n = parse_step(step)
    steps = numbered_files(SimLayout(sim_path).movement_dir)
    if step_n not in steps:
        if not steps:
            raise NotFound(f"{sim_code} has no recorded steps yet. Run the simulation first.")
        raise NotFound(f"{sim_code} has steps {min(steps)} to {max(steps)}; step {step_n} is not among them.")
    meta = read_meta(sim_path)
    names = gamepage.persona_names(sim_path, meta)
    pos = start_positions(sim_path, step_n, names)
    scene = gamepage.Scene(sim_code, sim_path, step_n, names, pos, meta)
    ctx = gamepage.build(request, "replay", scene, frames_per_step=8, last_step=max(steps))
    return render(request, "game/game.html", ctx)
