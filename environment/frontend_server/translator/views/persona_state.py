"""`/replay_persona_state/<sim>/<step>/<First_Last>/`: a persona's last saved state."""

from __future__ import annotations

from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme

from reverie.sim_layout import SCRATCH, SimLayout
from translator import maps, persona_state
from translator.sources import (
    NotFound,
    compressed_sims,
    parse_step,
    paths,
    persona_by_underscore,
    persona_folders,
    storage_sims,
)
from translator.views.errors import page


def persona_dir(sim_code: str, wanted: str):
    """storage/<sim>/personas/<name>, else the compressed copy (like the original)."""
    roots = []
    if sim_code in storage_sims():
        roots.append(paths().storage / sim_code)
    if sim_code in compressed_sims():
        roots.append(paths().compressed_storage / sim_code)
    if not roots:
        raise NotFound("There is no simulation with that name. Pick one from the runs page.")
    for root in roots:
        names = persona_folders(root)
        try:
            name = persona_by_underscore(names, wanted)
        except NotFound:
            continue
        folder = SimLayout(root).personas_dir / name
        if (SimLayout(root).persona_dir(name) / SCRATCH).is_file():
            return root, name, folder
    raise NotFound("This simulation has no saved state for that persona. Names are written First_Last.")


@page
def replay_persona_state(request, sim_code: str, step: str, persona_name: str):
    step_n = parse_step(step)
    root, name, folder = persona_dir(sim_code, persona_name)
    state = persona_state.load(folder)
    back = request.META.get("HTTP_REFERER", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = ""  # only link back into this site
    return render(
        request,
        "persona_state/persona_state.html",
        {
            "sim_code": sim_code,
            "step": step_n,
            "name": name,
            "underscore": persona_name,
            "profile": maps.profile_url(name),
            "back": back,
            **state,
        },
    )
