"""The landing page and the live view of a running simulation (`/simulator_home`)."""

from __future__ import annotations

from django.shortcuts import render

from reverie.sim_layout import SimLayout
from translator import gamepage
from translator.simfiles import current_simulation, live_start, numbered_files, positions, read_json, read_meta
from translator.sources import sim_dir, storage_sims
from translator.views.errors import friendly, page


def landing(request):
    return render(request, "landing/landing.html", {"sims": storage_sims()})


@page
def home(request):
    current = current_simulation()
    if current is None:
        return friendly(
            request,
            "The simulation server is not running",
            "Start the simulation server first (python -m reverie, from the project folder), then reload this page.",
            503,
            "It announces the simulation it runs in the temp storage folder; this page reads that.",
        )
    sim_code, announced = current
    sim_path = sim_dir(sim_code)
    meta = read_meta(sim_path)
    names = gamepage.persona_names(sim_path, meta)
    step = live_start(sim_code, announced)
    envs = numbered_files(SimLayout(sim_path).environment_dir)
    pos = positions(read_json(envs[step]), names) if step in envs else {}
    scene = gamepage.Scene(sim_code, sim_path, step, names, pos, meta)
    return render(request, "game/game.html", gamepage.build(request, "simulate", scene, frames_per_step=8))
