"""Plan: the day when it starts, the next action when one ends, reactions every step (docs/LOOP.md §6)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from reverie.address import Address
from reverie.memory.scratch import Scratch
from reverie.persona.agent import Agent
from reverie.persona.plan_action import determine_action
from reverie.persona.plan_day import plan_new_day
from reverie.persona.react import chat_react, choose_retrieved, should_react, wait_react
from reverie.persona.reactions import ChatWith, WaitUntil

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.world.maze import Maze


def plan(persona: Agent, maze: Maze, personas: dict[str, Agent], new_day: str | bool, retrieved: dict,
         llm: LanguageModel, rng: random.Random) -> Address:
    """Return the address the persona is heading to this step."""
    s = persona.scratch
    if new_day:
        plan_new_day(persona, new_day, llm)
    if s.act_check_finished():
        determine_action(persona, maze, llm)

    focused = choose_retrieved(persona, retrieved, rng) if retrieved else None
    if focused is not None:
        match should_react(persona, focused, personas, llm):
            case ChatWith(partner):
                chat_react(maze, persona, personas[partner], llm)
            case WaitUntil() as wait:
                wait_react(persona, wait, llm)

    end_chat_state(s)
    return s.address()


def end_chat_state(s: Scratch) -> None:
    """Clear chat fields once not chatting; count down the other partners' buffers."""
    if (s.act_event or [None, None])[1] != "chat with":
        s.chatting_with = None
        s.chat = None
        s.chatting_end_time = None
    for name in list(s.chatting_with_buffer):
        if name != s.chatting_with:
            # Fix: the original let the count go negative; zero already means "may talk again".
            s.chatting_with_buffer[name] = max(0, s.chatting_with_buffer[name] - 1)
