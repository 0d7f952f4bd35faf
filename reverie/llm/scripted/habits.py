"""A resident's habits as its own texts tell them, for the scripted planner and mover.

Residents are described in prose, as the original describes them: "goes to the library at
<College> early in the morning, spends his days writing, and eats at <Cafe>"; "likes to hang
out at <Cafe> if it's before 6pm". Each clause is one habit: what kind of thing it is (work or
study, a meal, leisure: told by generic English verbs), the place it names (a capitalised
name after "at", "in", "to", "of" or "visits"; else "the <noun>" after "at" or "in") and the
hours it gives, if any. Nothing here knows a town, a person or a phrase of one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from reverie.llm.scripted.cues import MONTHS, is_news, sentences, span_of, times_of


class Kind(StrEnum):
    WORK = "work"  # work or study: the day's main place
    MEAL = "meal"
    LEISURE = "leisure"


_KINDS = {
    # Eating, not a meal others have ("what the fishermen like for breakfast").
    Kind.MEAL: re.compile(
        r"\b(eat|eats|eating|din(?:e|es|ing)|(?:ha(?:s|ve|ving)|takes?|grabs?|buys?)\s+(?:a |an |her |"
        r"his |their |some )?(?:breakfast|lunch|dinner|meals?|brunch|coffee|tea))\b",
        re.I,
    ),
    Kind.WORK: re.compile(
        r"\b(work\w*|job|opens?|manag\w*|shifts?|teach\w*|writ(?:e|es|ing)|research\w*|stud(?:y|ies|ying|ent)|"
        r"class(?:es)?|pupil|lectur\w*|paint\w*|practi[cs]\w*|volunteer\w*|garden(?:s|ing)|bak(?:e|es|ing)|"
        r"cook(?:s|ing)?|serv(?:e|es|ing)|sell\w*|owner|owns|runs (?:the|a|an|his|her|their))\b",
        re.I,
    ),
    Kind.LEISURE: re.compile(
        r"\b(hang\w* out|visit\w*|likes? to|loves? to|enjoy\w*|relax\w*|walk(?:s|ing)?|jog\w*|play\w*|stream\w*|"
        r"gam(?:e|es|ing)|read(?:s|ing)?|spend\w* time)\b(?!\s+to\b)",
        re.I,
    ),  # "walks to <place>": going there
}
# Clauses about sleep or about where one lives are no habit of the waking day.
_SLEEP = re.compile(
    r"\b(bed|sleep\w*|wak\w*|awake\w*|gets? up|morning routine|li(?:ve|ves|ved|ving)|grew up|born)\b", re.I
)
_NAME = r"[A-Z][\w'&-]*(?:\s+(?:of|the|and|for|[A-Z][\w'&-]*))*"
_NAMED_PLACE = re.compile(
    rf"\b(at|in|on|to|of|near|around|across|along|inside|visit(?:s|ing)?|opens?|runs?|"
    rf"manag(?:es|ing)|owns?)\s+(?:the\s+)?({_NAME})"
)
# After these a name of one word is seldom a place ("streams on Twitch"): two words or more.
_LOOSE = ("on", "around", "across", "along")
_COMMON_PLACE = re.compile(r"\b(?:at|in)\s+(the\s+[a-z][\w'-]*)")
_NOT_PLACES = re.compile(r"\b(morning|afternoon|evening|night|day|days|week|weekend|moment|end|time|world|life)\b")
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_BEFORE = re.compile(r"\b(?:before|until|till|by)\s+(\d{1,2}(?::\d{2})?\s*[ap]\.?\s?m)", re.I)
_EARLY = re.compile(r"\bearly in the morning\b|\bfirst thing\b", re.I)
# Clause breaks: a comma or semicolon, or "and" before a verb in the third person ("... and works at").
_CLAUSES = re.compile(r"\s*[,;]\s*(?:and\s+)?|\s+and\s+(?=[a-z]+s\b)")
# A clause that starts so continues the one before it ("writes from 10am to 4pm, at the library").
_CONTINUES = re.compile(r"^(?:at|in|on|to|for|with|from|before|after|if|until|till|or|near)\b", re.I)
# Times and conditions leave the activity's words: the plan says when.
_TIMES = re.compile(
    r"\s*\b(?:(?:from|at|until|till|before|after|by|around|about|to)\s+)?(?:\d{1,2}(?::\d{2})?\s*[ap]\.?\s?m\b\.?"
    r"|noon|midnight)",
    re.I,
)
_CONDITION = re.compile(r",?\s*\b(?:if|when|unless|whenever)\b.*$", re.I)
_SUBJECT = re.compile(r"^(?:he|she|they|[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})\s+(?=[a-z])")


@dataclass(frozen=True)
class Habit:
    kinds: frozenset[Kind]
    doing: str  # the clause as an activity: "eat at <Cafe>"
    place: str = ""  # the place it names ("" when none)
    start: int | None = None  # the hour it names, if any
    end: int | None = None
    before: int | None = None  # "if it's before 6pm", "until 8pm": done by this hour
    early: bool = False  # "early in the morning"

    def allows(self, hour: int) -> bool:
        return self.before is None or hour < self.before


def kinds_of(text: str) -> frozenset[Kind]:
    """The kinds of habit an activity's words tell (empty for none)."""
    return frozenset(k for k, pattern in _KINDS.items() if pattern.search(str(text or "")))


def _base_form(verb: str) -> str:
    """ "goes" -> "go", "studies" -> "study", "eats" -> "eat" (the first word of an activity)."""
    low = verb.lower()
    if low in ("is", "are"):
        return "be"
    if low == "has":
        return "have"
    if low.endswith("ies") and len(low) > 4:
        return verb[:-3] + "y"
    if re.search(r"(?:oes|shes|ches|sses|xes)$", low):
        return verb[:-2]
    if low.endswith("s") and not low.endswith("ss") and len(low) > 3:
        return verb[:-1]
    return verb


def place_in(clause: str, own_name: str = "") -> str:
    """The place a clause names: a capitalised name (not the resident's own, a month or a
    weekday), else "the <noun>" after "at" or "in"; "" when none."""
    skip = {w.lower() for w in own_name.split()} | set(MONTHS) | set(_DAYS)
    for found in _NAMED_PLACE.finditer(clause):
        words = found.group(2).split()
        while words and words[-1].lower() in ("of", "the", "and", "for"):
            words.pop()
        if found.group(1).lower() in _LOOSE and len(words) < 2:
            continue
        if words and words[0].lower() not in skip:
            return " ".join(words)
    for found in _COMMON_PLACE.finditer(clause):
        if not _NOT_PLACES.search(found.group(1)):
            return found.group(1)
    return ""


def _clauses(text: str) -> list[list[str]]:
    """Each sentence that is no news, as its clauses (a continuing clause joined to the one before)."""
    out = []
    for sentence in sentences(text):
        if is_news(sentence):
            continue  # an announced event is planned as an event, not as a habit
        parts: list[str] = []
        for part in _CLAUSES.split(sentence.rstrip(".!?")):
            part = re.sub(r"^\d+[.)]\s*", "", part.strip())  # an item of a numbered list
            if part and parts and _CONTINUES.match(part):
                parts[-1] = f"{parts[-1]}, {part}"
            elif part:
                parts.append(part)
        out.append(parts)
    return out


def _activity(clause: str, kinds: frozenset[Kind], place: str) -> str:
    """The clause as an activity: subject dropped, first verb in its base form. A description
    ("is a student at X") becomes what it means one does there ("study at X")."""
    words = _CONDITION.sub("", _TIMES.sub("", _SUBJECT.sub("", clause, count=1))).split()
    if not words:
        return clause
    if words[0].lower() in ("is", "are", "was") and place:
        verb = "study" if re.search(r"\b(?:stud|pupil|class)", clause, re.I) else "work"
        return f"{verb} at {place}"
    return " ".join([_base_form(words[0]), *words[1:]])


def habits_of(texts: list[str], own_name: str = "") -> list[Habit]:
    """The habits the texts tell, in their order. A clause naming no place of its own takes the
    place of the clause before it in the same sentence ("opens <Cafe> at 8am, and works at the
    counter until 8pm": the counter is at the cafe)."""
    found: list[Habit] = []
    for text in texts:
        for clauses in _clauses(text):
            last_place = ""
            for clause in clauses:
                if _SLEEP.search(clause):
                    continue
                kinds = kinds_of(clause)
                own_place = place_in(clause, own_name)
                named = own_place and own_place[0].isupper()
                place = own_place if named else (last_place or own_place)
                last_place = place if named or not last_place else last_place
                if not kinds and place:
                    kinds = frozenset({Kind.WORK})  # going somewhere, unsaid why: the day's place
                if not kinds:
                    continue
                before = _BEFORE.search(clause)
                times = [] if before else times_of(clause)
                span = span_of(clause) if len(times) > 1 else None
                doing = _activity(clause, kinds, place)
                if place and place.lower() not in doing.lower():
                    doing = f"{doing} at {place}"
                found.append(
                    Habit(
                        kinds,
                        re.sub(r"\s+", " ", doing)[:90].rstrip(" ,"),
                        place,
                        start=times[0] // 60 if times else None,
                        end=span[1] // 60 if span else None,
                        before=times_of(before.group(1))[0] // 60 if before else None,
                        early=bool(_EARLY.search(clause)),
                    )
                )
    return found
