"""`/path_tester/`: walk the camera over a maze; its position goes to the simulation's path tester."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.middleware.csrf import get_token
from django.urls import reverse

from translator import bodies, maps
from reverie.jsonio import write_json_atomic
from translator.simfiles import current_simulation, read_meta
from translator.sources import NotFound, maze_names, paths, reverie_settings, sim_dir, storage_sims
from translator.views.errors import endpoint, json_error, page


def default_maze() -> str:
    """The running simulation's maze, else the default fork's, else the first one installed."""
    mazes = maze_names()
    current = current_simulation()
    candidates = [current[0]] if current else []
    fork = reverie_settings().simulation.default_fork
    if fork in storage_sims():
        candidates.append(fork)
    for sim in candidates:
        try:
            maze = read_meta(sim_dir(sim)).get("maze_name")
        except Exception:  # a half-written meta.json: try the next
            continue
        if maze in mazes:
            return maze
    if not mazes:
        raise NotFound("No maze is installed in the assets folder. Generate or import one first.")
    return mazes[0]


@page
def path_tester(request):
    maze = request.GET.get("maze") or default_maze()
    game = maps.game_config(maze, [])
    game.update(
        {
            "mode": "path_tester",
            "personas": [],
            "csrf": get_token(request),
            "urls": {"camera": reverse("path_tester_update")},
        }
    )
    return render(request, "path_tester/path_tester.html", {"game": game, "maze": maze})


@endpoint
def path_tester_update(request):
    camera = bodies.camera_request(bodies.parse(request), maze_names())
    temp = paths().temp_storage
    try:
        temp.mkdir(parents=True, exist_ok=True)
        write_json_atomic(temp / "path_tester_env.json", camera)
    except OSError as exc:
        return json_error(f"cannot write path_tester_env.json ({exc.strerror}); check the temp storage folder", 500)
    return HttpResponse("received", content_type="text/plain")
