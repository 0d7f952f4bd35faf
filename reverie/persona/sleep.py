"""Sleep costs no model call: a sleeping persona is in its own bed and notices nothing.

A schedule entry whose activity is sleep ("sleeping", "asleep", "sleep") becomes the
action below without the location and description prompts, when the persona knows a bed
in its living area. While the action lasts, what the persona perceives is remembered as
mundane (poignancy 1) instead of being rated by the model, and it does not react
(:func:`reverie.persona.react` already lets nobody talk to or wait for a sleeper).
"""

from __future__ import annotations

from datetime import datetime

from reverie.action_text import SleepWords
from reverie.address import Place
from reverie.memory.event import Event
from reverie.memory.scratch import Scratch
from reverie.persona.action_details import ActionDetails
from reverie.persona.agent import Agent

SLEEP_EMOJI = "\U0001f634"
BED_EMOJI = "\U0001f6cf\ufe0f"
BED_STATE = "being slept in"


def is_sleep(description: str | None) -> bool:
    """The activity (the part before a "(subtask)") is sleeping."""
    return SleepWords.read(description).activity


def asleep(scratch: Scratch) -> bool:
    """The persona's current action is sleep."""
    return bool(scratch.act_address) and is_sleep(scratch.act_description)


def lies_still_until(s: Scratch) -> datetime | None:
    """Until when a persona stays on its tile whatever happens around it (None: it may move at its
    next step). While its action says "sleeping" it neither reacts nor may be talked to or waited
    for (:mod:`reverie.persona.react`); with no path left to walk and a fixed place (not a wander),
    nothing but the action's end (or a new day) moves it."""
    if not SleepWords.read(s.act_description).sleeping or s.chatting_with or s.planned_path or not s.act_path_set:
        return None
    address = s.address()
    if not isinstance(address, Place) or address.is_random:
        return None
    return s.act_end_time()


def sleep_action(persona: Agent, description: str) -> tuple[Place, ActionDetails] | None:
    """The address and details of sleeping in the persona's bed (None: no bed known at home)."""
    s = persona.scratch
    if not is_sleep(description) or not s.living_area or len(Place(s.living_area).parts) != 3:
        return None
    # A bed is an object of the home arena whose name has the word "bed" (the town's own names).
    beds = [obj for obj in persona.s_mem.objects(s.living_area) if "bed" in obj.lower().split()]
    if not beds:
        return None
    bed = "bed" if "bed" in beds else beds[0]
    details = ActionDetails(
        SLEEP_EMOJI, Event(s.name, "is", "sleeping"), BED_STATE, BED_EMOJI, Event(bed, "is", BED_STATE)
    )
    return Place(f"{s.living_area}:{bed}"), details
