"""Packed mode: where and how an action happens in one structured call (``[simulation] packed_actions``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reverie.address import Place
from reverie.memory.event import Event
from reverie.persona.action_details import ActionDetails
from reverie.persona.agent import Agent
from reverie.persona.location import whereabouts
from reverie.tasks.action_packed import packed_action

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.world.maze import Maze


def packed_address_and_details(persona: Agent, maze: Maze, description: str,
                               llm: LanguageModel) -> tuple[Place, ActionDetails]:
    """The address and details the faithful 8-call pipeline would give, from one call."""
    s, places = persona.scratch, persona.s_mem
    here, world, living_sector = whereabouts(persona, maze)
    tree = {sector: {arena: places.objects(f"{world}:{sector}:{arena}") for arena in places.arenas(f"{world}:{sector}")}
            for sector in places.sectors(world)}
    p = packed_action(llm, name=s.name, action_description=description, world=world,
                      living_area=s.living_area or "", living_sector=living_sector,
                      current_sector=here["sector"], daily_plan_req=s.daily_plan_req or "", places=tree)
    return Place(p.address), ActionDetails(p.pronunciatio, Event(*p.event), p.obj_description,
                                           p.obj_pronunciatio, Event(*p.obj_event))
