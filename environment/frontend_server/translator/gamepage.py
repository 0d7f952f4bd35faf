"""The context shared by the three Phaser pages (simulate, replay, demo)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.middleware.csrf import get_token
from django.urls import reverse

from translator import maps
from translator.sources import initials, persona_folders, underscore

SPEEDS = {"1": 1, "2": 2, "3": 4, "4": 8, "5": 16, "6": 32}


def persona_names(sim_path: Path, meta: dict) -> list[str]:
    """Persona folders of the simulation, else the names listed in its meta.json."""
    names = persona_folders(sim_path)
    if not names:
        names = [n for n in meta.get("persona_names", []) if isinstance(n, str)]
    return names


def maze_of(meta: dict) -> str:
    maze = meta.get("maze_name")
    return maze if isinstance(maze, str) else "the_ville"


def personas_block(sim_code: str, step: int, names: list[str], pos: dict[str, list[int]]) -> list[dict]:
    out = []
    for name in names:
        u = underscore(name)
        out.append(
            {
                "name": name,
                "underscore": u,
                "initials": initials(name),
                "tile": pos.get(name),
                "profile": maps.profile_url(name),
                "state_url": reverse("replay_persona_state", args=[sim_code, step, u]),
            }
        )
    return out


@dataclass(frozen=True)
class Scene:
    """What a page shows: the simulation, its step, the agents and where they stand."""

    sim_code: str
    sim_path: Path
    step: int
    names: list[str]
    pos: dict[str, list[int]]
    meta: dict


def build(request, mode: str, scene: Scene, **extra) -> dict:
    """The page's context: the Phaser game's settings (``extra`` added to them) and the agents' blocks."""
    maze = maze_of(scene.meta)
    personas = personas_block(scene.sim_code, scene.step, scene.names, scene.pos)
    game = maps.game_config(maze, scene.names)
    game.update(
        {
            "mode": mode,
            "sim_code": scene.sim_code,
            "step": scene.step,
            "sec_per_step": scene.meta.get("sec_per_step", 10),
            "personas": [{k: p[k] for k in ("name", "underscore", "initials", "tile")} for p in personas],
            "urls": {
                "update": reverse("update_environment"),
                "process": reverse("process_environment"),
            },
            "csrf": get_token(request),
        }
    )
    game.update(extra)
    return {
        "game": game,
        "personas": personas,
        "mode": mode,
        "sim_code": scene.sim_code,
        "step": scene.step,
        "maze": maze,
    }
