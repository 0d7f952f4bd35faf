"""Where an action happens: sector, arena, object, from the places the persona knows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reverie.address import Place, random_spot
from reverie.memory.spatial import SpatialTree
from reverie.persona.agent import Agent
from reverie.tasks.action_location import action_arena, action_object, action_sector
from reverie.tasks.action_packed import allowed_places

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.world.maze import Maze


def whereabouts(persona: Agent, maze: Maze) -> tuple[dict, str, str]:
    """The persona's tile, its world, and its home sector (the current one when it has no home)."""
    here = maze.access_tile(persona.scratch.here())
    living = Place(persona.scratch.living_area or "").parts
    return here, here["world"], living[1] if len(living) > 1 else here["sector"]


def places_shown(persona: Agent) -> SpatialTree:
    """The persona's known places as the location prompts show them: other people's houses and
    rooms left out. Today's answers are judged stale by these (``reverie.memory.day_cache``), so
    learning someone else's house, which changes no prompt, does not ask the same question again."""
    s = persona.scratch  # the name is read for each world: no places known needs no name
    return {world: allowed_places(sectors, s.persona_name()) for world, sectors in persona.s_mem.tree.items()}


def choose_address(persona: Agent, maze: Maze, description: str, llm: LanguageModel) -> Place:
    """``world:sector:arena:object`` for ``description`` (object ``<random>`` when none is known)."""
    s, places = persona.scratch, persona.s_mem
    here, world, living_sector = whereabouts(persona, maze)
    sector = (
        action_sector(
            llm,
            name=s.persona_name(),
            action_description=description,
            living_sector=living_sector,
            living_arenas=places.arenas(f"{world}:{living_sector}"),
            current_sector=here["sector"],
            current_arenas=places.arenas(f"{world}:{here['sector']}"),
            daily_plan_req=s.daily_plan_req or "",
            sectors=places.sectors(world),
        )
        or living_sector
    )
    arenas = places.arenas(f"{world}:{sector}")
    arena = action_arena(llm, name=s.persona_name(), action_description=description, sector=sector, arenas=arenas)
    if not arena:
        # No arena known in that sector: fall back to the persona's home area.
        return Place(random_spot(s.living_area) if s.living_area else random_spot(f"{world}:{sector}"))
    obj = action_object(
        llm, action_description=description, objects=places.objects(f"{world}:{sector}:{arena}"), persona=s.name
    )
    return Place(f"{world}:{sector}:{arena}:{obj}")
