"""The rules a day keeps, written once for the validators and for the day-coherence measure.

A model writes the words of a day; the code keeps its clock. These helpers read clock times
out of plan items, find going to bed and sleeping, and check that a plan's times move
forward from the wake-up hour with bed last. Each check returns the exact correction to
send back (None when the rule holds).
"""

from __future__ import annotations

import re

from reverie.tasks.clock import format_clock, format_hour

MINUTES_PER_DAY = 24 * 60
EVENING_HOUR = 19  # sleeping before this hour (and after waking) breaks the day

_CLOCK = re.compile(r"(?<![\d:])(\d{1,2})(?::(\d\d))?\s*(am|pm|a\.m\.|p\.m\.)(?![a-z])", re.IGNORECASE)
_CLOCK_24 = re.compile(r"(?<![\d:])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])")
_TIME_PHRASE = re.compile(
    r"\s*\b(?:at|from|until|till|to|around|by|between)?\s*"
    r"(?:\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d\d)(?![a-z])"
    r"(?:\s*(?:to|until|till|and|-|~)\s*(?:\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d\d)(?![a-z]))?",
    re.IGNORECASE,
)
_UNTIL = re.compile(r"\b(?:until|till|by)\s+\d", re.IGNORECASE)  # "works until 3:00 pm" names an end, not a start
_TO_BED = r"go(?:es|ing)? (?:back )?to (?:bed|sleep)|get(?:s|ting)? (?:in)?to bed"
_BED = re.compile(rf"\b(?:{_TO_BED}|bed ?time|turns? in for the night|falls? asleep)\b", re.IGNORECASE)
_SLEEP = re.compile(rf"\b(?:sleep(?:s|ing)?|asleep|{_TO_BED}|in bed)\b", re.IGNORECASE)


def clock_minute(text: str) -> int | None:
    """The minute of the day (0..1439) of the first clock time in ``text``: "at 1:30 pm" -> 810."""
    found = _CLOCK.search(text)
    if found:
        hour, minute = int(found.group(1)), int(found.group(2) or 0)
        suffix = found.group(3).lower().replace(".", "")
        if hour > 23 or minute > 59:
            return None
        if 1 <= hour <= 12:
            hour = hour % 12 + (12 if suffix == "pm" else 0)
        return hour * 60 + minute  # "13:00 am": a 24-hour time with a stray am/pm reads as the 24-hour time
    found = _CLOCK_24.search(text)
    return int(found.group(1)) * 60 + int(found.group(2)) if found else None


def clock_span(text: str) -> tuple[int, int] | None:
    """The minutes of the day a "from X to Y" item covers ("work from 9:00 am to 5:00 pm" ->
    (540, 1020)); None without two clock times."""
    times = [found for found in _CLOCK.finditer(text)]
    if len(times) < 2:
        return None
    start, end = clock_minute(times[0].group(0)), clock_minute(times[1].group(0))
    return (start, end) if start is not None and end is not None else None


def span_hours(item: str) -> list[int]:
    """The hours of the day a from-to plan item holds ("from 9:00 am to 5:00 pm" -> 9..16; past
    midnight it wraps): the one rule for which hours a span holds, used by the hourly
    schedules, their fail-safes and day coherence."""
    span = clock_span(item)
    if span is None:
        return []
    start, end = span[0] // 60, -(-span[1] // 60)
    return [hour % 24 for hour in range(start, end if end > start else end + 24)]


def hours_taken(items: list[str]) -> set[int]:
    """The hours of the day ``items`` hold: a from-to item's (:func:`span_hours`, wrapping past
    midnight), another timed item's start hour."""
    taken: set[int] = set()
    for item in items:
        minute = clock_minute(item)
        taken |= set(span_hours(item)) or ({minute // 60} if minute is not None else set())
    return taken


def spans_cut(items: list[str], wake_hour: int) -> list[str]:
    """``items`` (in time order) with each "from X to Y" item ending where the next timed item
    starts, when that is before Y: "teach from 8:00 am to 12:00 pm" followed by "garden from
    9:00 am to 12:00 pm" becomes "teach from 8:00 am to 9:00 am" (a day holds one activity at a
    time, and the later item is at the time it names; "works until 3:00 pm" names an end, and cuts nothing)."""
    out = list(items)
    for index, item in enumerate(out):
        span = clock_span(item)
        if span is None or is_bed(item):
            continue
        start, end = (since_wake(minute, wake_hour) for minute in span)
        later = (clock_minute(other) for other in out[index + 1 :] if not _UNTIL.search(other))
        following = next((since_wake(minute, wake_hour) for minute in later if minute is not None), None)
        if following is not None and start < following < end:
            end_time = list(_CLOCK.finditer(item))[1]
            out[index] = item[: end_time.start()] + format_clock(wake_hour * 60 + following) + item[end_time.end() :]
    return out


def clock_phrase(text: str) -> str | None:
    """The clock time or time range written in ``text`` ("at 12:00 am", "9:00 am to 5:00 pm"), else None."""
    found = _TIME_PHRASE.search(text)
    return found.group(0).strip() if found else None


def without_clock(text: str) -> str:
    """``text`` with its clock times and ranges taken out: "opening the cafe at 8:00 am" -> "opening the cafe"."""
    return re.sub(r"\s{2,}", " ", _TIME_PHRASE.sub("", text)).strip(" ,.;-")


def is_bed(item: str) -> bool:
    """Going to bed: the end of the day."""
    return _BED.search(item) is not None


def is_sleeping(activity: str) -> bool:
    """The activity is sleeping (or going to bed); a nap is not."""
    return _SLEEP.search(activity) is not None


def since_wake(minute: int, wake_hour: int) -> int:
    """Minutes from the wake-up hour to ``minute`` of the day, wrapping past midnight."""
    return (minute - wake_hour * 60) % MINUTES_PER_DAY


def awake_hours(wake_hour: int, bed_hour: int | None) -> range:
    """The hours of the day a persona is up: from waking to bedtime (to midnight when bed is after it)."""
    wake = max(0, min(int(wake_hour), 23))
    if bed_hour is None or bed_hour <= wake:
        return range(wake, 24)
    return range(wake, bed_hour)


def is_daytime(hour: int, wake_hour: int, bed_hour: int | None) -> bool:
    """Hours after the wake-up hour and before the evening (or bedtime): no sleeping then."""
    end = min(EVENING_HOUR, bed_hour) if bed_hour is not None and bed_hour > wake_hour else EVENING_HOUR
    return wake_hour < hour < end


def plan_order_problem(items: list[str], wake_hour: int | None, bed_hour: int | None = None) -> str | None:
    """Why the plan's times do not move forward from waking with bed last (None: they do).

    ``items`` are in the plan's order; items with no clock time are checked only for bed."""
    for number, item in enumerate(items, 1):
        if is_bed(item) and number < len(items):
            after = items[number]
            return f'item {number} "{item}" comes before "{after}"; times must move forward and bed comes last'
    if wake_hour is None:
        return None
    previous: tuple[int, str, int] | None = None
    for number, item in enumerate(items, 1):
        minute = clock_minute(item)
        if minute is None:
            continue
        offset = since_wake(minute, wake_hour)
        outside = outside_day_problem(number, item, wake_hour, bed_hour) or span_problem(
            number, item, wake_hour, bed_hour
        )
        if outside:
            return outside
        if previous is not None and offset < previous[0]:
            return (
                f'item {previous[2]} "{previous[1]}" comes before "{item}", which is earlier in the day; '
                f"times must move forward from {format_hour(wake_hour)} and bed comes last"
            )
        previous = (offset, item, number)
    return None


def outside_day_problem(number: int, item: str, wake_hour: int, bed_hour: int | None) -> str | None:
    """Plan item ``number`` at a time from bedtime on (and before waking), with what to do instead (None: fine):
    from bedtime the hourly schedule is sleeping, so an item then would never be done."""
    minute = clock_minute(item)
    if bed_hour is None or minute is None or is_bed(item):
        return None
    bed_offset = since_wake(bed_hour * 60, wake_hour)
    if not bed_offset or since_wake(minute, wake_hour) < bed_offset:  # the bedtime hour is the bed item's
        return None
    return (
        f'item {number} "{item}" is outside the waking day ({format_hour(wake_hour)} to '
        f"{format_hour(bed_hour)}); give it a time between waking up and going to bed"
    )


def span_problem(number: int, item: str, wake_hour: int, bed_hour: int | None) -> str | None:
    """A "from X to Y" item whose end does not come after its start within the waking day
    ("9:00 am to 12:00 am" is 9 in the morning to midnight), with what to write instead (None: fine)."""
    span = clock_span(item)
    if span is None or is_bed(item):
        return None
    start, end = (since_wake(minute, wake_hour) for minute in span)
    bed = since_wake(bed_hour * 60, wake_hour) if bed_hour is not None else 0
    if start < end <= (bed or MINUTES_PER_DAY):
        return None
    until = f" and by bedtime ({format_hour(bed_hour)})" if bed and bed_hour is not None else ""
    return (
        f'item {number} "{item}" ends before it starts or after bedtime; 12:00 pm is noon and 12:00 am is '
        f"midnight: give an end time after the start{until}"
    )


def _twin(item: str, found: re.Match[str]) -> str:
    """``item`` with the am/pm of the clock time ``found`` swapped."""
    suffix = found.group(3)
    twin = {"am": "pm", "pm": "am", "a.m.": "p.m.", "p.m.": "a.m."}[suffix.lower()]
    return item[: found.start(3)] + (twin.upper() if suffix.isupper() else twin) + item[found.end(3) :]


def meridiem_fixed(item: str, wake_hour: int, bed_hour: int | None) -> str:
    """A plan item whose time falls outside the waking day, but whose twelve-hour twin does not,
    at that twin: "teach from 2:00 am to 5:00 pm" in a day from 7 am to 11 pm -> "teach from
    2:00 pm to 5:00 pm"; likewise a from-to span that ends before it starts takes the first of
    its end's twin, its start's twin or both that fits the waking day: "work from 9:00 am to
    12:00 am" -> "... to 12:00 pm", "teach from 8:30 pm to 12:30 pm" -> "from 8:30 am to ..."
    (a small model mixes up am and pm; the code keeps the clock)."""
    found = _CLOCK.search(item)
    if found is not None and outside_day_problem(0, item, wake_hour, bed_hour) is not None:
        fixed = _twin(item, found)
        item = fixed if outside_day_problem(0, fixed, wake_hour, bed_hour) is None else item
    times = list(_CLOCK.finditer(item))
    if len(times) >= 2 and span_problem(0, item, wake_hour, bed_hour) is not None:
        for fixed in (_twin(item, times[1]), _twin(item, times[0]), _twin(_twin(item, times[1]), times[0])):
            if span_problem(0, fixed, wake_hour, bed_hour) is None:
                return fixed
    return item


def activity_clock_problem(activity: str, what: str = "the activity") -> str | None:
    """A clock time inside an hourly activity, with the wording to use instead (None: none)."""
    phrase = clock_phrase(activity)
    if phrase is None:
        return None
    bare = without_clock(activity)
    instead = f', like "{bare}"' if bare else ""
    return (
        f'{what} "{activity}" names a time ("{phrase}"); the hour is already known, so write only the activity{instead}'
    )


def daytime_sleep_problem(
    activity: str, hour: int, wake_hour: int, bed_hour: int | None, what: str = "the activity"
) -> str | None:
    """Sleeping in the middle of the waking day, with what to do instead (None: fine)."""
    if not is_sleeping(activity) or not is_daytime(hour, wake_hour, bed_hour):
        return None
    bed = f" and goes to bed at {format_hour(bed_hour)}" if bed_hour is not None else ""
    return (
        f'{what} at {format_hour(hour)} is "{activity}", but the character wakes up at {format_hour(wake_hour)}{bed}; '
        "name something done awake at that hour"
    )
