"""Switches of the cognitive loop that come from ``[simulation]`` (read through the LLM facade)."""

from __future__ import annotations


def _simulation(llm):
    settings = getattr(llm, "settings", None)
    return settings.simulation if settings is not None else None


def packed_mode(llm) -> bool:
    """One structured call for the whole action pipeline (``packed_actions``)."""
    sim = _simulation(llm)
    return bool(sim is not None and sim.packed_actions)


def reuse_answers(llm) -> bool:
    """Today's answers are reused for the same question (``reuse_answers``)."""
    sim = _simulation(llm)
    return sim is None or bool(sim.reuse_answers)
