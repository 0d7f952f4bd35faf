"""Storing new thoughts: their triple, importance and a 30-day expiry (reflection, chats, history).

Thoughts that arrive together (a reflection's insights, the two notes at a chat's end, a
persona's whispers) are rated in one ``events_poignancy`` call, as a step's new events are;
a lone thought keeps the single ``event_poignancy`` prompt. Each text is rated as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from reverie.memory.event import Event
from reverie.persona.agent import Agent
from reverie.tasks.event_triple import thought_triple
from reverie.tasks.events_poignancy import events_poignancy
from reverie.tasks.poignancy import event_poignancy

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.memory.concept_node import ConceptNode


THOUGHT_LIFETIME = timedelta(days=30)


@dataclass(frozen=True)
class NewThought:
    text: str
    evidence: list = field(default_factory=list)
    score_text: str | None = None  # what its poignancy is judged on (default the thought)

    def rated(self) -> str:
        return self.score_text or self.text


def add_thought(persona: Agent, llm: LanguageModel, text: str, evidence: list, *, score_text: str | None = None,
                now: datetime | None = None) -> ConceptNode:
    """A thought node; ``score_text`` (default the thought) is what its poignancy is judged on."""
    return add_thoughts(persona, llm, [NewThought(text, list(evidence), score_text)], now=now)[0]


def add_thoughts(persona: Agent, llm: LanguageModel, thoughts: list[NewThought], *,
                 now: datetime | None = None) -> list[ConceptNode]:
    """Thought nodes, in order; their poignancy asked in one call when there are two or more."""
    s = persona.scratch
    now = now or s.curr_time
    texts = [t.rated() for t in thoughts]
    if len(texts) > 1:
        scores = events_poignancy(llm, persona_name=s.name, identity=s.identity(), descriptions=texts)
    else:
        scores = [event_poignancy(llm, persona_name=s.name, identity=s.identity(), description=text) for text in texts]
    nodes = []
    for thought, poignancy in zip(thoughts, scores):
        event = Event(*thought_triple(llm, name=s.name, thought=thought.text))
        nodes.append(persona.a_mem.add_thought(created=now, expiration=now + THOUGHT_LIFETIME, event=event,
                                               description=thought.text, keywords=set(event), poignancy=int(poignancy),
                                               embedding_key=thought.text, filling=list(thought.evidence)))
    return nodes
