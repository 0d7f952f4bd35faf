"""How an action looks to the world: emoji, event triple, the used object's state (docs/LOOP.md §6.2 step 7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reverie.persona.agent import Agent
from reverie.tasks.event_triple import act_obj_event_triple, event_triple
from reverie.tasks.object_state import act_obj_desc
from reverie.tasks.pronunciatio import pronunciatio

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel


@dataclass
class ActionDetails:
    pronunciatio: str
    event: list
    obj_description: str | None
    obj_pronunciatio: str | None
    obj_event: list


def describe_action(persona: Agent, description: str, address: str, llm: LanguageModel) -> ActionDetails:
    s = persona.scratch
    emoji = pronunciatio(llm, action_description=description, persona=s.name)
    event = list(event_triple(llm, name=s.name, action_description=description))
    obj = address.split(":")[-1]
    if not obj or obj.startswith("<"):
        return ActionDetails(emoji, event, None, None, [None, None, None])
    obj_desc = act_obj_desc(llm, object_name=obj, name=s.name, action_description=description)
    obj_emoji = pronunciatio(llm, action_description=obj_desc, persona=s.name)
    obj_event = list(act_obj_event_triple(llm, object_name=obj, object_description=obj_desc,
                                                      persona=s.name))
    return ActionDetails(emoji, event, obj_desc, obj_emoji, obj_event)
