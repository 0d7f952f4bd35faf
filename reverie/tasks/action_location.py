"""Where an action happens: sector, arena, then game object (prompts action_sector,
action_arena, action_object).

Each answer is a ``choice_field``: the options are passed at call time, so a grammar can
only produce a known name (the original accepted invented arenas, which later crashed
``execute``). Other people's houses and rooms are filtered out of the options like the
original. With one option the call is skipped; with none, a sensible default is used.
"""

from __future__ import annotations

import re

from pydantic import ValidationInfo, field_validator

from reverie.address import RANDOM as NO_OBJECT
from reverie.llm.task import Task, choice_field, register
from reverie.tasks.action_text import main_action, subtask
from reverie.tasks.common import Reply
from reverie.tasks.options import check_choice, joined, keep_own_private, unique

HOUSE_MARKER = "'s house"
ROOM_MARKER = "'s room"


class SectorReply(Reply):
    sector: str = choice_field("sectors", description="one of the listed areas, copied exactly")

    @field_validator("sector")
    @classmethod
    def _known(cls, value: str, info: ValidationInfo) -> str:
        return check_choice(value, info, "sectors")


class ArenaReply(Reply):
    arena: str = choice_field("arenas", description="one of the listed places, copied exactly")

    @field_validator("arena")
    @classmethod
    def _known(cls, value: str, info: ValidationInfo) -> str:
        return check_choice(value, info, "arenas")


class ObjectReply(Reply):
    object: str = choice_field("objects", description="one of the listed objects, copied exactly")

    @field_validator("object")
    @classmethod
    def _known(cls, value: str, info: ValidationInfo) -> str:
        return check_choice(value, info, "objects")


def _first_with(options: list[str], *wanted: str) -> str | None:
    for want in wanted:
        if want and want in options:
            return want
    return None


def sector_fail_safe(inputs: dict, choices: dict) -> SectorReply:
    options = list(choices.get("sectors") or [])
    pick = _first_with(options, inputs.get("living_sector", ""), inputs.get("current_sector", ""))
    return SectorReply(sector=pick or (options[0] if options else str(inputs.get("living_sector", ""))))


def arena_fail_safe(inputs: dict, choices: dict) -> ArenaReply:
    options = list(choices.get("arenas") or [])
    last = str(inputs.get("name", "")).split()[-1:] or [""]
    own = [o for o in options if last[0] and last[0] in o]
    return ArenaReply(arena=own[0] if own else (options[0] if options else ""))


def _words(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 2}


def object_fail_safe(inputs: dict, choices: dict) -> ObjectReply:
    """The object sharing most words with the activity (first option on a tie)."""
    options = list(choices.get("objects") or [])
    activity = _words(str(inputs.get("activity", "")))
    best = max(options, key=lambda o: len(_words(o) & activity), default="")
    return ObjectReply(object=best)


register(Task(name="action_sector", schema=SectorReply, fail_safe=sector_fail_safe,
              used_in="plan: choosing the next action (which sector to go to)"))
register(Task(name="action_arena", schema=ArenaReply, fail_safe=arena_fail_safe,
              used_in="plan: choosing the next action (which arena of the sector)"))
register(Task(name="action_object", schema=ObjectReply, fail_safe=object_fail_safe,
              used_in="plan: choosing the next action (which game object of the arena)"))


def _last_name(name: str) -> str:
    parts = name.split()
    return parts[-1] if parts else name


def action_sector(
    llm,
    *,
    name: str,
    action_description: str,
    living_sector: str,
    living_arenas: list[str],
    current_sector: str,
    current_arenas: list[str],
    daily_plan_req: str,
    sectors: list[str],
) -> str:
    """The sector (of the current world) where the action happens; one of ``sectors``."""
    options = keep_own_private(unique(sectors), _last_name(name), HOUSE_MARKER)
    if not options:
        return living_sector
    if len(options) == 1:
        return options[0]
    inputs = {
        "name": name,
        "living_sector": living_sector,
        "living_arenas": joined(living_arenas) or "nothing known",
        "current_sector": current_sector,
        "current_arenas": joined(current_arenas) or "nothing known",
        "daily_plan_req": daily_plan_req.strip() or "no fixed routine",
        "sector_options": joined(options),
        "action": main_action(action_description),
        "subtask": subtask(action_description),
    }
    return llm.ask("action_sector", inputs, choices={"sectors": options}, persona=name).sector


def action_arena(llm, *, name: str, action_description: str, sector: str, arenas: list[str]) -> str:
    """The arena of ``sector`` where the action happens; one of ``arenas``."""
    options = keep_own_private(unique(arenas), _last_name(name), ROOM_MARKER) or unique(arenas)
    if not options:
        return ""
    if len(options) == 1:
        return options[0]
    inputs = {
        "name": name,
        "sector": sector,
        "arena_options": joined(options),
        "action": main_action(action_description),
        "subtask": subtask(action_description),
    }
    return llm.ask("action_arena", inputs, choices={"arenas": options}, persona=name).arena


def action_object(llm, *, action_description: str, objects: list[str], persona: str | None = None) -> str:
    """The game object used for the action; ``"<random>"`` when the arena has no known objects."""
    options = unique(objects)
    if not options:
        return NO_OBJECT
    if len(options) == 1:
        return options[0]
    inputs = {"activity": subtask(action_description), "object_options": joined(options)}
    return llm.ask("action_object", inputs, choices={"objects": options}, persona=persona).object
