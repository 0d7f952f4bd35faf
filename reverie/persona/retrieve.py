"""Retrieve: the thin layer between cognition and memory's retrieval (docs/LOOP.md §5)."""

from __future__ import annotations

from reverie.persona.agent import Agent


def retrieve_perceived(persona: Agent, perceived: list) -> dict:
    """Keyword retrieval for newly perceived events: ``{description: {curr_event, events, thoughts}}``.

    Memory lower-cases keywords at lookup too (the original's case bug is fixed there).
    """
    return persona.a_mem.retrieve_events_thoughts(perceived)


def retrieve_scored(persona: Agent, focal_points: list[str], n: int = 30) -> dict:
    """Scored retrieval (recency, importance, relevance): ``{focal_point: [nodes]}``.

    Recency ranks the most recently accessed memories first (memory fixes the original's inversion).
    """
    return persona.memory.retrieve(focal_points, n)
