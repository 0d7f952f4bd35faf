"""A day's plan checked, then repaired: the two steps the daily plan and the daily requirement share.

Validation (:func:`plan_problem`) only reports: the first thing in the reply the model must fix,
worded as its correction. Repair (:func:`repaired_plan`) is the code's own step on a plan that
passed: the model writes the activities, the code keeps the day's clock. It writes the first item
itself at the wake-up hour, puts the items in the order of their times with going to bed last (at
the lifestyle's bedtime when it is known), drops repeats, puts the persona's commitments in at
their hours and keeps one activity an hour. A reply model runs the two as two validators, in
that order (``DailyPlanReply``, ``DailyReqReply``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from reverie.tasks.clock import BED_WORDS, format_hour, hour_after, hour_in
from reverie.tasks.common import check_text, loop_cut
from reverie.tasks.day_rules import (
    MINUTES_PER_DAY,
    clock_minute,
    hours_taken,
    is_bed,
    is_sleeping,
    meridiem_fixed,
    outside_day_problem,
    plan_order_problem,
    since_wake,
    span_hours,
    spans_cut,
    without_clock,
)

MIN_ITEMS, MAX_ITEMS = 4, 10
_WAKING = re.compile(r"\b(wak\w*|awake\w*|gets? up|getting up|rises?|morning routine)\b", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\bI(?:'m|'ve|'ll|'d)?\b|\b(?i:me|my|myself|we|our)\b")
_NAMED_TIME = re.compile(r"\b(?:noon|midday|midnight)\b", re.IGNORECASE)
# A list number ("1.", "2)", "3:", "4 -") or bullet; "9:00 am ..." is a clock time, not a number.
_NUMBERING = re.compile(r"^\s*(?:\d+\s*(?:[.)-]|:(?!\d))|[-*•])\s*")
# "I'm planning to have lunch" -> "have lunch": the intent in the first person is the activity.
_INTENT = re.compile(
    r"^(?:i\s+am|i'm|i\s+will|i'll|i\s+(?:plan|want|need|have|hope)\s+to)\s+"
    r"(?:(?:planning|going|hoping|trying|about)\s+to\s+)?",
    re.IGNORECASE,
)
# "Today is Tuesday February 14": a statement about the day, not an activity.
_DAY_STATEMENT = re.compile(r"^(?:today|tomorrow|it|this)\s+(?:is|will\s+be)\b", re.IGNORECASE)
_MEALS = re.compile(r"\b(?:breakfast|lunch|dinner)\b")


def as_activity(item: str) -> str | None:
    """The activity an item names (its first sentence), with a first-person intent put as the
    activity itself ("I'm going to open my cafe" -> "open the cafe"); None for a statement
    about the day."""
    if _DAY_STATEMENT.match(item):
        return None
    item = re.split(r"(?<=[a-z0-9])\.\s+(?=[A-Z])", item, maxsplit=1)[0]  # one activity: its first sentence
    stripped = _INTENT.sub("", item)
    if stripped != item:
        stripped = re.sub(r"\bmy\b", "the", stripped, flags=re.IGNORECASE)
    return stripped


def has_time(item: str) -> bool:
    """Does ``item`` say when it happens (a clock time, or noon, midday or midnight)?"""
    return clock_minute(item) is not None or _NAMED_TIME.search(item) is not None


def wake_up_line(hour: int) -> str:
    """The fixed first item of every plan."""
    return f"wake up and complete the morning routine at {format_hour(hour)}"


def is_waking_up(item: str) -> bool:
    return _WAKING.search(item) is not None


def bed_line(hour: int) -> str:
    """The fixed last item of every plan."""
    return f"go to bed at {format_hour(hour)}"


def bed_hour_of(lifestyle: str) -> int | None:
    """The bedtime the lifestyle names ("goes to bed around 11pm" -> 23, "... around midnight" -> 0), else None."""
    hour = hour_after(str(lifestyle or ""), BED_WORDS)
    if hour is None and re.search(r"\bbed\b[^.,;]{0,20}\bmidnight\b", str(lifestyle or ""), re.IGNORECASE):
        return 0
    return hour


@dataclass(frozen=True)
class PlanRules:
    """What a day's plan is held to."""

    wake: int | None = None  # the wake-up hour; None when the call names none
    bed: int | None = None  # the lifestyle's bedtime, when it names one
    min_items: int = MIN_ITEMS
    # The timed clauses of the persona's own daily requirement (its commitments, written by the
    # world's author): the repair puts them in at their times, in place of what the reply has then.
    required: tuple[str, ...] = ()
    # The items are the day the hourly schedule is made from: an item kept without a time gets a
    # free hour (:func:`at_free_hours`), since the schedule puts each item at the hour it names.
    schedule: bool = False

    @classmethod
    def at(
        cls,
        wake_up_time: str | None,
        *,
        bed: int | None = None,
        min_items: int = MIN_ITEMS,
        required: Sequence[str] = (),
        schedule: bool = False,
    ) -> PlanRules:
        """The rules for a plan that starts at ``wake_up_time`` ("7:00 am"; None or no hour in it: unknown)."""
        wake = hour_in(wake_up_time) if wake_up_time else None
        return cls(wake=wake, bed=bed, min_items=min_items, required=tuple(required), schedule=schedule)

    @property
    def night(self) -> int:
        """The hour the waking day ends: the bedtime, else 11 pm."""
        return 23 if self.bed is None else self.bed


# -- validation: only reports ------------------------------------------------------------


def plan_problem(items: Sequence[str], rules: PlanRules) -> str | None:
    """The first thing in the reply's plan the model must fix, worded as its correction (None: nothing).

    In order: an item that is no activity or is written as the character speaking; an item outside
    the waking day (the wake-up hour known), or a first item that is not waking up (unknown); fewer
    than ``min_items`` different activities; times that do not move forward with bed last; too few
    hours left once the commitments and one activity an hour are kept (see :mod:`day_rules`)."""
    problem = _activity_problem(items)
    if problem:
        return problem
    day = _on_the_clock(activities(items), rules)
    problem = _waking_day_problem(day, rules)
    if problem:
        return problem
    ordered = _framed(day, rules)
    kept = _distinct(ordered)
    problem = _count_problem(kept, ordered, day, rules) or plan_order_problem(kept, rules.wake, rules.bed)
    if problem or rules.wake is None:
        return problem
    fitted = _hours_fitted(kept, rules.wake, rules)
    if len(fitted) < rules.min_items:
        return _too_few_hours(fitted, rules.wake, rules)
    placed = _untimed_placed(fitted, rules.wake, rules)
    return _too_few_hours(placed, rules.wake, rules) if len(placed) < rules.min_items else None


def _activity(number: int, item: str) -> str | None:
    """Item ``number`` as an activity (None: a statement about the day); ValueError for no words."""
    return as_activity(loop_cut(check_text(_NUMBERING.sub("", item), f"item {number}")))


def _activity_problem(items: Sequence[str]) -> str | None:
    for number, item in enumerate(items, 1):
        try:
            activity = _activity(number, item)
        except ValueError as exc:
            return str(exc)
        if activity is not None and _FIRST_PERSON.search(activity):
            return (
                f'item {number} "{activity}" is written as the character speaking; write only the activity, '
                'like "have lunch at 12:00 pm"'
            )
    return None


def _waking_day_problem(day: list[str], rules: PlanRules) -> str | None:
    if rules.wake is None:
        return f"the first item must be waking up; yours is {day[0]!r}" if day and not is_waking_up(day[0]) else None
    for number, item in enumerate(day, 1):  # numbered as the reply has them
        problem = None if is_waking_up(item) else outside_day_problem(number, item, rules.wake, rules.bed)
        if problem:
            return problem
    return None


def _count_problem(kept: list[str], ordered: list[str], day: list[str], rules: PlanRules) -> str | None:
    if len(kept) >= rules.min_items:
        return None
    repeats = f" ({len(ordered) - len(kept)} repeated)" if len(kept) < len(ordered) else ""
    beds = sum(is_bed(item) for item in day)
    bed_once = f"; going to bed is one item, the last (yours has {beds})" if beds > 1 else ""
    return f"list at least {rules.min_items} different activities; yours has {len(kept)}{repeats}{bed_once}"


def _too_few_hours(plan: list[str], wake: int, rules: PlanRules) -> str:
    return (
        f"list at least {rules.min_items} activities that start in different hours after waking up "
        f"at {format_hour(wake)}; yours leave {len(plan)}"
    )


# -- repair: the code's own step on a plan that passed ----------------------------------


def repaired_plan(items: Sequence[str], rules: PlanRules) -> list[str]:
    """The plan the code makes of a reply :func:`plan_problem` passed.

    The items as activities; with the wake-up hour known, the code's first item at that hour (the
    reply's waking-up items dropped), the items in the order of their times and going to bed last
    (at the bedtime when known); repeats (the same activity at another time too) dropped. Then,
    the wake-up hour known: the commitments in at their hours, one activity an hour (when that
    leaves the day short although the reply's own was not, the fail-safe day's meals and breaks
    fill the hours left free: :func:`fillers`), and an item without a time left out when enough
    timed ones remain, else (``schedule``) put at a free hour."""
    plan = _distinct(_framed(_on_the_clock(activities(items), rules), rules))
    if rules.wake is None:
        return plan
    return _untimed_placed(_hours_fitted(plan, rules.wake, rules), rules.wake, rules)


def activities(items: Sequence[str]) -> list[str]:
    """The reply's items as activities (list numbers and first-person intents taken off, statements
    about the day left out)."""
    return [activity for number, item in enumerate(items, 1) if (activity := _activity(number, item)) is not None]


def _on_the_clock(day: list[str], rules: PlanRules) -> list[str]:
    """Each item at its twelve-hour twin when only the twin falls in the waking day."""
    if rules.wake is None:
        return day
    return [item if is_waking_up(item) else meridiem_fixed(item, rules.wake, rules.bed) for item in day]


def _framed(day: list[str], rules: PlanRules) -> list[str]:
    """The code's waking-up item first, the rest in time order, one bed item last (wake-up hour known)."""
    if rules.wake is None:
        return day
    beds = [item for item in day if is_bed(item)]
    middle = in_time_order([item for item in day if not is_waking_up(item) and not is_bed(item)], rules.wake)
    last = [bed_line(rules.bed)] if rules.bed is not None else beds[-1:]
    return [wake_up_line(rules.wake)] + middle + last


def _distinct(plan: list[str]) -> list[str]:
    """``plan`` without an activity it already has at another time."""
    kept: list[str] = []
    seen: set[str] = set()
    for item in plan:
        key = (without_clock(item) or item).lower().rstrip(".")
        if key not in seen:
            seen.add(key)
            kept.append(item)
    return kept


def _hours_fitted(plan: list[str], wake: int, rules: PlanRules) -> list[str]:
    """The commitments in at their hours and one activity an hour, between the first and bed items."""
    own = [item for item in plan[1:] if not is_bed(item)]
    required = list(rules.required)
    body = in_time_order(with_requirements(own, required, wake, rules.night), wake) if required else own
    body = spans_cut(one_an_hour(body, wake, required), wake)
    if len(body) < rules.min_items - 2 and required and len(one_an_hour(own, wake)) >= rules.min_items - 2:
        # The reply's own day was full and the commitments took its hours: the model cannot know
        # which hours the code takes, so the fail-safe day's meals and breaks fill those left free.
        body = in_time_order(body + fillers(body, wake, rules.night)[: MAX_ITEMS - 2 - len(body)], wake)
    return plan[:1] + body + [item for item in plan[1:] if is_bed(item)]


def _untimed_placed(plan: list[str], wake: int, rules: PlanRules) -> list[str]:
    """An item without a time left out when enough timed ones remain (no hour would hold it); else,
    in a day's schedule, put at a free hour (the hourly schedule never does an item no hour holds)."""
    timed = [item for item in plan if is_waking_up(item) or is_bed(item) or has_time(item)]
    if len(timed) >= rules.min_items:
        return timed
    return at_free_hours(plan, wake, rules.night) if rules.schedule else plan


def at_free_hours(items: list[str], wake_hour: int, bed_hour: int) -> list[str]:
    """``items`` (the first waking up, the last going to bed) with each item that has no time at
    the first hour after the item before it that no other item starts in or spans ("from 8:00 am
    to 1:00 pm"), before bedtime ("make posters" -> "make posters at 1:00 pm"), in time order.
    An untimed item with no such hour, or one that is sleeping (the night is the bed item's),
    is left out."""
    taken = hours_taken(items)
    end = since_wake(bed_hour * 60, wake_hour) or MINUTES_PER_DAY
    out: list[str] = []
    after = 0  # hours from waking to the item before
    for item in items:
        minute = clock_minute(item)
        if minute is not None or is_waking_up(item) or is_bed(item) or has_time(item):
            after = since_wake(minute, wake_hour) // 60 if minute is not None and not is_bed(item) else after
            out.append(item)
            continue
        if is_sleeping(item):
            continue
        free = next((h for h in range(after + 1, 24) if h * 60 < end and (wake_hour + h) % 24 not in taken), None)
        if free is None:
            continue
        taken.add((wake_hour + free) % 24)
        after = free
        out.append(f"{item.rstrip('. ')} at {format_hour(wake_hour + free)}")
    body = in_time_order([item for item in out[1:] if not is_bed(item)], wake_hour)
    return out[:1] + body + [item for item in out if is_bed(item)]


def one_an_hour(items: list[str], wake_hour: int, required: Sequence[str] = ()) -> list[str]:
    """``items`` (in time order) with at most one starting in each hour: a day's schedule holds one
    activity an hour, so a second item in an hour, one in the wake-up hour (the morning routine
    holds it) or one inside a commitment's "from ... to ..." hours would never be done."""
    taken = {wake_hour} | {hour for item in required for hour in span_hours(item)}
    kept: list[str] = []
    for item in items:
        minute = clock_minute(item)
        if item in required or minute is None:
            kept.append(item)
        elif minute // 60 not in taken:
            taken.add(minute // 60)
            kept.append(item)
    return kept


def with_requirements(items: list[str], required: list[str], wake_hour: int, bed_hour: int) -> list[str]:
    """``items`` with each of the persona's ``required`` clauses (those inside the waking day) at its
    time: an item at a required hour gives way, and the plan stays at most ``MAX_ITEMS`` long
    (the reply's untimed and latest items go first)."""
    end = since_wake(bed_hour * 60, wake_hour)
    required = [r for r in required if since_wake(known_minute(r), wake_hour) < end]
    if not required:
        return items
    hours = {known_minute(r) // 60 for r in required}
    keys = {(without_clock(r) or r).lower() for r in required}
    kept = [
        item
        for item in items
        if ((minute := clock_minute(item)) is None or minute // 60 not in hours)
        and (without_clock(item) or item).lower() not in keys
    ]
    spare = [item for item in kept if not is_waking_up(item) and not is_bed(item)]
    over = len(spare) + len(required) - (MAX_ITEMS - 2)  # the waking and bed items are the code's too
    if over > 0:
        last_first = [i for i in spare if clock_minute(i) is None] + [
            i for i in reversed(spare) if clock_minute(i) is not None
        ]
        drop = set(last_first[:over])
        kept = [item for item in kept if item not in drop]
    return kept + required


def in_time_order(items: list[str], wake_hour: int) -> list[str]:
    """``items`` sorted by their clock times from the wake-up hour on; an item without a time keeps
    its place after the item before it."""
    keys, last = [], 0
    for index, item in enumerate(items):
        minute = clock_minute(item)
        if minute is not None:
            last = since_wake(minute, wake_hour)
        keys.append((last, index))
    return [item for _key, item in sorted(zip(keys, items))]


def meals_and_breaks(wake_hour: int) -> list[str]:
    """The meals and breaks a fail-safe day is made of, around the wake-up hour."""
    return [
        f"eat breakfast at {format_hour(wake_hour + 1)}",
        "take a short break at 10:00 am",
        "have lunch at 12:00 pm",
        "take a short break at 3:00 pm",
        "have dinner at 6:00 pm",
        "relax at home at 8:00 pm",
    ]


def fillers(items: list[str], wake_hour: int, bed_hour: int) -> list[str]:
    """The fail-safe day's meals and breaks that fit around ``items`` (timed, after the wake-up hour):
    in an hour after waking and before bed that no item starts in or spans, and a meal only when
    ``items`` do not have it, in time order."""
    taken = {wake_hour % 24} | hours_taken(items)
    end = since_wake(bed_hour * 60, wake_hour) or MINUTES_PER_DAY
    meals = {word for item in items for word in _MEALS.findall(item.lower())}
    out = []
    for item in meals_and_breaks(wake_hour):
        hour = known_minute(item) // 60
        if hour not in taken and 0 < since_wake(hour * 60, wake_hour) < end and not set(_MEALS.findall(item)) & meals:
            taken.add(hour)
            out.append(item)
    return out


def known_minute(timed: str) -> int:
    """The clock minute of an item known to have one (a commitment, a fail-safe meal)."""
    minute = clock_minute(timed)
    assert minute is not None, timed
    return minute
