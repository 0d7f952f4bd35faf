"""Plan: the day when it starts, the next action when one ends, reactions every step (docs/LOOP.md §6).

A step plans its own part first (:func:`plan_own`), then reacts (:func:`plan_reaction`)."""

from __future__ import annotations

from reverie.address import Address
from reverie.persona.agent import Agent
from reverie.persona.plan_action import determine_action
from reverie.persona.plan_day import plan_new_day
from reverie.persona.react import chat_react, choose_retrieved, should_react, wait_react
from reverie.persona.reactions import ChatWith, WaitUntil
from reverie.persona.step import NewDay, StepContext


def plan_own(persona: Agent, ctx: StepContext) -> None:
    """The day when it starts, the next action when one ends: the persona's own memory and the map only."""
    if ctx.new_day is not NewDay.SAME:
        plan_new_day(persona, ctx.new_day, ctx.llm)
    if persona.scratch.act_check_finished():
        determine_action(persona, ctx.maze, ctx.llm)


def plan_reaction(persona: Agent, ctx: StepContext, retrieved: dict) -> Address:
    """React to what was perceived (it reads, and a conversation writes, another persona); the address
    the persona is heading to this step."""
    s, llm = persona.scratch, ctx.llm
    focused = choose_retrieved(persona, retrieved, ctx.rng, ctx.personas) if retrieved else None
    if focused is not None:
        match should_react(persona, focused, ctx.personas, llm):
            case ChatWith(partner):
                chat_react(ctx.maze, persona, ctx.personas[partner], llm)
            case WaitUntil() as wait:
                wait_react(persona, wait, llm)

    s.end_chat_state()
    return s.address()
