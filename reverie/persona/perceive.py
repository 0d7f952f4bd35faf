"""Perceive: learn the nearby places, notice nearby events, store the new ones (docs/LOOP.md §4)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from reverie.action_text import is_decomposed, subtask
from reverie.memory.associative import NewMemory
from reverie.memory.concept_node import NodeKind
from reverie.memory.day_cache import poignancy_key
from reverie.memory.event import Event
from reverie.persona.agent import Agent
from reverie.persona.ratings import PROVISIONAL, known_today, rate_when_due, wait_for_rating
from reverie.persona.sleep import asleep
from reverie.persona.step import Perceived, StepContext
from reverie.tasks.poignancy import chat_poignancy

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.memory.concept_node import ConceptNode


MUNDANE = 1


def perceive(persona: Agent, ctx: StepContext) -> Perceived:
    """Update spatial memory, then return the newly stored event nodes (max ``att_bandwidth``);
    their poignancy is asked when due (``reverie/persona/ratings.py``)."""
    s, maze, llm = persona.scratch, ctx.maze, ctx.llm
    here = s.here()
    learned = (tuple(here), s.vision_r)
    if persona.learned_from != learned:  # standing still, nothing new to learn of the places
        for tile in maze.get_nearby_tiles(here, s.vision_r):
            persona.s_mem.learn_tile(tile, maze.access_tile(tile))
        persona.learned_from = learned

    seen: dict[tuple, float] = {}
    for tile, distance in maze.arena_view(here, s.vision_r):
        for event in maze.access_tile(tile)["events"]:
            if event not in seen or distance < seen[event]:
                seen[event] = distance
    # Nearest first; ties broken by text so the order never depends on set iteration.
    events = sorted(seen, key=lambda e: (seen[e], str(e)))[: s.att_bandwidth]

    recent = persona.a_mem.get_summarized_latest_events(s.retention)
    new: list[tuple[Event, str]] = []
    for tile_event in events:
        event, desc = as_perceived(tile_event)
        if event in recent:
            continue
        new.append((event, desc))
    nodes = [remember_event(persona, llm, event, desc) for event, desc in new]
    rate_when_due(persona, llm)
    return Perceived(nodes)


def as_perceived(tile_event: tuple) -> tuple[Event, str]:
    """A tile's event as a perceiving persona stores it: its triple and description."""
    subject, predicate, obj, desc = tile_event
    if predicate is None:
        predicate, obj, desc = "is", "idle", "idle"
    return Event(subject, predicate, obj), f"{subject.split(':')[-1]} is {desc}"


def known(persona: Agent, tile_event: tuple) -> bool:
    """Whether ``persona`` would skip ``tile_event`` as one of its newest events (not perceived anew)."""
    return as_perceived(tile_event)[0] in persona.a_mem.get_summarized_latest_events(persona.scratch.retention)


def _key(desc: str) -> str:
    return subtask(desc) if is_decomposed(desc) else desc


def _needs_rating(persona: Agent, event: Event) -> bool:
    return not (event.is_idle or asleep(persona.scratch))


def remember_event(persona: Agent, llm: LanguageModel, event: Event, desc: str) -> ConceptNode:
    """Store a perceived event. Its poignancy is mundane in sleep or for an idle thing, today's
    score for a text rated today, else asked later with other new memories (``ratings``).

    The persona's own conversation is kept as a chat memory too. The original rates it with a
    prompt of its own (``chat_poignancy``, kept with ``defer_ratings = false``); deferred, it waits
    with its event and takes the event's score, one text in the list (docs/FIDELITY.md)."""
    s = persona.scratch
    if event.subject is None or event.object is None:
        raise ValueError(f"{s.name} perceived {tuple(event)}: no subject or object to remember it by")
    keywords = {event.subject.split(":")[-1], event.object.split(":")[-1]}
    key = _key(desc)
    known = MUNDANE if not _needs_rating(persona, event) else known_today(persona, key)
    memory = NewMemory(
        kind=NodeKind.EVENT,
        created=s.now(),
        event=event,
        description=desc,
        keywords=keywords,
        poignancy=PROVISIONAL if known is None else known,
        embedding_key=key,
        filling=[],
    )

    if event.subject == s.name and event.is_chat:
        # The persona's own conversation: keep the transcript as a chat memory first.
        summary = s.act_description or "a conversation"
        deferred = persona.options.defer_ratings
        if deferred:  # it takes the score of its event, which says the same ("X is conversing about ...")
            chat_score = memory.poignancy
        else:
            chat_score = rated(
                persona,
                llm,
                "chat",
                summary,
                lambda: chat_poignancy(
                    llm, persona_name=s.persona_name(), identity=persona.identity(), description=summary
                ),
            )
        chat = persona.a_mem.add(
            replace(
                memory,
                kind=NodeKind.CHAT,
                description=summary,
                poignancy=chat_score,
                embedding_key=summary,
                filling=list(s.chat or []),
            )
        )
        if deferred and known is None:
            wait_for_rating(persona, chat, key)
        memory = replace(memory, filling=[chat.node_id])

    node = persona.a_mem.add(memory)
    if known is None:
        wait_for_rating(persona, node, key)
    else:
        s.count_importance(known)
    return node


def rated(persona: Agent, llm: LanguageModel, kind: str, description: str, ask: Callable[[], int]) -> int:
    """The poignancy of ``description``: asked once a day, then remembered."""
    table = persona.memory.todays_answers().poignancy
    key = poignancy_key(kind, description)
    if key not in table or not persona.options.reuse_answers:
        table[key] = int(ask())
    return table[key]
