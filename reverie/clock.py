"""Game-clock strings in the original formats, and the arithmetic cognition needs."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

TIME_FMT = "%B %d, %Y, %H:%M:%S"  # scratch.curr_time, meta.json curr_time, movement meta
DATE_FMT = "%B %d, %Y"  # meta.json start_date
DAY_FMT = "%A %B %d"  # "Monday February 13": the day a plan belongs to


def parse_time(text: str) -> datetime:
    return datetime.strptime(text.strip(), TIME_FMT)


def format_time(when: datetime) -> str:
    return when.strftime(TIME_FMT)


def day_string(when: datetime) -> str:
    return when.strftime(DAY_FMT)


def minutes_of_day(when: datetime) -> float:
    return when.hour * 60 + when.minute + when.second / 60


def ceil_minute(when: datetime) -> datetime:
    """Round up to the next whole minute when there are seconds (as the original does)."""
    if when.second or when.microsecond:
        return when.replace(second=0, microsecond=0) + timedelta(minutes=1)
    return when


def hour_label(hour: int) -> str:
    """The 24 labels of the hourly schedule: "00:00 AM" ... "11:00 PM"."""
    suffix = "AM" if hour < 12 else "PM"
    h = hour if hour <= 12 else hour - 12
    return f"{h:02d}:00 {suffix}"


def duration_minutes(text_len_chars: int) -> int:
    """Conversation length: ~8 characters a word, 30 words a minute, at least one minute."""
    return max(1, math.ceil((text_len_chars // 8) / 30))
