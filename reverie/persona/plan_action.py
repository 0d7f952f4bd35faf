"""Choosing the next action when the current one has finished (docs/LOOP.md §6.2)."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING

from reverie.action_text import SleepWords, is_decomposed, main_action
from reverie.address import Place
from reverie.clock import ceil_minute, minutes_of_day
from reverie.memory.schedule import PlanItem
from reverie.memory.scratch import NewAction
from reverie.persona.action_details import ActionDetails, describe_action
from reverie.persona.agent import Agent
from reverie.persona.events import event_action
from reverie.persona.location import choose_address, places_shown
from reverie.persona.packed_action import answer_ahead, packed_address_and_details
from reverie.persona.sleep import sleep_action
from reverie.tasks.clock import format_minute
from reverie.tasks.task_decomp import describe_schedule, task_decomp

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.world.maze import Maze


DAY_MINUTES = 24 * 60


def should_decompose(description: str, minutes: int) -> bool:
    """Break an hourly block into subtasks unless it is sleep (short bed-related blocks are)."""
    words = SleepWords.read(description)
    if not words.bedtime:
        return True
    if words.in_bed:
        return False
    return minutes <= 60


def decompose(persona: Agent, index: int, llm: LanguageModel) -> None:
    """Replace ``f_daily_schedule[index]`` by its subtasks when it is long and decomposable."""
    s = persona.scratch
    if not 0 <= index < len(s.f_daily_schedule):
        return
    task, minutes = s.f_daily_schedule[index]
    if minutes < 60 or not should_decompose(task, minutes) or is_decomposed(task):
        return  # a "<task> (<subtask>)" entry is already decomposed, however long a subtask came back
    start = s.schedule_start_minutes(index)
    blocks, t = [], start
    for name, dur in s.f_daily_schedule[index : index + 3]:
        blocks.append((t, t + dur, name))
        t += dur
    context = describe_schedule(s.now().strftime("%B %d, %Y"), s.persona_name(), blocks)
    first_name = s.first_name
    if first_name is None:
        raise s.missing("first_name")
    steps = task_decomp(
        llm,
        identity=s.identity(),
        schedule_context=context,
        first_name=first_name,
        task=task,
        time_range=f"{format_minute(start)} ~ {format_minute(start + minutes)}",
        duration=minutes,
        persona=s.name,
    )
    s.replace_schedule(index, index + 1, ((name, int(dur)) for name, dur in steps))


def answer_together(persona: Agent, maze: Maze, index: int, llm: LanguageModel) -> None:
    """Packed mode: when ``f_daily_schedule[index]``, about to start, is a subtask with no answer
    yet today, where and how it and the rest of its item's subtasks happen, in one call when
    two or more are unanswered (kept in today's answers, where ``address_and_details`` finds
    them; one alone takes the single call there)."""
    s = persona.scratch
    if not (persona.options.packed_actions and persona.options.reuse_answers):
        return
    description = s.f_daily_schedule[index][0]
    if not is_decomposed(description):
        return
    task = main_action(description)
    following = []
    for name, _minutes in s.f_daily_schedule[index:]:
        if not is_decomposed(name) or main_action(name) != task:
            break
        following.append(name)
    unanswered = [d for d in dict.fromkeys(following) if answered_without_model(persona, maze, d) is None]
    if len(unanswered) > 1 and unanswered[0] == description:  # the one starting has no answer yet
        answer_ahead(persona, maze, unanswered, llm)


def determine_action(persona: Agent, maze: Maze, llm: LanguageModel) -> None:
    """Decompose what is coming, pick the current entry, find where and how to do it."""
    s = persona.scratch
    i = s.get_f_daily_schedule_index()
    i60 = s.get_f_daily_schedule_index(60)
    if i == 0:
        decompose(persona, i, llm)
        i60 = s.get_f_daily_schedule_index(60)
        decompose(persona, i60 + 1, llm)
    if i60 < len(s.f_daily_schedule) and s.now().hour < 23:
        decompose(persona, i60, llm)

    # Sleep fills the day only where minutes are missing (docs/FIDELITY.md).
    missing = DAY_MINUTES - sum(d for _t, d in s.f_daily_schedule)
    if missing > 0:
        end = len(s.f_daily_schedule)
        s.replace_schedule(end, end, [PlanItem("sleeping", missing)])

    i = min(s.get_f_daily_schedule_index(), len(s.f_daily_schedule) - 1)
    description, minutes = s.f_daily_schedule[i]
    block_end = s.schedule_start_minutes(i) + minutes
    # The action lasts until its schedule block ends (started mid-block, it does not overrun).
    duration = max(1, round(block_end - minutes_of_day(ceil_minute(s.now()))))

    answer_together(persona, maze, i, llm)
    address, details = address_and_details(persona, maze, description, llm)
    s.add_new_action(
        NewAction(
            address=address,
            duration=duration,
            description=description,
            pronunciatio=details.pronunciatio,
            event=details.event,
            obj_description=details.obj_description,
            obj_pronunciatio=details.obj_pronunciatio,
            obj_event=details.obj_event,
        )
    )


def answered_without_model(persona: Agent, maze: Maze, description: str) -> tuple[Place, ActionDetails] | None:
    """Where and how, when no model call is needed: sleep in one's bed; a planned event's place;
    today's answer for the same description, while the places it was chosen from are unchanged."""
    sleeping = sleep_action(persona, description)
    if sleeping:
        return sleeping
    planned = event_action(persona, description)
    if planned and planned[0].text in maze.address_tiles:
        return planned
    cache = persona.memory.todays_answers()
    hit = cache.action(description, places_shown(persona)) if persona.options.reuse_answers else None
    if hit and (hit["address"] in maze.address_tiles or Place(hit["address"]).is_random):
        return Place(hit["address"]), ActionDetails(**hit["details"])
    return None


def address_and_details(
    persona: Agent, maze: Maze, description: str, llm: LanguageModel
) -> tuple[Place, ActionDetails]:
    """Where and how: :func:`answered_without_model`; else the model (packed or faithful pipeline)."""
    known = answered_without_model(persona, maze, description)
    if known:
        return known
    cache = persona.memory.todays_answers()
    if persona.options.packed_actions:
        address, details = packed_address_and_details(persona, maze, description, llm)
    else:
        address = choose_address(persona, maze, description, llm)
        details = describe_action(persona, description, address, llm)
    cache.remember_action(description, places_shown(persona), address.text, asdict(details))
    return address, details
