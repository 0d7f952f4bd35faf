"""When a new memory's poignancy is asked: when something first reads it, many at once.

The original asks each new event's and thought's score as it is stored. A score is read in
two places only: scored retrieval (a memory's importance) and the reflection trigger (the sum
of the events' scores since the last reflection). So a new memory is stored with a
provisional score and waits (:mod:`reverie.memory.unrated`), and the waiting ones are rated
together, one ``events_poignancy`` call for up to ``MAX_EVENTS`` (one alone keeps the single
``event_poignancy`` prompt):

- before any scored retrieval (:func:`reverie.persona.retrieve.retrieve_scored`);
- at the end of perception, when the waiting events could bring on a reflection even if each
  scored the most, and the oldest of them has waited :data:`REFLECTION_WAIT` of game time, so
  a reflection starts at most that much later than it would have with every score known (the
  events of those minutes are rated in the same call instead of one call a step);
- at the end of perception, when ``MAX_EVENTS`` wait.

With ``[simulation] defer_ratings = false`` they are rated where they were stored: a step's
new events together at the end of perception, thoughts that arrive together in one call.
An event whose text was rated today takes that score at once (``reuse_answers``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from reverie.memory.day_cache import poignancy_key
from reverie.persona.agent import Agent
from reverie.tasks.events_poignancy import MAX_EVENTS, events_poignancy
from reverie.tasks.poignancy import FAIL_SAFE_RATING, event_poignancy

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.memory.concept_node import ConceptNode

# The score a waiting memory holds until it is rated (nothing reads it before).
PROVISIONAL = FAIL_SAFE_RATING
# The highest score a rating can give (the scale's top).
MAX_SCORE = 10
# How long waiting events may wait when only the reflection trigger would read their scores:
# the most a reflection starts later than with every score known at once.
REFLECTION_WAIT = timedelta(minutes=5)


def known_today(persona: Agent, text: str) -> int | None:
    """The score an event's ``text`` got today, when answers are reused."""
    if not persona.options.reuse_answers:
        return None
    return persona.memory.todays_answers().poignancy.get(poignancy_key("event", text))


def wait_for_rating(persona: Agent, node: ConceptNode, text: str) -> None:
    """``node`` (stored with :data:`PROVISIONAL`) is rated on ``text`` later."""
    persona.memory.unrated.add(node.node_id, text)


def reflection_reachable(persona: Agent) -> bool:
    """Could the waiting events, each scored :data:`MAX_SCORE`, bring the reflection trigger to 0,
    and has the oldest of them waited :data:`REFLECTION_WAIT` of game time?"""
    a_mem = persona.a_mem
    stored = [
        node.created
        for node_id in persona.memory.unrated.texts
        if (node := a_mem.id_to_node.get(node_id)) is not None and node.type == "event"
    ]
    s = persona.scratch
    return (
        bool(stored)
        and s.importance_trigger_curr - MAX_SCORE * len(stored) <= 0
        and s.now() - min(stored) >= REFLECTION_WAIT
    )


def rate_when_due(persona: Agent, llm: LanguageModel) -> None:
    """Rate the waiting memories now if deferring is off, ``MAX_EVENTS`` wait, or a reflection is
    reachable and the oldest waiting event has waited :data:`REFLECTION_WAIT`."""
    waiting = len(persona.memory.unrated)
    if waiting and (not persona.options.defer_ratings or waiting >= MAX_EVENTS or reflection_reachable(persona)):
        rate_waiting(persona, llm)


def rate_waiting(persona: Agent, llm: LanguageModel) -> None:
    """Ask the scores of every waiting memory (each distinct text once) and store them; an event's
    score counts toward the reflection trigger and is kept in today's answers."""
    waiting = persona.memory.unrated.take()
    nodes = [
        (node, text) for node_id, text in waiting.items() if (node := persona.a_mem.id_to_node.get(node_id)) is not None
    ]
    if not nodes:
        return
    texts = list(dict.fromkeys(text for _node, text in nodes))
    s = persona.scratch
    if len(texts) == 1:
        scores = [
            event_poignancy(llm, persona_name=s.persona_name(), identity=persona.identity(), description=texts[0])
        ]
    else:
        scores = events_poignancy(llm, persona_name=s.persona_name(), identity=persona.identity(), descriptions=texts)
    by_text = {text: int(score) for text, score in zip(texts, scores)}
    table = persona.memory.todays_answers().poignancy
    for node, text in nodes:
        persona.a_mem.set_poignancy(node, by_text[text])
        if node.type == "event":
            table[poignancy_key("event", text)] = node.poignancy
            s.count_importance(node.poignancy)
