"""Packed mode: where and how an action happens in one structured call (``[simulation] packed_actions``)."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING

from reverie.address import Place
from reverie.memory.event import Event
from reverie.persona.action_details import ActionDetails
from reverie.persona.agent import Agent
from reverie.persona.location import places_shown, whereabouts
from reverie.tasks.action_packed import PackedAction, PlaceTree, Standpoint, packed_action
from reverie.tasks.actions_packed import actions_packed

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.world.maze import Maze


def _known_places(persona: Agent, world: str) -> PlaceTree:
    """The persona's ``{sector: {arena: [objects]}}`` of ``world``."""
    places = persona.s_mem
    return {
        sector: {arena: places.objects(f"{world}:{sector}:{arena}") for arena in places.arenas(f"{world}:{sector}")}
        for sector in places.sectors(world)
    }


def _as_details(p: PackedAction) -> tuple[Place, ActionDetails]:
    return Place(p.address), ActionDetails(
        p.pronunciatio, Event(*p.event), p.obj_description, p.obj_pronunciatio, Event(*p.obj_event)
    )


def _standpoint(persona: Agent, maze: Maze) -> Standpoint:
    """The persona, where it lives and stands now, its plan for the day and the places it knows."""
    s = persona.scratch
    here, world, living_sector = whereabouts(persona, maze)
    return Standpoint(
        name=s.persona_name(),
        world=world,
        living_sector=living_sector,
        current_sector=here["sector"],
        daily_plan_req=s.daily_plan_req or "",
        places=_known_places(persona, world),
    )


def packed_address_and_details(
    persona: Agent, maze: Maze, description: str, llm: LanguageModel
) -> tuple[Place, ActionDetails]:
    """The address and details the faithful 8-call pipeline would give, from one call."""
    at = _standpoint(persona, maze)
    return _as_details(packed_action(llm, at, description, living_area=persona.scratch.living_area or ""))


def answer_ahead(persona: Agent, maze: Maze, descriptions: list[str], llm: LanguageModel) -> None:
    """Where and how each of ``descriptions`` (subtasks of one decomposed plan item) happens,
    asked in one call from where the persona is now and kept in today's answers, as a single
    call's answer is kept; each action finds its answer there when it starts. Subtasks the call
    did not answer validly are left out (each asks ``action_packed`` when it starts)."""
    found = actions_packed(llm, _standpoint(persona, maze), descriptions)
    cache, shown = persona.memory.todays_answers(), places_shown(persona)
    for description, p in found.items():
        address, details = _as_details(p)
        cache.remember_action(description, shown, address.text, asdict(details))
