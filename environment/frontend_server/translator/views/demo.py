"""`/demo/<sim>/<step>/<speed>/`: play a compressed run (master_movement.json records only changes)."""

from __future__ import annotations

from django.shortcuts import render

from translator import gamepage
from translator.simfiles import BrokenFile, read_json, read_meta, step_clock
from translator.sources import NotFound, compressed_dir, parse_step
from translator.views.errors import page

FIELDS = ("movement", "pronunciatio", "description", "chat")


def demo_movement(master: dict, step: int) -> tuple[list[str], dict[str, dict]]:
    """(persona names, {str step: records}) with the state at `step` carried forward from step 0."""
    first = master.get("0")
    if not isinstance(first, dict) or not first:
        raise BrokenFile("master_movement.json has no step 0 listing every agent.")
    names = list(first)
    last = max(int(k) for k in master if k.isdigit())
    if step > last:
        raise NotFound(f"This run has steps 0 to {last}; start at one of them.")
    merged: dict[str, dict] = {}
    for i in range(step + 1):
        for name, rec in (master.get(str(i)) or {}).items():
            if name in names and isinstance(rec, dict):
                merged[name] = {**merged.get(name, {}), **{k: rec.get(k) for k in FIELDS if k in rec}}
    out = {str(step): merged}
    for i in range(step + 1, last + 1):
        out[str(i)] = master.get(str(i)) or {}
    return names, out


@page
def demo(request, sim_code: str, step: str, play_speed: str):
    path = compressed_dir(sim_code)
    step_n = parse_step(step)
    meta = read_meta(path)
    master = read_json(path / "master_movement.json")
    if not isinstance(master, dict):
        raise BrokenFile("master_movement.json is not a JSON object.")
    names, all_movement = demo_movement(master, step_n)
    start = all_movement[str(step_n)]
    pos = {n: r["movement"] for n, r in start.items() if isinstance(r.get("movement"), list)}
    clock = step_clock(meta, step_n)
    ctx = gamepage.build(
        request,
        "demo",
        gamepage.Scene(sim_code, path, step_n, names, pos, meta),
        play_speed=gamepage.SPEEDS.get(play_speed, 2),
        start_datetime=clock.strftime("%Y-%m-%dT%H:%M:%S") if clock else None,
        last_step=max(int(k) for k in all_movement),
    )
    ctx["all_movement"] = all_movement
    return render(request, "game/game.html", ctx)
