"""A persona's broad plan for the day, 4 to 8 items with clock times (prompt daily_plan).

Used on the first day (``scratch.daily_req``). The reply is a JSON list, so nothing is
lost in parsing (the original dropped the last item and items before a two-digit index).
The code writes the first item in one fixed wording with the real wake-up hour, once (the
original's fail-safe carried it twice), puts the model's items in the order of their times
and the bed item last, at the lifestyle's bedtime: a small model writes the activities but
does not keep a clock. Nothing may fall outside the waking day, and repeats are dropped.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field, ValidationInfo, field_validator, model_validator

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Task, TaskInputs
from reverie.tasks.clock import BED_WORDS, format_hour, hour_after, hour_of
from reverie.tasks.common import Reply, check_text, inputs_of, loop_cut, one_line
from reverie.tasks.day_rules import (MINUTES_PER_DAY, clock_minute, hours_taken, is_bed, is_sleeping, meridiem_fixed,
                                    outside_day_problem, plan_order_problem, since_wake, span_hours, spans_cut,
                                    without_clock)

MIN_ITEMS, MAX_ITEMS = 4, 10
_WAKING = re.compile(r"\b(wak\w*|awake\w*|gets? up|getting up|rises?|morning routine)\b", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\bI(?:'m|'ve|'ll|'d)?\b|\b(?i:me|my|myself|we|our)\b")
_NAMED_TIME = re.compile(r"\b(?:noon|midday|midnight)\b", re.IGNORECASE)
# A list number ("1.", "2)", "3:", "4 -") or bullet; "9:00 am ..." is a clock time, not a number.
_NUMBERING = re.compile(r"^\s*(?:\d+\s*(?:[.)-]|:(?!\d))|[-*•])\s*")

PlanItem = Annotated[str, Field(max_length=120)]

# "I'm planning to have lunch" -> "have lunch": the intent in the first person is the activity.
_INTENT = re.compile(r"^(?:i\s+am|i'm|i\s+will|i'll|i\s+(?:plan|want|need|have|hope)\s+to)\s+"
                     r"(?:(?:planning|going|hoping|trying|about)\s+to\s+)?", re.IGNORECASE)
# "Today is Tuesday February 14": a statement about the day, not an activity.
_DAY_STATEMENT = re.compile(r"^(?:today|tomorrow|it|this)\s+(?:is|will\s+be)\b", re.IGNORECASE)


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


def check_plan_items(items: list[str], wake_up_time: str | None, min_items: int = MIN_ITEMS,
                     bed_hour: int | None = None, required: list[str] = (), schedule: bool = False) -> list[str]:
    """Semantic checks shared with the identity revision's daily requirement.

    The model writes the activities; the code keeps the day's clock. With the wake-up time known,
    the code writes the first item itself (waking-up items the reply has elsewhere are dropped) and
    puts the items in the order of their times (an item without a time stays after the one it
    followed, or is left out when ``min_items`` timed ones remain without it: no hour of the day
    would hold it); going to bed comes last, at the lifestyle's bedtime when it is known. Repeats (the
    same activity at another time too) are dropped; what is left must still be ``min_items``, and
    an item outside the waking day is sent back (see :mod:`day_rules`). ``required``: the timed
    clauses of the persona's own daily requirement (its commitments, written by the world's
    author), which the code then puts in the reply's plan at their times, in place of what the
    reply has in those hours; when that leaves the plan short although the reply's own day was
    not, the hours left free get the fail-safe day's meals and breaks (:func:`fillers`).
    ``schedule``: the items are the day the hourly schedule is made from, so an item kept
    without a time gets a free hour (:func:`at_free_hours`)."""
    cleaned: list[str] = []
    for number, item in enumerate(items, 1):
        item = as_activity(loop_cut(check_text(_NUMBERING.sub("", item), f"item {number}")))
        if item is None:
            continue
        if _FIRST_PERSON.search(item):
            raise ValueError(f'item {number} "{item}" is written as the character speaking; write only the activity, '
                             'like "have lunch at 12:00 pm"')
        cleaned.append(item)
    wake = hour_of(wake_up_time, default=-1) if wake_up_time else -1
    if wake >= 0:
        cleaned = [item if is_waking_up(item) else meridiem_fixed(item, wake, bed_hour) for item in cleaned]
    for number, item in enumerate(cleaned, 1):  # numbered as the reply has them
        outside = outside_day_problem(number, item, wake, bed_hour) if wake >= 0 and not is_waking_up(item) else None
        if outside:
            raise ValueError(outside)
    if wake < 0:
        if cleaned and not is_waking_up(cleaned[0]):
            raise ValueError(f"the first item must be waking up; yours is {cleaned[0]!r}")
        ordered = cleaned
    else:
        beds = [item for item in cleaned if is_bed(item)]
        middle = in_time_order([item for item in cleaned if not is_waking_up(item) and not is_bed(item)], wake)
        last = [bed_line(bed_hour)] if bed_hour is not None else beds[-1:]
        ordered = [wake_up_line(wake)] + middle + last
    kept: list[str] = []
    seen: set[str] = set()
    for item in ordered:
        key = (without_clock(item) or item).lower().rstrip(".")
        if key not in seen:
            seen.add(key)
            kept.append(item)
    if len(kept) < min_items:
        repeats = f" ({len(ordered) - len(kept)} repeated)" if len(kept) < len(ordered) else ""
        beds = sum(is_bed(item) for item in cleaned)
        bed_once = f"; going to bed is one item, the last (yours has {beds})" if beds > 1 else ""
        raise ValueError(f"list at least {min_items} different activities; yours has {len(kept)}{repeats}{bed_once}")
    problem = plan_order_problem(kept, wake if wake >= 0 else None, bed_hour)
    if problem:
        raise ValueError(problem)
    if wake >= 0:   # the reply made a day; the persona's commitments go in at their hours, one item an hour
        own = [item for item in kept[1:] if not is_bed(item)]
        bed = 23 if bed_hour is None else bed_hour
        body = in_time_order(with_requirements(own, required, wake, bed), wake) if required else own
        body = spans_cut(one_an_hour(body, wake, required), wake)
        if len(body) < min_items - 2 and required and len(one_an_hour(own, wake)) >= min_items - 2:
            # The reply's own day was full, and the commitments took its hours. The model cannot
            # know which hours the code takes, so a correction would not help: the fail-safe
            # day's meals and breaks fill the hours left free, as they would fill its own day.
            body = in_time_order(body + fillers(body, wake, bed)[:MAX_ITEMS - 2 - len(body)], wake)
        kept = kept[:1] + body + [item for item in kept[1:] if is_bed(item)]
        if len(kept) < min_items:
            raise ValueError(f"list at least {min_items} activities that start in different hours after waking up "
                             f"at {format_hour(wake)}; yours leave {len(kept)}")
        # An item with no time is left out when enough timed ones remain: no hour would hold it.
        # Else, in a day's schedule, it gets the first free hour after the item before it (the
        # hourly schedule puts each plan item at the hour it names: an item no hour holds is
        # never done), and the plan must still have enough items.
        timed = [item for item in kept if is_waking_up(item) or is_bed(item) or has_time(item)]
        if len(timed) >= min_items:
            kept = timed
        elif schedule:
            kept = at_free_hours(kept, wake, bed)
            if len(kept) < min_items:
                raise ValueError(f"list at least {min_items} activities that start in different hours after waking "
                                 f"up at {format_hour(wake)}; yours leave {len(kept)}")
    return kept


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


def one_an_hour(items: list[str], wake_hour: int, required: list[str] = ()) -> list[str]:
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
    required = [r for r in required if since_wake(clock_minute(r), wake_hour) < end]
    if not required:
        return items
    hours = {clock_minute(r) // 60 for r in required}
    keys = {(without_clock(r) or r).lower() for r in required}
    kept = [item for item in items
            if (clock_minute(item) is None or clock_minute(item) // 60 not in hours)
            and (without_clock(item) or item).lower() not in keys]
    spare = [item for item in kept if not is_waking_up(item) and not is_bed(item)]
    over = len(spare) + len(required) - (MAX_ITEMS - 2)   # the waking and bed items are the code's too
    if over > 0:
        last_first = [i for i in spare if clock_minute(i) is None] + [i for i in reversed(spare) if clock_minute(i) is not None]
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


class DailyPlanInputs(TaskInputs):
    identity: str
    lifestyle: str
    date: str
    first_name: str
    wake_up_time: str


class DailyPlanReply(Reply):
    items: list[PlanItem] = Field(
        min_length=MIN_ITEMS, max_length=MAX_ITEMS, description="the day's activities in order, each with a clock time"
    )

    @field_validator("items", mode="before")
    @classmethod
    def _one_line_items(cls, value):
        if isinstance(value, list):
            return [one_line(v) if isinstance(v, str) else v for v in value]
        return value

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo) -> "DailyPlanReply":
        inputs = inputs_of(info, DailyPlanInputs)
        self.items = check_plan_items(self.items, inputs.wake_up_time if inputs else None,
                                      bed_hour=bed_hour_of(inputs.lifestyle) if inputs else None,
                                      required=requirement_items(inputs.identity, inputs.first_name) if inputs else (),
                                      schedule=True)
        return self


def generic_day(wake_hour: int, bed_hour: int = 23) -> list[str]:
    """A plain, sensible day around the given wake-up hour (used by fail-safes)."""
    items = [wake_up_line(wake_hour)]
    if wake_hour + 1 < 12:
        items.append(f"eat breakfast at {format_hour(wake_hour + 1)}")
    if wake_hour + 2 < 12:
        items.append(f"work on the day's main tasks from {format_hour(wake_hour + 2)} to 12:00 pm")
    if wake_hour < 12:
        items.append("have lunch at 12:00 pm")
    if wake_hour < 13:
        items.append("continue the day's tasks from 1:00 pm to 5:00 pm")
    if wake_hour < 18:
        items.append("have dinner at 6:00 pm")
    if wake_hour < 19:
        items.append("relax at home from 7:00 pm")
    for filler in ("spend some time on a hobby", "tidy up at home"):
        if len(items) < MIN_ITEMS - 1:
            items.append(filler)
    items.append(bed_line(bed_hour))
    return items[:MAX_ITEMS]


_REQUIREMENT = re.compile(r"^\s*Daily plan requirement:\s*(.+)$", re.IGNORECASE | re.MULTILINE)
_BARE_TIME = re.compile(r"\b(\d{1,2})(?::(\d\d))?\s*(am|pm)\b", re.IGNORECASE)
_NAMED_PLACE = re.compile(r"\b([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)+)")   # "Willow Bean Cafe": a name of two words or more
_TIME_WORDS = re.compile(r"\s+(?:at|from|until|till|by|before|after)\s+\d")
_NUMBERED_LIST = re.compile(r"^\s*\d+\)\s*")


def requirement_items(identity: str, name: str = "") -> list[str]:
    """The clauses of the persona's "Daily plan requirement" that name a time, with clock times written out.

    "Nora opens Willow Bean Cafe at 7am and works behind the counter until 3pm" ->
    ["opens Willow Bean Cafe at 7:00 am", "works behind the counter at Willow Bean Cafe until 3:00 pm"]:
    a clause that names no place happens where the one before it did."""
    found = _REQUIREMENT.search(str(identity or ""))
    if not found:
        return []
    text = found.group(1).strip().rstrip(".")
    first = str(name or "").split()[0] if str(name or "").split() else ""
    if first:
        text = re.sub(rf"^{re.escape(first)}(?:\s+[A-Z][\w'-]*)?\s+", "", text)
    if _NUMBERED_LIST.match(text):
        # A revised requirement is the day's plan as a numbered list ("1) wake up ..., 2) paint
        # in the park from 9:00 am to 12:00 pm, ..."): each item is a clause with its own place,
        # and waking up and going to bed are the code's own first and last items.
        items = [_NUMBERED_LIST.sub("", item).strip() for item in re.split(r",\s*(?=\d+\)\s)", text)]
        return [item for item in items if item and clock_minute(item) is not None and len(item) <= 120
                and not is_waking_up(item) and not is_bed(item)]
    items, place = [], None
    for clause in re.split(r",\s*(?:and\s+)?|\s+and\s+|;\s*|\.\s+", text):
        clause = re.sub(r"^(?:he|she|they)\s+", "", clause.strip(), flags=re.IGNORECASE)
        clause = _BARE_TIME.sub(lambda m: f"{m.group(1)}:{m.group(2) or '00'} {m.group(3).lower()}", clause)
        clause = re.sub(r"\bnoon\b", "12:00 pm", re.sub(r"\bmidnight\b", "12:00 am", clause))
        named, timed = _NAMED_PLACE.search(clause), _TIME_WORDS.search(clause)
        if named:
            place = named.group(1)
        elif place and timed:
            clause = f"{clause[:timed.start()]} at {place}{clause[timed.start():]}"
        if clause and clock_minute(clause) is not None and len(clause) <= 120:
            items.append(clause)
    return items


def planned_day(wake_hour: int, bed_hour: int = 23, identity: str = "", name: str = "") -> list[str]:
    """The fail-safe day: the requirement's timed clauses (places and hours) around meals, else :func:`generic_day`."""
    required = [item for item in requirement_items(identity, name)
                if since_wake(clock_minute(item), wake_hour) < since_wake(bed_hour * 60, wake_hour)]
    if not required:
        return generic_day(wake_hour, bed_hour)
    taken = {clock_minute(item) // 60 for item in required}
    extra = [item for item in meals_and_breaks(wake_hour)
             if clock_minute(item) // 60 not in taken]  # one item per hour
    middle = [item for item in required + extra if clock_minute(item) // 60 > wake_hour or item in required]
    middle.sort(key=lambda item: since_wake(clock_minute(item), wake_hour))
    return [wake_up_line(wake_hour)] + middle[: MAX_ITEMS - 2] + [bed_line(bed_hour)]


def meals_and_breaks(wake_hour: int) -> list[str]:
    """The meals and breaks a fail-safe day is made of, around the wake-up hour."""
    return [f"eat breakfast at {format_hour(wake_hour + 1)}", "take a short break at 10:00 am",
            "have lunch at 12:00 pm", "take a short break at 3:00 pm", "have dinner at 6:00 pm",
            "relax at home at 8:00 pm"]


_MEALS = re.compile(r"\b(?:breakfast|lunch|dinner)\b")


def fillers(items: list[str], wake_hour: int, bed_hour: int) -> list[str]:
    """The fail-safe day's meals and breaks that fit around ``items`` (timed, after the wake-up hour):
    in an hour after waking and before bed that no item starts in or spans, and a meal only when
    ``items`` do not have it, in time order."""
    taken = {wake_hour % 24} | hours_taken(items)
    end = since_wake(bed_hour * 60, wake_hour) or MINUTES_PER_DAY
    meals = {word for item in items for word in _MEALS.findall(item.lower())}
    out = []
    for item in meals_and_breaks(wake_hour):
        hour = clock_minute(item) // 60
        if hour not in taken and 0 < since_wake(hour * 60, wake_hour) < end and not set(_MEALS.findall(item)) & meals:
            taken.add(hour)
            out.append(item)
    return out


def fail_safe(inputs: DailyPlanInputs, choices: dict) -> DailyPlanReply:
    bed = bed_hour_of(inputs.lifestyle)
    wake = hour_of(inputs.wake_up_time)
    day = planned_day(wake, 23 if bed is None else bed, inputs.identity, inputs.first_name)
    try:
        return DailyPlanReply.model_validate({"items": day}, context={"inputs": inputs})
    except ValueError:
        return DailyPlanReply(items=generic_day(wake, 23 if bed is None else bed))


DAILY_PLAN = Task(name="daily_plan", inputs=DailyPlanInputs, schema=DailyPlanReply, fail_safe=fail_safe,
                  used_in="plan: long-term planning, first day (scratch.daily_req)")


def daily_plan(
    llm: LanguageModel, *, identity: str, lifestyle: str, date: str, first_name: str, wake_up_hour: int,
    persona: str | None = None,
) -> list[str]:
    """The day's broad plan; item 1 is always "wake up and complete the morning routine at <H>:00 am",
    and the last is "go to bed at <H>:00 pm" at the lifestyle's bedtime when it names one.

    ``date`` is written like "Monday February 13".
    """
    inputs = DailyPlanInputs(
        identity=identity,
        lifestyle=lifestyle,
        date=date,
        first_name=first_name,
        wake_up_time=format_hour(wake_up_hour),
    )
    items = list(llm.ask(DAILY_PLAN, inputs, persona=persona or first_name).items)
    return with_wake_and_bed(items, wake_up_hour, bed_hour_of(lifestyle))


def with_wake_and_bed(items: list[str], wake_up_hour: int, bed_hour: int | None) -> list[str]:
    """The plan with the code's own first (waking) and last (bed) items."""
    middle = items[1:]
    if bed_hour is None:
        return [wake_up_line(wake_up_hour)] + middle
    if middle and is_bed(middle[-1]):
        middle = middle[:-1]
    return [wake_up_line(wake_up_hour)] + middle + [bed_line(bed_hour)]
