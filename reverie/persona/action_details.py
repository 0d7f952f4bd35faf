"""How an action looks to the world: emoji, event triple, the used object's state (docs/LOOP.md §6.2 step 7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reverie.address import Place
from reverie.memory.event import NO_EVENT, Event
from reverie.persona.agent import Agent
from reverie.tasks.event_triple import act_obj_event_triple, event_triple
from reverie.tasks.object_state import act_obj_desc
from reverie.tasks.pronunciatio import pronunciatio

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel


@dataclass
class ActionDetails:
    pronunciatio: str
    event: Event
    obj_description: str | None
    obj_pronunciatio: str | None
    obj_event: Event

    def __post_init__(self) -> None:
        # Read back from the day's answers (day_cache.json) the triples are lists.
        self.event, self.obj_event = Event(*self.event), Event(*self.obj_event)


def describe_action(persona: Agent, description: str, address: Place, llm: LanguageModel) -> ActionDetails:
    s = persona.scratch
    emoji = pronunciatio(llm, action_description=description, persona=s.name)
    event = Event(*event_triple(llm, name=s.name, action_description=description))
    obj = address.object
    if not obj or address.is_random:
        return ActionDetails(emoji, event, None, None, NO_EVENT)
    obj_desc = act_obj_desc(llm, object_name=obj, name=s.name, action_description=description)
    obj_emoji = pronunciatio(llm, action_description=obj_desc, persona=s.name)
    obj_event = Event(*act_obj_event_triple(llm, object_name=obj, object_description=obj_desc, persona=s.name))
    return ActionDetails(emoji, event, obj_desc, obj_emoji, obj_event)
