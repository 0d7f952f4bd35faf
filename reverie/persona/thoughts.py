"""Storing a new thought: its triple, importance and a 30-day expiry (reflection, chats, history)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from reverie.memory.event import Event
from reverie.persona.agent import Agent
from reverie.tasks.event_triple import thought_triple
from reverie.tasks.poignancy import event_poignancy

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.memory.concept_node import ConceptNode


THOUGHT_LIFETIME = timedelta(days=30)


def add_thought(persona: Agent, llm: LanguageModel, text: str, evidence: list, *, score_text: str | None = None,
                now: datetime | None = None) -> ConceptNode:
    """A thought node; ``score_text`` (default the thought) is what its poignancy is judged on."""
    s = persona.scratch
    now = now or s.curr_time
    event = Event(*thought_triple(llm, name=s.name, thought=text))
    poignancy = event_poignancy(llm, persona_name=s.name, identity=s.identity(), description=score_text or text)
    return persona.a_mem.add_thought(created=now, expiration=now + THOUGHT_LIFETIME, event=event, description=text,
                                     keywords=set(event), poignancy=poignancy, embedding_key=text,
                                     filling=list(evidence))
