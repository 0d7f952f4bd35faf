"""Planning: a plain day around the events the prompt's text announces for today, at their times."""

from __future__ import annotations

import re

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


def _today(date: str) -> tuple[str, int] | None:
    found = re.search(rf"\b({'|'.join(MONTHS)})\s+(\d{{1,2}})\b", date, re.IGNORECASE)
    return (found.group(1).lower(), int(found.group(2))) if found else None


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
        kind = KINDS.search(sentence)
        place = place_of(sentence)
        what = f"attend the {kind.group(1).lower() if kind else 'event'}" + (f" at {place}" if place else "")
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


def _day(identity: str, date: str, wake_text: str, bed: int, limit: int) -> list[str]:
    wake = _hour(wake_text, 7)
    events = events_today(identity, date)
    taken = {h for start, end, _ in events for h in range(start // 60, max(start // 60 + 1, end // 60))}
    items = [f"wake up and complete the morning routine at {clock(wake * 60)}"]
    items += [f"{what} from {clock(start)} to {clock(end)}" for start, end, what in events]
    routine = [(wake + 1, "eat breakfast at {t}"), (12, "have lunch at {t}"), (18, "have dinner at {t}"),
               (wake + 2, "go about the day's work at {t}"), (14, "take a walk around town at {t}"),
               (20, "relax at home at {t}")]
    for hour, text in routine:
        if len(items) >= limit - 1:
            break
        if wake < hour < bed and hour not in taken:
            items.append(text.format(t=clock(hour * 60)))
            taken.add(hour)
    items.append(f"go to bed at {clock(bed * 60)}")
    return items


def daily_plan(call: ScriptedCall) -> dict:
    _low, high = call.items_count("items")
    items = _day(call.text("identity"), call.text("date"), call.text("wake_up_time"), _bed(call.text("lifestyle")), high)
    return {"items": items[:high]}


def daily_req(call: ScriptedCall) -> dict:
    _low, high = call.items_count("items")
    identity = call.text("identity")
    lifestyle = next((line for line in identity.splitlines() if line.startswith("Lifestyle:")), "")
    items = _day(identity, call.text("date"), call.text("wake_up_time"), _bed(lifestyle), high)
    return {"items": items[:high]}


def wake_up_hour(call: ScriptedCall) -> dict:
    after = re.search(r"\b(?:wakes|gets) up\b(.{0,20})", call.text("lifestyle"), re.IGNORECASE)
    hour = _hour(after.group(1), 7) if after else 7
    allowed = call.choices("hour")
    return {"hour": hour if not allowed or hour in allowed else allowed[0]}


def _plan_at(plan: str, hour: int) -> str:
    """The plan item that holds ``hour``: the last one started by then."""
    current = "going about the day"
    for item in lines_of(plan):
        span = span_of(item)
        if span and re.search(r"\bbed\b", item) and span[0] < 12 * 60:
            continue   # bed after midnight: not an hour of the waking day
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
    original = [(m.group(2).strip(), int(m.group(1))) for line in call.text("original_plan").splitlines()
                if (m := _LINE.search(line.strip()))]
    remaining = int(call.text("remaining_minutes")) if call.text("remaining_minutes").isdigit() else 0
    rest = original[-1][0] if original else "going about the day"
    return {"items": [{"activity": rest[:78], "minutes": max(remaining, 1)}]}


def plan_note(call: ScriptedCall) -> dict:
    """First person: the announced events among the memories, else the most important memory."""
    statements = [bare(s) for s in lines_of(call.text("statements"))]
    timed = [s for s in statements if is_news(s) and span_of(s)]
    news = [s for s in statements if is_news(s)]
    keep = list(dict.fromkeys(timed + news))[:2] or sorted(statements, key=lambda s: -importance(s))[:1]
    note = " ".join(f"I should keep in mind that {compact(s.rstrip('.'), 220)}." for s in keep) or "Today is an ordinary day."
    return {"note": note}


def thought_note(call: ScriptedCall) -> dict:
    statements = [bare(s) for s in lines_of(call.text("statements"))]
    top = sorted(statements, key=lambda s: -importance(s))[:1]
    return {"note": f"I have been thinking about this: {compact(top[0].rstrip('.'), 400)}." if top else "I have been feeling fine."}


def new_currently(call: ScriptedCall) -> dict:
    """The status carried over, with what the notes say to keep in mind, in the third person."""
    name = call.text("name")
    notes = f"{call.text('plan_note')} {call.text('thought_note')}"   # the prompt shows them side by side
    kept = list(dict.fromkeys(re.findall(r"I should keep in mind that ([^.]+)\.", notes)))
    status = call.text("currently") or f"{name} is going about the usual routine."
    for fact in kept:
        added = f"{status.rstrip('.')}. {name} knows that {fact}."
        if fact.lower() not in status.lower() and len(added) <= 490:
            status = added
    return {"status": compact(status, 490)}


RULES = {"daily_plan": daily_plan, "identity_new_daily_req": daily_req, "wake_up_hour": wake_up_hour,
         "hourly_schedule_packed": hourly_schedule_packed, "hourly_schedule": hourly_schedule,
         "task_decomp": task_decomp, "new_decomp_schedule": new_decomp_schedule,
         "identity_plan_note": plan_note, "identity_thought_note": thought_note,
         "identity_new_currently": new_currently}
