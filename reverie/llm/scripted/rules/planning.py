"""Planning: a plain day around the events the prompt's text announces for today, at their times."""

from __future__ import annotations

import re
from collections.abc import Iterable

from reverie.llm.scripted.call import ScriptedCall
from reverie.llm.scripted.cues import (
    KINDS,
    MONTHS,
    bare,
    clock,
    compact,
    dates_of,
    importance,
    is_news,
    lines_of,
    place_of,
    sentences,
    span_of,
    times_of,
)
from reverie.llm.scripted.habits import Habit, Kind, habits_of


def _today(date: str) -> tuple[str, int] | None:
    found = re.search(rf"\b({'|'.join(MONTHS)})\s+(\d{{1,2}})\b", date, re.IGNORECASE)
    return (found.group(1).lower(), int(found.group(2))) if found else None


def _kind_of(sentence: str, place: str | None) -> str:
    """The kind of event: the last word of a kind before its place ("gathering party material,
    and asks everyone to the party at <Cafe>" -> "party"), else the first, else "event"."""
    cut = sentence.find(place) if place else -1
    found = list(KINDS.finditer(sentence[:cut] if cut > 0 else sentence)) or list(KINDS.finditer(sentence))
    return found[-1].group(1).lower() if found else "event"


def events_today(text: str, date: str) -> list[tuple[int, int, str]]:
    """(start, end, activity) of every event the text announces with a time, on ``date`` or on no
    date at all: "X is hosting a party at Y on February 14 from 5pm to 7pm" -> (1020, 1140,
    "attend the party at Y")."""
    today, found = _today(date), []
    for sentence in sentences(text):
        span = span_of(sentence)
        if span is None or not is_news(sentence):
            continue
        dates = dates_of(sentence)
        if dates and today not in dates:
            continue
        place = place_of(sentence)
        what = f"attend the {_kind_of(sentence, place)}" + (f" at {place}" if place else "")
        found.append((span[0], span[1], what))
    return found


def _hour(text: str, default: int) -> int:
    times = times_of(text)
    return times[0] // 60 if times else default


def _bed(lifestyle: str) -> int:
    after = re.search(r"\bbed\b(.{0,30})", lifestyle or "", re.IGNORECASE)
    if after and "midnight" in after.group(1).lower():
        return 23
    hour = _hour(after.group(1), 23) if after else 23
    return hour if hour >= 18 else 23


_TEXTS = ("Daily plan requirement", "Currently", "Learned traits", "Lifestyle")


def _own_texts(identity: str, lifestyle: str = "") -> tuple[str, list[str]]:
    """The resident's name and its own texts that tell its habits (its daily requirement first)."""
    fields = {key.strip(): value.strip() for key, _, value in (line.partition(":") for line in identity.splitlines())}
    texts = [fields.get(key, "") for key in _TEXTS]
    if lifestyle and lifestyle not in texts:
        texts.append(lifestyle)
    return fields.get("Name", ""), [t for t in texts if t]


class _Day:
    """A day's items by starting hour; a span (an event, a timed habit) holds all its hours.
    What is put first matters most: when the plan has room for fewer items, it stays."""

    def __init__(self, wake: int, bed: int):
        self.wake, self.bed = wake, bed
        self.items: dict[int, str] = {}
        self.held: set[int] = set()

    def kept(self, room: int) -> list[tuple[int, str]]:
        """The ``room`` items put first, in the order of their hours."""
        return sorted(list(self.items.items())[: max(room, 0)])

    def free(self, hour: int) -> bool:
        return self.wake < hour < self.bed and hour not in self.held

    def put(self, hour: int, text: str) -> bool:
        if not self.free(hour):
            return False
        self.items[hour] = text
        self.held.add(hour)
        return True

    def span(self, start: int, end: int, text: str) -> None:
        self.items[start] = text
        self.held.update(range(start, max(start + 1, end)))

    def first(self, hours: Iterable[int], text: str, habit: Habit | None = None) -> bool:
        """``text`` at the first of ``hours`` free (and allowed by the habit's "before")."""
        return any(self.put(h, text) for h in hours if habit is None or habit.allows(h))


def _pick(habits: list[Habit], kind: Kind, *, skip: tuple[Habit, ...] = ()) -> Habit | None:
    """The first habit of ``kind`` that names a place and no hour of its own, the one that is
    the fewest other kinds first (the most to the point)."""
    found = [h for h in habits if kind in h.kinds and h not in skip and h.place and h.start is None]
    return min(found, key=lambda h: (not h.early, len(h.kinds))) if found else None


def _day(identity: str, date: str, wake_text: str, bed: int, limit: int, lifestyle: str = "") -> list[str]:
    """The day around the resident's own habits: announced events at their times; timed habits
    at theirs; untimed work or study in the morning and the afternoon at the places the texts
    name for them; meals at the places named for meals (where a habit's "before" allows);
    leisure at its place in the afternoon; then the plain day's items in the hours left."""
    wake = _hour(wake_text, 7)
    name, texts = _own_texts(identity, lifestyle)
    habits = habits_of(texts, name)
    day = _Day(wake, bed)
    for start, end, what in events_today(identity, date):
        day.span(start // 60, end // 60, f"{what} from {clock(start)} to {clock(end)}")
    for habit in habits:
        if habit.start is not None and Kind.MEAL not in habit.kinds and day.free(habit.start):
            if habit.end is not None and habit.end > habit.start:
                day.span(
                    habit.start, habit.end, f"{habit.doing} from {clock(habit.start * 60)} to {clock(habit.end * 60)}"
                )
            else:
                day.put(habit.start, f"{habit.doing} at {clock(habit.start * 60)}")
    morning = _pick(habits, Kind.WORK)
    if morning is not None:
        early = [wake + 1, wake + 2] if morning.early else [max(wake + 2, 8), wake + 3, wake + 1]
        day.first(early, f"{morning.doing} at {{t}}", morning)
        later = _pick(habits, Kind.WORK, skip=(morning,)) or morning
        day.first([13, 14, 15], f"{later.doing} at {{t}}", later)
    meal = _pick(habits, Kind.MEAL)
    dinner_at = next((h.start for h in habits if Kind.MEAL in h.kinds and h.start is not None and h.start >= 16), 18)
    for hour, what in ((12, "lunch"), (dinner_at, "dinner")):
        where = f" at {meal.place}" if meal is not None and meal.allows(hour) else ""
        day.first([hour, hour + 1], f"have {what}{where} at {{t}}")
    leisure = _pick(habits, Kind.LEISURE, skip=tuple(h for h in (morning,) if h))
    if leisure is not None:
        day.first([15, 16, 17, 19], f"{leisure.doing} at {{t}}", leisure)
    day.put(wake + 1, "eat breakfast at {t}")
    if morning is None:
        day.put(wake + 2, "go about the day's work at {t}")
    day.first([14, 16, 15, 17], "take a walk around town at {t}")  # after a span too: it does not run on
    day.put(20, "relax at home at {t}")
    items = [f"wake up and complete the morning routine at {clock(wake * 60)}"]
    items += [text.replace("{t}", clock(hour * 60)) for hour, text in day.kept(limit - 2)]
    items.append(f"go to bed at {clock(bed * 60)}")
    return items


def daily_plan(call: ScriptedCall) -> dict:
    _low, high = call.items_count("items")
    items = _day(
        call.text("identity"),
        call.text("date"),
        call.text("wake_up_time"),
        _bed(call.text("lifestyle")),
        high,
        call.text("lifestyle"),
    )
    return {"items": items[:high]}


def daily_req(call: ScriptedCall) -> dict:
    _low, high = call.items_count("items")
    identity = call.text("identity")
    lifestyle = next((line for line in identity.splitlines() if line.startswith("Lifestyle:")), "")
    items = _day(identity, call.text("date"), call.text("wake_up_time"), _bed(lifestyle), high)
    return {"items": items[:high]}


def wake_up_hour(call: ScriptedCall) -> dict:
    after = re.search(r"\b(?:a?wakes?|gets?|rises)(?: up)?\b(.{0,20})", call.text("lifestyle"), re.IGNORECASE)
    hour = _hour(after.group(1), 7) if after else 7
    allowed = call.choices("hour")
    return {"hour": hour if not allowed or hour in allowed else allowed[0]}


def _plan_at(plan: str, hour: int) -> str:
    """The plan item that holds ``hour``: the last one started by then."""
    current = "going about the day"
    for item in lines_of(plan):
        span = span_of(item)
        if span and re.search(r"\bbed\b", item) and span[0] < 12 * 60:
            continue  # bed after midnight: not an hour of the waking day
        if span and span[0] // 60 <= hour:
            current = re.sub(r"\s*(?:from|at)\s+\d{1,2}(?::\d{2})?\s*[ap]m.*$", "", item, flags=re.IGNORECASE).strip()
    return current[:58] or "going about the day"


def hourly_schedule_packed(call: ScriptedCall) -> dict:
    hours = [label.strip() for label in call.text("hours").split(",") if label.strip()]
    plan = call.text("daily_plan")
    activities = [_plan_at(plan, (times_of(label) or [0])[0] // 60) for label in hours]
    return {"activities": activities or ["going about the day"]}


def hourly_schedule(call: ScriptedCall) -> dict:
    return {"activity": _plan_at(call.text("daily_plan"), _hour(call.text("hour"), 12))[:78]}


def task_decomp(call: ScriptedCall) -> dict:
    """The activity in 5-minute steps (at most the schema's count), the last one holding the rest."""
    total = int(call.text("duration")) if call.text("duration").isdigit() else 60
    task = call.text("task") or "the activity"
    _low, high = call.items_count("subtasks")
    steps = ["getting ready for", "starting", "working on", "keeping at", "finishing"]
    count = max(1, min(high, len(steps), total // 5))
    out = [[f"{steps[i] if count > 1 else 'doing'} {task}"[:58], 5] for i in range(count - 1)]
    out.append([f"{'finishing' if count > 1 else 'doing'} {task}"[:58], max(5, total - 5 * (count - 1))])
    if count > 1:
        out[-2][0] = f"keeping at {task}"[:58]
    return {"subtasks": out}


_LINE = re.compile(r"\((\d+) min\):\s*(.+)$")


def new_decomp_schedule(call: ScriptedCall) -> dict:
    """The time left after the inserted activity (what the prompt asks for): the window's last
    planned activity, for all of it."""
    original = [
        (m.group(2).strip(), int(m.group(1)))
        for line in call.text("original_plan").splitlines()
        if (m := _LINE.search(line.strip()))
    ]
    remaining = int(call.text("remaining_minutes")) if call.text("remaining_minutes").isdigit() else 0
    rest = original[-1][0] if original else "going about the day"
    return {"items": [{"activity": rest[:78], "minutes": max(remaining, 1)}]}


def plan_note(call: ScriptedCall) -> dict:
    """First person: the announced events among the memories, else the most important memory."""
    statements = [bare(s) for s in lines_of(call.text("statements"))]
    timed = [s for s in statements if is_news(s) and span_of(s)]
    news = [s for s in statements if is_news(s)]
    keep = list(dict.fromkeys(timed + news))[:2] or sorted(statements, key=lambda s: -importance(s))[:1]
    note = (
        " ".join(f"I should keep in mind that {compact(s.rstrip('.'), 220)}." for s in keep)
        or "Today is an ordinary day."
    )
    return {"note": note}


def thought_note(call: ScriptedCall) -> dict:
    statements = [bare(s) for s in lines_of(call.text("statements"))]
    top = sorted(statements, key=lambda s: -importance(s))[:1]
    return {
        "note": f"I have been thinking about this: {compact(top[0].rstrip('.'), 400)}."
        if top
        else "I have been feeling fine."
    }


def new_currently(call: ScriptedCall) -> dict:
    """The status carried over, with what the notes say to keep in mind, in the third person."""
    name = call.text("name")
    notes = f"{call.text('plan_note')} {call.text('thought_note')}"  # the prompt shows them side by side
    # Each fact whole, up to the next note or the end: it may hold "Feb. 14" or "5 p.m.".
    kept = list(dict.fromkeys(re.findall(r"I should keep in mind that (.+?)\.(?=\s+I (?:should|have)\b|\s*$)", notes)))
    status = call.text("currently") or f"{name} is going about the usual routine."
    for fact in kept:
        added = f"{status.rstrip('.')}. {name} knows that {fact}."
        if fact.lower() not in status.lower() and len(added) <= 490:
            status = added
    return {"status": compact(status, 490)}


RULES = {
    "daily_plan": daily_plan,
    "identity_new_daily_req": daily_req,
    "wake_up_hour": wake_up_hour,
    "hourly_schedule_packed": hourly_schedule_packed,
    "hourly_schedule": hourly_schedule,
    "task_decomp": task_decomp,
    "new_decomp_schedule": new_decomp_schedule,
    "identity_plan_note": plan_note,
    "identity_thought_note": thought_note,
    "identity_new_currently": new_currently,
}
