"""Plan: the day when it starts, the next action when one ends, reactions every step (docs/LOOP.md §6).

A step plans its own part first (:func:`plan_own`), then reacts (:func:`plan_reaction`)."""

from __future__ import annotations

from reverie.persona.agent import Agent
from reverie.persona.plan_action import determine_action
from reverie.persona.plan_day import plan_new_day
from reverie.persona.react import chat_react, choose_retrieved, should_react, wait_react
from reverie.persona.reactions import ChatWith, WaitUntil
from reverie.persona.step import NewDay, Planned, PlannedOwn, Retrieved, StepContext


def plan_own(persona: Agent, ctx: StepContext) -> PlannedOwn:
    """The day when it starts, the next action when one ends: the persona's own memory and the map only."""
    day = ctx.new_day is not NewDay.SAME
    if day:
        plan_new_day(persona, ctx.new_day, ctx.llm)
    action = persona.scratch.act_check_finished()
    if action:
        determine_action(persona, ctx.maze, ctx.llm)
    return PlannedOwn(day=day, action=action)


def plan_reaction(persona: Agent, ctx: StepContext) -> Planned:
    """React to what was perceived (it reads, and a conversation writes, another persona); the address
    the persona is heading to this step."""
    s, llm = persona.scratch, ctx.llm
    retrieved = ctx.result(Retrieved).by_event
    focused = choose_retrieved(persona, retrieved, ctx.rng, ctx.personas) if retrieved else None
    if focused is not None:
        match should_react(persona, focused, ctx.personas, llm):
            case ChatWith(partner):
                chat_react(ctx.maze, persona, ctx.personas[partner], llm)
            case WaitUntil() as wait:
                wait_react(persona, wait, llm)

    s.end_chat_state()
    return Planned(s.address())
