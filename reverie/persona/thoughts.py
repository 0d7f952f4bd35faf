"""Storing new thoughts: their triple, importance and a 30-day expiry (reflection, chats, history).

A thought's poignancy is asked with the persona's other new memories
(``reverie/persona/ratings.py``): when something reads it, or, with deferring off, at once, in
one call for thoughts that arrive together (a reflection's insights, the two notes at a chat's
end, a persona's whispers). Each is rated on its own text, or on its ``score_text``.

A thought's triple is asked with ``event_triple``, one call per thought; in packed mode, thoughts
that arrive together ask for their triples in one call (``thought_triples``), and a thought
left without a valid triple there is asked on its own. A thought whose triple came with it
(``NewThought.triple``: the packed conversation's end writes the two thoughts' triples in
their own reply) asks none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from reverie.memory.event import Event
from reverie.persona.agent import Agent
from reverie.persona.ratings import PROVISIONAL, rate_when_due, wait_for_rating
from reverie.tasks.event_triple import thought_triple
from reverie.tasks.thought_triples import thought_triples

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.memory.concept_node import ConceptNode


THOUGHT_LIFETIME = timedelta(days=30)


@dataclass(frozen=True)
class NewThought:
    text: str
    evidence: list = field(default_factory=list)
    score_text: str | None = None  # what its poignancy is judged on (default the thought)
    triple: tuple[str, str, str] | None = None  # its triple, when the call that wrote it gave one

    def rated(self) -> str:
        return self.score_text or self.text


def add_thought(persona: Agent, llm: LanguageModel, text: str, evidence: list, *, score_text: str | None = None,
                now: datetime | None = None) -> ConceptNode:
    """A thought node; ``score_text`` (default the thought) is what its poignancy is judged on."""
    return add_thoughts(persona, llm, [NewThought(text, list(evidence), score_text)], now=now)[0]


def add_thoughts(persona: Agent, llm: LanguageModel, thoughts: list[NewThought], *,
                 now: datetime | None = None) -> list[ConceptNode]:
    """Thought nodes, in order; their poignancy is asked with the other new memories (see above)."""
    s = persona.scratch
    now = now or s.curr_time
    nodes = []
    asked = iter(asked_together(persona, llm, [thought for thought in thoughts if thought.triple is None]))
    for thought in thoughts:
        triple = thought.triple or next(asked)
        event = Event(*(triple or thought_triple(llm, name=s.name, thought=thought.text)))
        node = persona.a_mem.add_thought(created=now, expiration=now + THOUGHT_LIFETIME, event=event,
                                         description=thought.text, keywords=set(event), poignancy=PROVISIONAL,
                                         embedding_key=thought.text, filling=list(thought.evidence))
        wait_for_rating(persona, node, thought.rated())
        nodes.append(node)
    rate_when_due(persona, llm)
    return nodes


def asked_together(persona: Agent, llm: LanguageModel, thoughts: list[NewThought]) -> list[tuple[str, str, str] | None]:
    """Each thought's triple where one call for the batch answered it (packed mode, two or more
    thoughts); None where the thought asks ``event_triple`` on its own (every thought, otherwise)."""
    if not (persona.options.packed_actions and len(thoughts) > 1):
        return [None] * len(thoughts)
    return thought_triples(llm, name=persona.scratch.name, thoughts=[thought.text for thought in thoughts])
