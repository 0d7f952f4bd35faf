"""The base simulation of the default world, in the original storage layout, and its
history CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from pathlib import Path

from reverie.worldgen import town
from reverie.worldgen.build import WorldGrid
from reverie.worldgen.files_out import Out
from reverie.worldgen.personas_data import PersonaData

SIM_CODE = f"base_{town.MAZE_NAME}"
START_DATE = "February 13, 2023"

# The original's memory settings (facts of the format), then identity, plan and action fields.
SETTINGS = {
    "vision_r": 8,
    "att_bandwidth": 8,
    "retention": 8,
}
MEMORY_SETTINGS = {
    "concept_forget": 100,
    "daily_reflection_time": 180,
    "daily_reflection_size": 5,
    "overlap_reflect_th": 4,
    "kw_strg_event_reflect_th": 10,
    "kw_strg_thought_reflect_th": 9,
    "recency_w": 1,
    "relevance_w": 1,
    "importance_w": 1,
    "recency_decay": 0.995,
    "importance_trigger_max": 150,
    "importance_trigger_curr": 150,
    "importance_ele_n": 0,
    "thought_count": 5,
}
# The importance that triggers a reflection, as the original's bases set it: 150 in its
# 3-person base, 250 in its 25-person one (a town of more than 3 takes the larger).
SMALL_TOWN, SMALL_TOWN_TRIGGER, TOWN_TRIGGER = 3, 150, 250


def reflection_trigger(residents: int) -> int:
    return SMALL_TOWN_TRIGGER if residents <= SMALL_TOWN else TOWN_TRIGGER


def scratch(p: PersonaData, world: str, trigger: int = SMALL_TOWN_TRIGGER) -> dict:
    return {
        **SETTINGS,
        "curr_time": None,
        "curr_tile": None,
        "daily_plan_req": p.daily_plan_req,
        "name": p.name,
        "first_name": p.first_name,
        "last_name": p.last_name,
        "age": p.age,
        "innate": p.innate,
        "learned": p.learned,
        "currently": p.currently,
        "lifestyle": p.lifestyle,
        "living_area": f"{world}:{p.home}:{p.living_arena}",
        **MEMORY_SETTINGS,
        "importance_trigger_max": trigger,
        "importance_trigger_curr": trigger,
        "daily_req": [],
        "f_daily_schedule": [],
        "f_daily_schedule_hourly_org": [],
        "act_address": None,
        "act_start_time": None,
        "act_duration": None,
        "act_description": None,
        "act_pronunciatio": None,
        "act_event": [p.name, None, None],
        "act_obj_description": None,
        "act_obj_pronunciatio": None,
        "act_obj_event": [None, None, None],
        "chatting_with": None,
        "chat": None,
        "chatting_with_buffer": {},
        "chatting_end_time": None,
        "act_path_set": False,
        "planned_path": [],
    }


def places(g: WorldGrid) -> dict[str, dict[str, list[str]]]:
    """{sector: {arena: [objects]}} of the whole world, in reading order."""
    tree: dict[str, dict[str, list[str]]] = {}
    for y in range(g.height):
        for x in range(g.width):
            s, a, o = g.sector[y][x], g.arena[y][x], g.game_object[y][x]
            if s and a:
                objects = tree.setdefault(s, {}).setdefault(a, [])
                if o and o not in objects:
                    objects.append(o)
    return tree


def spawn_tile(g: WorldGrid, p: PersonaData) -> tuple[int, int]:
    for y in range(g.height):
        for x in range(g.width):
            if (g.sector[y][x], g.arena[y][x], g.spawn[y][x]) == (p.home, p.living_arena, p.spawn):
                return x, y
    raise ValueError(f"no spawn {p.spawn} in {p.home}:{p.living_arena}")


def known_places(world_places: dict, p: PersonaData, shared_homes: Iterable[str] = ()) -> dict:
    """The sectors a persona knows; of a shared home (apartments) only its own room."""
    known = {s: world_places[s] for s in (p.home, *p.knows)}
    for sector in shared_homes:
        if sector in known:
            own = {a: objs for a, objs in known[sector].items() if sector == p.home and a == p.living_arena}
            if own:
                known[sector] = own
            else:
                del known[sector]
    return known


def write(
    out: Out,
    storage: Path,
    g: WorldGrid,
    personas: Sequence[PersonaData],
    *,
    sim_code: str = SIM_CODE,
    maze_name: str = town.MAZE_NAME,
    shared_homes: Iterable[str] = (),
    seeds: Iterable[dict] = (),
) -> None:
    sim = storage / sim_code
    names = [p.name for p in personas]
    out.json(
        sim / "reverie" / "meta.json",
        {
            "fork_sim_code": sim_code,
            "start_date": START_DATE,
            "curr_time": f"{START_DATE}, 00:00:00",
            "sec_per_step": 10,
            "maze_name": maze_name,
            "persona_names": names,
            "step": 0,
        },
    )
    if seeds:
        out.json(sim / "reverie" / "seeds.json", list(seeds))
    env: dict[str, dict] = {}
    for p in personas:
        x, y = spawn_tile(g, p)
        env[p.name] = {"maze": maze_name, "x": x, "y": y}
    out.json(sim / "environment" / "0.json", env)
    world_places = places(g)
    for p in personas:
        mem = sim / "personas" / p.name / "bootstrap_memory"
        out.json(mem / "scratch.json", scratch(p, g.world, reflection_trigger(len(personas))))
        known = known_places(world_places, p, shared_homes)
        out.json(mem / "spatial_memory.json", {g.world: known})
        out.json(mem / "associative_memory" / "nodes.json", {})
        out.json(mem / "associative_memory" / "kw_strength.json", {"kw_strength_event": {}, "kw_strength_thought": {}})
        out.json(mem / "associative_memory" / "embeddings.json", {})


def write_history(out: Out, path: Path, personas: Iterable[PersonaData]) -> None:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["Name", "Whisper"])
    for p in personas:
        writer.writerow([p.name, "; ".join(p.whispers)])
    out.text(path, buf.getvalue())
