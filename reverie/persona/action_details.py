"""How an action looks to the world: emoji, event triple, the used object's state (docs/LOOP.md §6.2 step 7)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reverie.address import Place
from reverie.llm.side_by_side import side_by_side
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
    """The action's emoji and triple, and its object's state, emoji and triple: the emoji, the triple
    and the object's state need only the action, the object's emoji and triple only its state, so
    each of those sets is asked together (:func:`reverie.llm.side_by_side.side_by_side`)."""
    s = persona.scratch
    obj = address.object
    used = bool(obj) and not address.is_random

    def object_details() -> tuple[str, str, Event]:
        obj_desc = act_obj_desc(llm, object_name=obj, name=s.persona_name(), action_description=description)
        obj_asks: list[Callable[[], Any]] = [
            lambda: pronunciatio(llm, action_description=obj_desc, persona=s.name),
            lambda: act_obj_event_triple(llm, object_name=obj, object_description=obj_desc, persona=s.name),
        ]
        obj_emoji, obj_triple = side_by_side(llm, obj_asks)
        return obj_desc, obj_emoji, Event(*obj_triple)

    asks: list[Callable[[], Any]] = [
        lambda: pronunciatio(llm, action_description=description, persona=s.name),
        lambda: event_triple(llm, name=s.persona_name(), action_description=description),
    ]
    emoji, triple, *of_object = side_by_side(llm, asks + ([object_details] if used else []))
    event = Event(*triple)
    if not of_object:
        return ActionDetails(emoji, event, None, None, NO_EVENT)
    obj_desc, obj_emoji, obj_event = of_object[0]
    return ActionDetails(emoji, event, obj_desc, obj_emoji, obj_event)
