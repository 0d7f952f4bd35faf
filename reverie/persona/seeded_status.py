"""A seed's text in a persona's ``currently`` (its identity), kept across new days.

The original planted its two facts in ``currently`` and left each day's identity revision
to carry them on; a large model does. A small one often writes a status without them, and
the fact is then gone from every later prompt of that persona. So after a revision the
code keeps the seed's own words in the status: where the revised status does not hold them
word for word, they are added after it (once), until the day of the seed's event has passed
(a seed without an event: always). The model's rewording, if any, stays beside them
(docs/FIDELITY.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from reverie.persona.planned_event import PlannedEvent

DAY_FORMAT = "%B %d, %Y"


@dataclass(frozen=True)
class SeededStatus:
    text: str  # what the seed added to ``currently``
    until: str | None = None  # the seed's event day ("February 14, 2023"), kept through it; None: always


@dataclass(frozen=True)
class Seeds:
    """What a run's seeds give one persona: status texts its new days keep, and the events
    code puts into its plan (empty unless ``force_seed_plan``)."""

    status: tuple[SeededStatus, ...] = ()
    events: tuple[PlannedEvent, ...] = ()


# A sentence is already in a status when this share of its words are, and all its numbers
# (the same fact, told with a word changed: "is planning on having" for "is throwing").
SAME_FACT_SHARE = 0.8


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9']+", text.lower()) if len(w) > 2}


def holds(currently: str, text: str) -> bool:
    """Does ``currently`` already tell ``text``: word for word, or each of its sentences with
    nearly all its words and every number (a date, an hour)?"""
    currently, text = currently.strip(), text.strip()
    if not text or text in currently:
        return True
    if not set(re.findall(r"\d+", text)) <= set(re.findall(r"\d+", currently)):
        return False
    have = _words(currently)
    said = [_words(s) for s in re.split(r"(?<=[.!?])\s+", text) if _words(s)]
    return bool(said) and all(len(words & have) >= SAME_FACT_SHARE * len(words) for words in said)


def with_status(currently: str, text: str) -> str:
    """``currently`` with ``text`` added after it, unless it already holds it word for word."""
    currently, text = currently.strip(), text.strip()
    if not text or text in currently:
        return currently
    if not currently:
        return text
    return f"{currently}{'' if currently.endswith(('.', '!', '?')) else '.'} {text}"


def _day(text: str) -> datetime | None:
    try:
        return datetime.strptime(text, DAY_FORMAT)
    except ValueError:
        return None


def keep_seeded(status: str, seeded: Iterable[SeededStatus], today: datetime) -> str:
    """The revised ``status`` with the text of every seed still current (its event day not
    before ``today``) in it."""
    for seed in seeded:
        until = _day(seed.until) if seed.until else None
        if until is None or until.date() >= today.date():
            status = with_status(status, seed.text)
    return status
