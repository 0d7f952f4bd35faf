"""The file protocol with the simulation server (the browser is the clock).

`process_environment` writes storage/<sim>/environment/<step>.json for the running
simulation only (never a base), atomically, and only for the step it waits for (a step far
ahead would be waited for forever); `update_environment` answers movement/<step>.json or
{"<step>": -1} while the simulation server is still working on it.
"""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse

from translator import bodies, gamepage, maps
from reverie.jsonio import write_json_atomic
from reverie.sim_layout import BASE_PREFIX, SimLayout
from translator.simfiles import current_simulation, movement, read_meta
from translator.sources import numbered_files, sim_dir
from translator.views.errors import endpoint, json_error


@endpoint
def process_environment(request):
    data = bodies.parse(request)
    current = current_simulation()
    if current is None:
        return json_error("no simulation server is running; start it before posting positions", 503)
    sim_code = current[0]
    sim_path = sim_dir(sim_code)
    meta = read_meta(sim_path)
    names = gamepage.persona_names(sim_path, meta)
    maze = gamepage.maze_of(meta)
    size = maps.map_config(maze)
    step, posted_sim, env = bodies.environment_request(data, names, maze, size["width"], size["height"])
    if posted_sim != sim_code:
        return json_error(f"only the running simulation ({sim_code}) accepts positions", 403)
    if sim_code.startswith(BASE_PREFIX) or meta.get("base") is True:
        return json_error(f"{sim_code} is a base simulation and is never written; run a fork of it", 403)
    simulated = numbered_files(SimLayout(sim_path).movement_dir)
    if step in simulated:
        return json_error(f"step {step} has already been simulated; its positions are fixed", 409)
    expected = next_step(meta, simulated, current[1])
    if step != expected:
        return json_error(
            f"the simulation waits for the positions of step {expected}, not {step}; reload the simulator page", 409
        )
    folder = SimLayout(sim_path).environment_dir
    try:
        folder.mkdir(exist_ok=True)
        write_json_atomic(folder / f"{step}.json", env)
    except OSError as exc:
        return json_error(f"cannot write environment/{step}.json ({exc.strerror}); check the folder's permissions", 500)
    return HttpResponse("received", content_type="text/plain")


def next_step(meta: dict, simulated: dict, announced: int) -> int:
    """The step whose positions the simulation server waits for: the one after its last movement
    file, or its checkpoint's (or announced start's) step when it has not moved since."""
    saved = meta.get("step")
    saved = saved if isinstance(saved, int) and not isinstance(saved, bool) else 0
    return max(saved, announced, max(simulated, default=-1) + 1)


@endpoint
def update_environment(request):
    step, sim_code = bodies.step_request(bodies.parse(request))
    data = movement(sim_dir(sim_code), step)
    if data is None:
        return JsonResponse({"<step>": -1})
    return JsonResponse({**data, "<step>": step})
