"""Retrieve: the thin layer between cognition and memory's retrieval (docs/LOOP.md §5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reverie.persona.agent import Agent
from reverie.persona.ratings import rate_waiting

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel


def retrieve_perceived(persona: Agent, perceived: list) -> dict:
    """Keyword retrieval for newly perceived events: ``{description: {curr_event, events, thoughts}}``.

    Memory lower-cases keywords at lookup too (docs/FIDELITY.md).
    """
    return persona.a_mem.retrieve_events_thoughts(perceived)


def retrieve_scored(persona: Agent, llm: LanguageModel, focal_points: list[str], n: int = 30) -> dict:
    """Scored retrieval (recency, importance, relevance): ``{focal_point: [nodes]}``. Memories
    still waiting for their poignancy are rated first (importance reads it).

    Recency ranks the most recently accessed memories first (docs/FIDELITY.md).
    """
    rate_waiting(persona, llm)
    return persona.memory.retrieve(focal_points, n)
