"""Plan: the day when it starts, the next action when one ends, reactions every step (docs/LOOP.md §6)."""

from __future__ import annotations

from reverie.persona.agent import Agent
from reverie.persona.plan_action import determine_action
from reverie.persona.plan_day import plan_new_day
from reverie.persona.react import chat_react, choose_retrieved, should_react, wait_react
from reverie.persona.reactions import ChatWith, WaitUntil
from reverie.persona.step import NewDay, Planned, Retrieved, StepContext


def plan(persona: Agent, ctx: StepContext) -> Planned:
    """Return the address the persona is heading to this step."""
    s, llm = persona.scratch, ctx.llm
    retrieved = ctx.result(Retrieved).by_event
    if ctx.new_day is not NewDay.SAME:
        plan_new_day(persona, ctx.new_day, llm)
    if s.act_check_finished():
        determine_action(persona, ctx.maze, llm)

    focused = choose_retrieved(persona, retrieved, ctx.rng, ctx.personas) if retrieved else None
    if focused is not None:
        match should_react(persona, focused, ctx.personas, llm):
            case ChatWith(partner):
                chat_react(ctx.maze, persona, ctx.personas[partner], llm)
            case WaitUntil() as wait:
                wait_react(persona, wait, llm)

    s.end_chat_state()
    return Planned(s.address())
