"""Events fixed in a persona's day ahead of planning (a party it hosts): the day's schedule
makes room for them, and their place is known, so no model call chooses it."""

from __future__ import annotations

from collections.abc import Iterable

from reverie.address import Place
from reverie.memory.event import NO_EVENT, Event
from reverie.memory.schedule import PlanItem
from reverie.memory.scratch import Scratch
from reverie.persona.action_details import ActionDetails
from reverie.persona.agent import Agent
from reverie.persona.planned_event import PlannedEvent
from reverie.tasks.day_rules import clock_minute, is_bed

PARTY_EMOJI = "\U0001f389"


def fmt(minutes: int) -> str:
    h, m = divmod(minutes, 60)
    return f"{(h - 1) % 12 + 1}:{m:02d} {'am' if h < 12 else 'pm'}"


def todays(events: Iterable[PlannedEvent], scratch: Scratch) -> list[PlannedEvent]:
    day = scratch.curr_time.strftime("%B %d, %Y") if scratch.curr_time else ""
    return [e for e in events if e.day == day]


def splice(schedule: list[PlanItem], event: PlannedEvent) -> list[PlanItem]:
    """The schedule (plan items from midnight) with ``event`` put in its time window;
    the blocks it overlaps are cut around it."""
    out: list[tuple[str, int]] = []
    t = 0
    placed = False
    for activity, minutes in schedule:
        start, end = t, t + int(minutes)
        t = end
        if start < event.start:
            out.append((activity, min(end, event.start) - start))
        if not placed and end > event.start:
            out.append((event.activity, event.end - event.start))
            placed = True
        if end > event.end:
            out.append((activity, end - max(start, event.end)))
    if not placed:
        if t < event.start:
            out.append(("sleeping", event.start - t))
        out.append((event.activity, event.end - event.start))
    return [PlanItem(a, m) for a, m in out if m > 0]


def add_to_day(persona: Agent, events: Iterable[PlannedEvent]) -> list[PlannedEvent]:
    """Put today's events into the persona's day plan and schedule; returns them."""
    s = persona.scratch
    today = todays(events, s)
    for event in today:
        s.set_schedule(splice(s.f_daily_schedule, event), splice(s.f_daily_schedule_hourly_org, event))
        line = f"{event.description} from {fmt(event.start)} to {fmt(event.end)}"
        if line not in s.daily_req:
            s.set_daily_req(in_plan(s.daily_req, line, event.start))
    return today


def in_plan(plan: list[str], line: str, start: int) -> list[str]:
    """``plan`` with ``line`` (starting at minute ``start``) before the first later item and
    before going to bed: the plan's times move forward and bed stays last."""
    for index, item in enumerate(plan):
        minute = clock_minute(item)
        if index and (is_bed(item) or (minute is not None and minute > start)):
            return [*plan[:index], line, *plan[index:]]
    return [*plan, line]


def event_action(persona: Agent, description: str) -> tuple[Place, ActionDetails] | None:
    """Address and looks of a schedule entry that is one of the persona's events."""
    s = persona.scratch
    for event in todays(persona.seeds.events, s):
        if description != event.activity:
            continue
        world = Place(s.living_area or "").parts[0]
        arena = f"{world}:{event.sector}:{event.arena}"
        objects = persona.s_mem.objects(arena)
        address = Place(f"{arena}:{objects[0]}" if objects else arena)
        details = ActionDetails(PARTY_EMOJI, Event(s.name, "is", event.description), None, None, NO_EVENT)
        return address, details
    return None
