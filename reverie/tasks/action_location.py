"""Where an action happens: sector, arena, then game object (prompts action_sector,
action_arena, action_object).

Each answer is a ``choice_field``: the options are passed at call time, so a grammar can
only produce a known name (docs/FIDELITY.md). Other people's houses and rooms are filtered
out of the options like the original. With one option the call is skipped; with none, a sensible default is used.
"""

from __future__ import annotations

import re

from reverie.action_text import main_action, subtask
from reverie.address import RANDOM as NO_OBJECT
from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs
from reverie.tasks.common import Reply
from reverie.tasks.options import Choice, joined, keep_own_private, unique

HOUSE_MARKER = "'s house"
ROOM_MARKER = "'s room"


class SectorInputs(TaskInputs):
    name: str
    living_sector: str
    living_arenas: str
    current_sector: str
    current_arenas: str
    daily_plan_req: str
    sector_options: str
    action: str
    subtask: str


class ArenaInputs(TaskInputs):
    name: str
    sector: str
    arena_options: str
    action: str
    subtask: str


class ObjectInputs(TaskInputs):
    activity: str
    object_options: str


class SectorReply(Reply):
    sector: Choice("sectors", "one of the listed areas, copied exactly")


class ArenaReply(Reply):
    arena: Choice("arenas", "one of the listed places, copied exactly")


class ObjectReply(Reply):
    object: Choice("objects", "one of the listed objects, copied exactly")


def _first_with(options: list[str], *wanted: str) -> str | None:
    for want in wanted:
        if want and want in options:
            return want
    return None


def pick_sector(options: list[str], living_sector: str, current_sector: str) -> str:
    """Home, else where the persona is, else the first option."""
    return _first_with(options, living_sector, current_sector) or (options[0] if options else living_sector)


def sector_fail_safe(inputs: SectorInputs, choices: Choices) -> SectorReply:
    return SectorReply(
        sector=pick_sector(list(choices.get("sectors") or []), inputs.living_sector, inputs.current_sector)
    )


def pick_arena(options: list[str], name: str) -> str:
    """A place named for the persona's family ("the Lin family's house"), else the first option."""
    last = name.split()[-1:] or [""]
    own = [o for o in options if last[0] and last[0] in o]
    return own[0] if own else (options[0] if options else "")


def arena_fail_safe(inputs: ArenaInputs, choices: Choices) -> ArenaReply:
    return ArenaReply(arena=pick_arena(list(choices.get("arenas") or []), inputs.name))


def _words(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 2}


def pick_object(options: list[str], activity: str) -> str:
    """The object sharing most words with the activity (first option on a tie)."""
    words = _words(activity)
    return max(options, key=lambda o: len(_words(o) & words), default="")


def object_fail_safe(inputs: ObjectInputs, choices: Choices) -> ObjectReply:
    return ObjectReply(object=pick_object(list(choices.get("objects") or []), inputs.activity))


ACTION_SECTOR = Task("action_sector", SectorInputs, SectorReply, sector_fail_safe)
ACTION_ARENA = Task("action_arena", ArenaInputs, ArenaReply, arena_fail_safe)
ACTION_OBJECT = Task("action_object", ObjectInputs, ObjectReply, object_fail_safe)


def _last_name(name: str) -> str:
    parts = name.split()
    return parts[-1] if parts else name


def action_sector(
    llm: LanguageModel,
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
    inputs = SectorInputs(
        name=name,
        living_sector=living_sector,
        living_arenas=joined(living_arenas) or "nothing known",
        current_sector=current_sector,
        current_arenas=joined(current_arenas) or "nothing known",
        daily_plan_req=daily_plan_req.strip() or "no fixed routine",
        sector_options=joined(options),
        action=main_action(action_description),
        subtask=subtask(action_description),
    )
    sector: str = llm.ask(ACTION_SECTOR, inputs, choices={"sectors": options}, persona=name).sector
    return sector


def action_arena(llm: LanguageModel, *, name: str, action_description: str, sector: str, arenas: list[str]) -> str:
    """The arena of ``sector`` where the action happens; one of ``arenas``."""
    options = keep_own_private(unique(arenas), _last_name(name), ROOM_MARKER) or unique(arenas)
    if not options:
        return ""
    if len(options) == 1:
        return options[0]
    inputs = ArenaInputs(
        name=name,
        sector=sector,
        arena_options=joined(options),
        action=main_action(action_description),
        subtask=subtask(action_description),
    )
    arena: str = llm.ask(ACTION_ARENA, inputs, choices={"arenas": options}, persona=name).arena
    return arena


def action_object(
    llm: LanguageModel, *, action_description: str, objects: list[str], persona: str | None = None
) -> str:
    """The game object used for the action; ``"<random>"`` when the arena has no known objects."""
    options = unique(objects)
    if not options:
        return NO_OBJECT
    if len(options) == 1:
        return options[0]
    inputs = ObjectInputs(activity=subtask(action_description), object_options=joined(options))
    chosen: str = llm.ask(ACTION_OBJECT, inputs, choices={"objects": options}, persona=persona).object
    return chosen
