"""Storing new thoughts: their triple, importance and a 30-day expiry (reflection, chats, history).

A thought's poignancy is asked with the persona's other new memories
(``reverie/persona/ratings.py``): when something reads it, or, with deferring off, at once, in
one call for thoughts that arrive together (a reflection's insights, the two notes at a chat's
end, a persona's whispers). Each is rated on its own text, or on its ``score_text``.

A thought's triple is asked with ``event_triple``, one call per thought, the calls of thoughts that
arrive together in flight together (``reverie.llm.side_by_side``). In packed mode a
thought's triple is asked once: a thought whose triple came with it (``NewThought.triple``: the
packed conversation's end writes the two thoughts' triples in their own reply, a packed
reflection's insights reply each insight's) asks none, nor does one whose triple that reply got
wrong (``NewThought.triple_asked``); other thoughts that arrive together ask for their triples
in one call (``thought_triples``); a thought alone asks ``event_triple``. A triple the one ask left invalid is ``event_triple``'s fail-safe, logged.

A thought is found by its triple's words (keyword retrieval), as in the original, except that the
predicate of a fail-safe kept that way is left out (:class:`ThoughtTriple`): the model gave no
verb, and the fail-safe's "is" would find the thought for nearly every perceived event, whose
predicate is mostly "is".
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from reverie.llm.side_by_side import side_by_side
from reverie.memory.associative import NewMemory
from reverie.memory.concept_node import NodeKind
from reverie.memory.event import Event
from reverie.persona.agent import Agent
from reverie.persona.ratings import PROVISIONAL, rate_when_due, wait_for_rating
from reverie.tasks.event_triple import thought_fail_safe, thought_triple
from reverie.tasks.thought_triples import statement_of, thought_triples

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.memory.concept_node import ConceptNode


log = logging.getLogger("reverie.persona")

THOUGHT_LIFETIME = timedelta(days=30)


@dataclass(frozen=True)
class NewThought:
    text: str
    evidence: list = field(default_factory=list)
    score_text: str | None = None  # what its poignancy is judged on (default the thought)
    triple: tuple[str, str, str] | None = None  # its triple, when the call that wrote it gave one
    triple_asked: bool = False  # the call that wrote it asked for its triple (packed mode: asked once)

    def rated(self) -> str:
        return self.score_text or self.text


def add_thought(
    persona: Agent,
    llm: LanguageModel,
    text: str,
    evidence: list,
    *,
    score_text: str | None = None,
    now: datetime | None = None,
) -> ConceptNode:
    """A thought node; ``score_text`` (default the thought) is what its poignancy is judged on."""
    return add_thoughts(persona, llm, [NewThought(text, list(evidence), score_text)], now=now)[0]


def add_thoughts(
    persona: Agent, llm: LanguageModel, thoughts: list[NewThought], *, now: datetime | None = None
) -> list[ConceptNode]:
    """Thought nodes, in order; their poignancy is asked with the other new memories (see above)."""
    nodes = store_thoughts(persona, thoughts, triples_of(persona, llm, thoughts), now=now)
    rate_when_due(persona, llm)
    return nodes


def store_thoughts(
    persona: Agent, thoughts: list[NewThought], triples: list[ThoughtTriple], *, now: datetime | None = None
) -> list[ConceptNode]:
    """Thought nodes for ``thoughts`` with their ``triples`` (asked before): no model call, so a
    caller can ask everything first and store it all or nothing (a history load)."""
    nodes = []
    for thought, triple in zip(thoughts, triples):
        created = now or persona.scratch.now()  # read here: storing no thought needs no time
        node = persona.a_mem.add(
            NewMemory(
                kind=NodeKind.THOUGHT,
                created=created,
                expiration=created + THOUGHT_LIFETIME,
                event=triple.event,
                description=thought.text,
                keywords=triple.keywords(),
                poignancy=PROVISIONAL,
                embedding_key=thought.text,
                filling=list(thought.evidence),
            )
        )
        wait_for_rating(persona, node, thought.rated())
        nodes.append(node)
    return nodes


class ThoughtTriple(NamedTuple):
    event: Event
    fail_safe: bool = False  # kept without an answer that passed the checks (packed mode's one ask)

    def keywords(self) -> set[str]:
        """The words keyword retrieval finds the thought by: its subject, predicate and object, the
        fail-safe's without its predicate (see the module's docstring)."""
        words = (self.event.subject, self.event.object) if self.fail_safe else tuple(self.event)
        # A triple with a None in it is refused by AssociativeMemory.add, so leaving it out changes no node.
        return {word for word in words if word is not None}


def triples_of(persona: Agent, llm: LanguageModel, thoughts: list[NewThought]) -> list[ThoughtTriple]:
    """Each thought's triple, in order (see the module's docstring for what is asked)."""
    s = persona.scratch  # its name is read where a call or a triple needs it
    if not persona.options.packed_actions:  # one call a thought, asked together (none needs another's)
        asks: list[Callable[[], tuple[str, str, str]]] = [
            partial(thought_triple, llm, name=s.persona_name(), thought=thought.text)
            for thought in thoughts
            if not thought.triple  # the same test as the line below, so each answer meets its thought
        ]
        asked = iter(side_by_side(llm, asks))
        return [ThoughtTriple(Event(*(thought.triple or next(asked)))) for thought in thoughts]
    unasked = [thought.triple is None and not thought.triple_asked for thought in thoughts]
    texts = [thought.text for thought, ask in zip(thoughts, unasked) if ask]
    together = len({statement_of(s.persona_name(), text) for text in texts}) > 1
    answered = iter(thought_triples(llm, name=s.persona_name(), thoughts=texts) if together else [])
    triples = []
    for thought, ask in zip(thoughts, unasked):
        if thought.triple is not None:
            triples.append(ThoughtTriple(Event(*thought.triple)))
        elif ask and not together:
            triples.append(ThoughtTriple(Event(*thought_triple(llm, name=s.persona_name(), thought=thought.text))))
        else:
            triple = next(answered) if ask else None
            if triple is None:
                log.info(
                    "%s's thought %r: the fail-safe triple (its one ask gave none that passed the checks)",
                    s.name,
                    thought.text[:80],
                )
                triples.append(ThoughtTriple(Event(*thought_fail_safe(s.persona_name(), thought.text)), fail_safe=True))
            else:
                triples.append(ThoughtTriple(Event(*triple)))
    return triples
