"""Clock wording shared by the planning prompts: "6:00 am", "14:30", hours read out of prose."""

from __future__ import annotations

import re

MINUTES_PER_DAY = 24 * 60


def format_hour(hour: int) -> str:
    """6 -> "6:00 am", 0 -> "12:00 am", 13 -> "1:00 pm" (hours past 23 wrap)."""
    return format_clock(hour * 60)


def format_clock(minute_of_day: int) -> str:
    """570 -> "9:30 am", 0 -> "12:00 am" (the twelve-hour clock the plans are written in; past a day, it wraps)."""
    hour, minute = divmod(minute_of_day % MINUTES_PER_DAY, 60)
    return f"{hour % 12 or 12}:{minute:02d} {'am' if hour < 12 else 'pm'}"


def format_minute(minute_of_day: int) -> str:
    """570 -> "09:30" (24-hour clock; 1440 -> "24:00" so a window end reads naturally)."""
    if minute_of_day == MINUTES_PER_DAY:
        return "24:00"
    minute_of_day %= MINUTES_PER_DAY
    return f"{minute_of_day // 60:02d}:{minute_of_day % 60:02d}"


_TIME = r"(\d{1,2})(?::(\d\d))?\s*(am|pm|a\.m\.|p\.m\.)?"


def hour_after(text: str, keywords: tuple[str, ...]) -> int | None:
    """The hour (0..23) named soon after one of ``keywords`` in ``text``, else None.

    ``hour_after("goes to bed around 11pm, awakes up around 6am", ("awake", "wake"))`` -> 6.
    """
    lowered = text.lower()
    for keyword in keywords:
        for match in re.finditer(re.escape(keyword), lowered):
            found = re.search(_TIME, lowered[match.end() : match.end() + 30])
            if not found:
                continue
            hour = int(found.group(1))
            suffix = (found.group(3) or "").replace(".", "")
            if hour > 23 or (suffix and not 1 <= hour <= 12):
                continue
            if suffix == "pm" and hour != 12:
                hour += 12
            elif suffix == "am" and hour == 12:
                hour = 0
            return hour
    return None


def hour_in(text: str) -> int | None:
    """ "6:00 am" -> 6, "1:00 pm" -> 13, "18:00" -> 18; None when no hour is found."""
    return hour_after("@" + str(text), ("@",))


def hour_of(text: str, default: int = 8) -> int:
    """:func:`hour_in`, with ``default`` when no hour is found."""
    hour = hour_in(text)
    return default if hour is None else hour


WAKE_WORDS = ("wakes up", "wake up", "awakes", "awake", "wakes", "gets up", "get up", "rises")
BED_WORDS = ("goes to bed", "go to bed", "bed", "sleeps", "sleep")
