"""Retrieve: the thin layer between cognition and memory's retrieval (docs/LOOP.md §5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reverie.persona.agent import Agent
from reverie.persona.ratings import rate_waiting
from reverie.persona.step import Perceived, Retrieved, StepContext

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel


def retrieve(persona: Agent, ctx: StepContext) -> Retrieved:
    """Keyword retrieval for the events perceived this step: ``{description: {curr_event, events, thoughts}}``.

    Memory lower-cases keywords at lookup too (docs/FIDELITY.md).
    """
    return Retrieved(persona.a_mem.retrieve_events_thoughts(ctx.result(Perceived).nodes))


def retrieve_scored(persona: Agent, llm: LanguageModel, focal_points: list[str], n: int = 30) -> dict:
    """Scored retrieval (recency, importance, relevance): ``{focal_point: [nodes]}``. Memories
    still waiting for their poignancy are rated first (importance reads it).

    Recency ranks the most recently accessed memories first (docs/FIDELITY.md).
    """
    rate_waiting(persona, llm)
    return persona.memory.retrieve(focal_points, n)
