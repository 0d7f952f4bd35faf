"""Plain-text cues the scripted rules read: how much a statement matters, what is news in a
list of memories, and the time and place of an event a text announces.

Generic English, no world knowledge: an announcement ("is hosting", "is running for",
"invites") or a time of day on a date matters; routine ("is sleeping", "is idle") does not.
"""

from __future__ import annotations

import re

MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_NEWS = re.compile(
    r"\b(party|parties|celebrat\w*|festival|wedding|birthday|election|elect\w*|campaign\w*|running for|run for|"
    r"runs for|candida\w*|invit\w*|hosting|host\w* a|announc\w*|news|join (?:the|us|me)|tell\w* everyone|"
    r"meeting|concert|fair|gathering|event|opening|ceremony)\b",
    re.IGNORECASE,
)
_ROUTINE = re.compile(r"\b(sleep\w*|idle|asleep|bed|brush\w*|shower\w*|toilet|resting|waking)\b", re.IGNORECASE)
_TIME = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE)
_DATE = re.compile(rf"\b({'|'.join(MONTHS)})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", re.IGNORECASE)
_SPAN = re.compile(
    r"\bfrom\s+(\d{1,2}(?::\d{2})?\s*[ap]\.?\s?m)\.?\s+(?:to|until|till|-)\s+(\d{1,2}(?::\d{2})?\s*[ap]\.?\s?m)",
    re.IGNORECASE,
)
_PLACE = re.compile(r"\b(?:at|in)\s+(?:the\s+)?((?:[A-Z][\w'&-]*)(?:\s+(?:[A-Z][\w'&-]*|of|the|and))*)")
_LEAD = re.compile(r"^(?:for [^:]{1,60}'s planning:\s*|this is [^:]{1,60}:\s*)", re.IGNORECASE)
# What one tells of a memory about what was said: "<name> is conversing about <it>", "<name> heard
# from <name> that <it>", "<name> keeps in mind that <it>" -> <it>.
_REPORTED = re.compile(
    r"^(?:[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,3} )(?:is conversing about|heard from (?:[A-Z][\w'-]*"
    r"(?: [A-Z][\w'-]*){0,3}) that|keeps in mind that|knows that)\s+"
)


def importance(text: str) -> int:
    """1 (routine) to 9 (an announced event with a time): the cue-based poignancy of a statement."""
    text = str(text or "")
    score = 3 if "conversing about" in text.lower() or "chat" in text.lower() else 2
    if _ROUTINE.search(text):
        score = 1
    if _NEWS.search(text):
        score = 7
        if _TIME.search(text) or _DATE.search(text):
            score = 9
    return score


def is_news(text: str) -> bool:
    return bool(_NEWS.search(str(text or "")))


def bare(statement: str) -> str:
    """A memory as something one can tell: without "For X's planning:" and the like."""
    text = _LEAD.sub("", str(statement or "").strip()).strip()
    while True:
        inner = _REPORTED.sub("", text, count=1)
        if inner == text:
            return text
        text = inner[:1].upper() + inner[1:] if inner[:1].islower() else inner


def lines_of(block: str) -> list[str]:
    """A bulleted or numbered list (or a memory list with timestamps) -> its statements."""
    out = []
    for line in str(block or "").splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", line).strip()
        line = re.sub(r"^[A-Z][a-z]+day [A-Z][a-z]+ \d{1,2} -- \d{1,2}:\d{2} [AP]M:\s*", "", line)
        if line and not line.startswith("("):
            out.append(line)
    return out


def _same_news(a: str, b: str) -> bool:
    """Two statements about the same thing: half the words of the shorter in the other."""
    wa, wb = content_words(a), content_words(b)
    return bool(wa and wb) and len(wa & wb) * 2 >= min(len(wa), len(wb))


def most_important(statements: list[str], *, said: str = "", least: int = 7, avoid: list[str] = ()) -> str | None:
    """The statement that matters most (the first among equals: the list's own order), leaving
    out what ``said`` already holds and news the same as ``avoid``'s; None when nothing reaches ``least``."""
    best, best_score = None, least - 1
    spoken = said.lower()
    for statement in statements:
        told = bare(statement)
        if not told or told.lower().rstrip(".") in spoken or any(_same_news(told, other) for other in avoid):
            continue
        score = importance(told)
        if score > best_score:
            best, best_score = told, score
    return best


def news_items(statements: list[str], *, said: str = "", count: int = 2) -> list[str]:
    """Up to ``count`` different pieces of news (importance 7 or more), the most important first."""
    items: list[str] = []
    for _ in range(count):
        item = most_important(statements, said=said, avoid=items)
        if item is None:
            break
        items.append(item)
    return items


def times_of(text: str) -> list[int]:
    """The clock times a text names, in minutes after midnight, in order."""
    out = []
    for hour, minute, half in _TIME.findall(str(text or "")):
        h = int(hour) % 12 + (12 if half.lower() == "p" else 0)
        out.append(h * 60 + int(minute or 0))
    return out


def span_of(text: str) -> tuple[int, int] | None:
    """(start, end) minutes of "from 5pm to 7pm", or of the first time named (one hour)."""
    found = _SPAN.search(str(text or ""))
    if found:
        start, end = times_of(found.group(1))[0], times_of(found.group(2))[0]
        if end > start:
            return start, end
    times = times_of(text)
    return (times[0], times[0] + 60) if times else None


def dates_of(text: str) -> list[tuple[str, int]]:
    """("february", 14) for every month-and-day the text names."""
    return [(month.lower(), int(day)) for month, day in _DATE.findall(str(text or ""))]


def place_of(text: str) -> str | None:
    """The capitalised place after "at"/"in" ("at Willow Bean Cafe on ..." -> "Willow Bean Cafe")."""
    for found in _PLACE.finditer(str(text or "")):
        words = found.group(1).split()
        while words and words[-1].lower() in ("of", "the", "and"):
            words.pop()
        if words and words[0].lower() not in MONTHS:
            return " ".join(words)
    return None


def clock(minute: int) -> str:
    """540 -> "9:00 am"."""
    h, m = divmod(minute % (24 * 60), 60)
    return f"{h % 12 or 12}:{m:02d} {'am' if h < 12 else 'pm'}"


def sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", str(text or "")) if s.strip()]


def content_words(text: str) -> set[str]:
    stop = {
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "at",
        "is",
        "are",
        "was",
        "be",
        "you",
        "do",
        "did",
        "know",
        "that",
        "there",
        "who",
        "what",
        "for",
        "with",
        "about",
        "any",
        "anyone",
        "does",
        "it",
        "this",
        "i",
        "me",
        "my",
        "your",
        "have",
        "has",
        "he",
        "she",
        "they",
        "his",
        "her",
    }
    return {w for w in re.findall(r"[a-z']+", str(text or "").lower()) if w not in stop and len(w) > 2}


KINDS = re.compile(
    r"\b(party|celebration|festival|wedding|birthday|meeting|concert|fair|gathering|ceremony|"
    r"dinner|dance|picnic|show|exhibition|market|reunion|launch|event)\b",
    re.IGNORECASE,
)


def short_clock(minute: int) -> str:
    """1020 -> "5pm", 1050 -> "5:30pm": one word, as a short phrase wants it."""
    h, m = divmod(minute % (24 * 60), 60)
    return f"{h % 12 or 12}{f':{m:02d}' if m else ''}{'am' if h < 12 else 'pm'}"


def event_phrase(text: str) -> str | None:
    """An announced event in a few words, "<who>'s <event> at <place> on <date> from <start> to
    <end>" (its hours kept), when the text names a place and hours; else None."""
    text = str(text or "").strip()
    kind, place, span, dates = KINDS.search(text), place_of(text), span_of(text), dates_of(text)
    who = re.match(r"^([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)\s", text)
    if not (place and span):
        return None
    when = f" on {dates[0][0].capitalize()} {dates[0][1]}" if dates else ""
    return (
        (f"{who.group(1)}'s " if who else "the ") + f"{kind.group(1).lower() if kind else 'event'} at {place}{when} "
        f"from {short_clock(span[0])} to {short_clock(span[1])}"
    )


def compact(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters: an announced event as "<who>'s <event> at <place> on
    <date> from <start> to <end>" when it names them all, else cut at a word."""
    text = str(text or "").strip()
    if len(text) <= limit:
        return text
    kind, place, span, dates = KINDS.search(text), place_of(text), span_of(text), dates_of(text)
    who = re.match(r"^([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)\s", text)
    if place and span:
        when = f" on {dates[0][0].capitalize()} {dates[0][1]}" if dates else ""
        short = (f"{who.group(1)}'s " if who else "the ") + (
            f"{kind.group(1).lower() if kind else 'event'} at {place}{when} from {clock(span[0])} to {clock(span[1])}"
        )
        if len(short) <= limit:
            return short
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:")
