"""Places: go where the activity names (or the place whose words it shares), else stay."""

from __future__ import annotations

import re

from reverie.llm.scripted.call import ScriptedCall
from reverie.llm.scripted.cues import content_words, lines_of
from reverie.llm.scripted.habits import habits_of, kinds_of


def place_tree(places: str) -> dict[str, dict[str, list[str]]]:
    """ "area > place: object, object" lines -> {area: {place: [objects]}}."""
    tree: dict[str, dict[str, list[str]]] = {}
    for line in places.splitlines():
        found = re.match(r"\s*(.+?) > (.+?):\s*(.*)$", line)
        if found:
            objects = [
                o.strip() for o in found.group(3).split(",") if o.strip() and o.strip() != "nothing in particular"
            ]
            tree.setdefault(found.group(1).strip(), {})[found.group(2).strip()] = objects
    return tree


def best_match(options: list[str], activity: str, fallback: str | None = None) -> str | None:
    """The option the activity names, else the one sharing most words with it, else ``fallback``."""
    low = activity.lower()
    named = [o for o in options if o.lower() in low]
    if named:
        return max(named, key=len)
    words = content_words(activity)
    scored = sorted(options, key=lambda o: -len(content_words(o) & words))
    if scored and content_words(scored[0]) & words:
        return scored[0]
    return fallback if fallback in options else (options[0] if options else None)


def named_in(options: list[str], text: str) -> str | None:
    """The longest option the text names, or None."""
    low = text.lower()
    named = [o for o in options if o.lower() in low]
    return max(named, key=len) if named else None


def routine_place(options: list[str], activity: str, routine: str, name: str = "") -> str | None:
    """The place the resident's routine names for this kind of activity ("eats at <Cafe>" for a
    meal, "goes to the library at <College>" for work or study), among ``options``; None when
    the activity is of no kind the routine places."""
    kinds = kinds_of(activity)
    for habit in habits_of([routine], name):
        if kinds & habit.kinds:
            place = named_in(options, habit.doing)
            if place is not None:
                return place
    return None


def action_packed(call: ScriptedCall) -> dict:
    return _where_and_how(call, call.text("subtask"), call.choices("sector"))


def actions_packed(call: ScriptedCall) -> dict:
    """One ``action_packed`` answer per numbered subtask, as many as the call asks."""
    low, high = call.items_count("actions")
    sectors = call.choices("actions", "sector")
    answers = [_where_and_how(call, one, sectors) for one in lines_of(call.text("subtasks"))[:high]]
    while len(answers) < low:
        answers.append(answers[-1] if answers else _where_and_how(call, "", sectors))
    return {"actions": answers}


def _where_and_how(call: ScriptedCall, subtask: str, sector_choices: list) -> dict:
    name, activity = call.text("name"), f"{call.text('action')} {subtask}"
    tree = place_tree(call.text("places"))
    sectors = [s for s in (sector_choices or list(tree)) if s in tree] or list(tree)
    home = call.text("living_sector")
    stay = call.text("current_sector")
    default = (
        home if re.search(r"\b(home|sleep|bed|breakfast|dinner|relax|morning routine)\b", activity, re.I) else stay
    )
    sector = named_in(sectors, activity)
    if sector is None and default != home:  # the activity names no area: where the routine does it
        sector = routine_place(sectors, activity, call.text("daily_plan_req"), name)
    sector = sector or best_match(sectors, activity, default if default in sectors else home) or ""
    arenas = list(tree.get(sector, {}))
    own = [a for a in arenas if name and name in a]
    arena = best_match(arenas, activity, own[0] if own else None) or ""
    objects = tree.get(sector, {}).get(arena, [])
    obj = best_match(objects, activity) if objects else "nothing in particular"
    doing = subtask.strip() or call.text("action") or "going about the day"
    return {
        "sector": sector,
        "arena": arena,
        "object": obj or "",
        "emoji": "🙂",
        "predicate": "is",
        "target": doing[:80],
        "state": f"being used by {name.split()[0] if name else 'someone'}",
        "state_emoji": "🙂",
    }


def action_sector(call: ScriptedCall) -> dict:
    activity = f"{call.text('action')} {call.text('subtask')}"
    options = call.choices("sector")
    return {"sector": best_match(options, activity, call.text("current_sector")) or ""}


def action_arena(call: ScriptedCall) -> dict:
    activity = f"{call.text('action')} {call.text('subtask')}"
    return {"arena": best_match(call.choices("arena"), activity) or ""}


def action_object(call: ScriptedCall) -> dict:
    return {"object": best_match(call.choices("object"), call.text("activity")) or ""}


RULES = {
    "action_packed": action_packed,
    "actions_packed": actions_packed,
    "action_sector": action_sector,
    "action_arena": action_arena,
    "action_object": action_object,
}
