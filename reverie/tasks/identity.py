"""A new day's identity revision (prompts identity_plan_note, identity_thought_note,
identity_new_currently, identity_new_daily_req).

From the persona's recent memories: a planning note and a feelings note (first person),
then a new ``currently`` (third person; stored without the original's "Status:" prefix; an
opening "I am" / "I have" / "I will" is rewritten with the name by the code)
and a new ``daily_plan_req`` (a numbered plan starting with waking up). Fail-safes keep
what the persona had: the old ``currently``, and the old requirement framed by the
wake-up and bed-time items.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated

from pydantic import Field, ValidationInfo, field_validator

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs, memories
from reverie.tasks.clock import BED_WORDS, format_hour, hour_after, hour_of
from reverie.tasks.common import Reply, Text, check_text, inputs_of, one_line
from reverie.tasks.common import first_name as first_name_of
from reverie.tasks.daily_plan import CheckedPlan
from reverie.tasks.plan_check import PlanRules, bed_hour_of, is_waking_up, wake_up_line
from reverie.tasks.prompt_text import labelled_value

NOTE_MAX = 500
MIN_NOTE_WORDS = 5
MIN_ITEMS, MAX_ITEMS = 3, 8
ITEM_MAX = 120
_FIRST_PERSON = re.compile(r"\bI(?:'m|'ve|'ll|'d)?\b|\b(?i:me|my|myself)\b")


class PlanNoteInputs(TaskInputs):
    name: str
    statements: str
    date: str


class ThoughtNoteInputs(TaskInputs):
    name: str
    statements: str


class CurrentlyInputs(TaskInputs):
    name: str
    currently: str
    plan_note: str
    thought_note: str
    date: str


class DailyReqInputs(TaskInputs):
    name: str
    identity: str
    date: str
    wake_up_time: str


class NoteReply(Reply):
    note: Text("the note", NOTE_MAX, min_words=MIN_NOTE_WORDS) = Field(description="two or three sentences")


class CurrentlyReply(Reply):
    status: str = Field(max_length=NOTE_MAX, description="the character's status today, third person")

    @field_validator("status")
    @classmethod
    def _check(cls, value: str, info: ValidationInfo) -> str:
        value = re.sub(r"^\s*status\s*:\s*", "", one_line(value), flags=re.IGNORECASE)
        value = check_text(value, "the status", min_words=MIN_NOTE_WORDS)
        inputs = inputs_of(info, CurrentlyInputs)
        first = first_name_of(inputs.name) if inputs else ""
        if inputs and inputs.name.strip():
            value = in_third_person(value, inputs.name.strip())
        if _FIRST_PERSON.search(value):
            raise ValueError(f'write the status in the third person ("{first} is ..."), not with I/me/my')
        if first and first.lower() not in value.lower():
            raise ValueError(f'mention {first} by name: write the status in the third person, like "{first} is ..."')
        return value


_I_START = {"i am": "is", "i'm": "is", "i have": "has", "i've": "has", "i will": "will", "i'll": "will"}


def in_third_person(status: str, name: str) -> str:
    """A status that opens with "I am" / "I have" / "I will" opens with the name instead
    ("I am hosting the party" -> "Isabella Rodriguez is hosting the party"); other first-person
    words are left for the check to send back."""
    found = re.match(r"^(i am|i'm|i have|i've|i will|i'll)\b\s*", status, flags=re.IGNORECASE)
    if not found:
        return status
    return f"{name} {_I_START[found.group(1).lower()]} {status[found.end() :]}".strip()


PlanItem = Annotated[str, Field(max_length=ITEM_MAX)]


class DailyReqReply(CheckedPlan):
    items: list[PlanItem] = Field(
        min_length=MIN_ITEMS, max_length=MAX_ITEMS, description="the day's plan, with clock times"
    )

    @classmethod
    def rules(cls, info: ValidationInfo) -> PlanRules:
        return _req_rules(inputs_of(info, DailyReqInputs))


def _req_rules(inputs: DailyReqInputs | None) -> PlanRules:
    """The daily requirement's plan is held to the wake-up hour and the lifestyle's bedtime."""
    bed = bed_hour_of(labelled_value(inputs.identity, "Lifestyle")) if inputs else None
    return PlanRules.at(inputs.wake_up_time if inputs else None, bed=bed, min_items=MIN_ITEMS)


def _note_fail_safe(inputs: PlanNoteInputs | ThoughtNoteInputs, choices: Choices) -> NoteReply:
    name = first_name_of(inputs.name) or "I"
    return NoteReply(note=f"Nothing stands out from the last few days; {name} will follow the usual routine today.")


def _currently_fail_safe(inputs: CurrentlyInputs, choices: Choices) -> CurrentlyReply:
    old = one_line(inputs.currently)
    name = inputs.name or "The character"
    if len(old.split()) < MIN_NOTE_WORDS or first_name_of(name).lower() not in old.lower():
        old = f"{name} is going about the usual routine. {old}".strip()
    return CurrentlyReply(status=old[:NOTE_MAX])


def split_numbered(text: str) -> list[str]:
    """ "1) a, 2) b" -> ["a", "b"]; any other text -> [text]."""
    text = one_line(text)
    if not re.match(r"^1[.)]\s", text):
        return [text] if text else []
    parts = re.split(r"(?:^|,?\s+)\d+[.)]\s+", text)
    return [p.strip(" ,") for p in parts if p.strip(" ,")]


def _shorten(text: str, limit: int = ITEM_MAX) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;") or text[:limit]


def _daily_req_fail_safe(inputs: DailyReqInputs, choices: Choices) -> DailyReqReply:
    identity = inputs.identity
    old = split_numbered(labelled_value(identity, "Daily plan requirement"))
    items = [wake_up_line(hour_of(inputs.wake_up_time))]
    for item in old:
        item = _shorten(item)
        if item and not is_waking_up(item) and item.lower() not in (i.lower() for i in items):
            items.append(item)
    items = items[: MAX_ITEMS - 1]
    if not any(re.search(r"\bbed\b|\bsleep", i, re.IGNORECASE) for i in items[1:]):
        bed = hour_after(labelled_value(identity, "Lifestyle"), BED_WORDS)
        items.append(f"go to bed at {format_hour(23 if bed is None else bed)}")
    while len(items) < MIN_ITEMS:
        items.insert(-1, ("have lunch at 12:00 pm", "have dinner at 6:00 pm")[len(items) - 2])
    return DailyReqReply(items=items)


IDENTITY_PLAN_NOTE = Task("identity_plan_note", PlanNoteInputs, NoteReply, _note_fail_safe, trim=memories("statements"))
IDENTITY_THOUGHT_NOTE = Task(
    "identity_thought_note", ThoughtNoteInputs, NoteReply, _note_fail_safe, trim=memories("statements")
)
IDENTITY_NEW_CURRENTLY = Task("identity_new_currently", CurrentlyInputs, CurrentlyReply, _currently_fail_safe)
IDENTITY_NEW_DAILY_REQ = Task("identity_new_daily_req", DailyReqInputs, DailyReqReply, _daily_req_fail_safe)


def format_statements(memories: list[tuple[datetime, str]]) -> str:
    """Retrieved memories as "Monday February 13 -- 08:00 AM: text" lines."""
    return "\n".join(f"{created.strftime('%A %B %d -- %I:%M %p')}: {one_line(text)}" for created, text in memories)


def join_items(items: list[str]) -> str:
    """["a", "b"] -> "1) a, 2) b" (how ``daily_plan_req`` is stored)."""
    return ", ".join(f"{i}) {one_line(item)}" for i, item in enumerate(items, 1))


def identity_plan_note(llm: LanguageModel, *, name: str, statements: str, date: str) -> str:
    inputs = PlanNoteInputs(name=name, statements=statements.strip() or "(no memories yet)", date=date)
    note: str = llm.ask(IDENTITY_PLAN_NOTE, inputs, persona=name).note
    return note


def identity_thought_note(llm: LanguageModel, *, name: str, statements: str) -> str:
    inputs = ThoughtNoteInputs(name=name, statements=statements.strip() or "(no memories yet)")
    note: str = llm.ask(IDENTITY_THOUGHT_NOTE, inputs, persona=name).note
    return note


def identity_new_currently(
    llm: LanguageModel, *, name: str, currently: str, plan_note: str, thought_note: str, date: str
) -> str:
    inputs = CurrentlyInputs(
        name=name,
        currently=one_line(currently),
        plan_note=one_line(plan_note),
        thought_note=one_line(thought_note),
        date=date,
    )
    return llm.ask(IDENTITY_NEW_CURRENTLY, inputs, persona=name).status


def identity_new_daily_req(llm: LanguageModel, *, name: str, identity: str, date: str, wake_up_hour: int) -> str:
    inputs = DailyReqInputs(name=name, identity=identity, date=date, wake_up_time=format_hour(wake_up_hour))
    items = list(llm.ask(IDENTITY_NEW_DAILY_REQ, inputs, persona=name).items)
    return join_items([wake_up_line(wake_up_hour)] + items[1:])


def revise_identity(
    llm: LanguageModel, *, name: str, identity: str, currently: str, statements: str, date: str, wake_up_hour: int
) -> tuple[str, str]:
    """Run the four prompts: returns (new ``currently``, new ``daily_plan_req``).

    ``statements`` comes from :func:`format_statements`; ``date`` reads like "Tuesday February 14".
    """
    plan_note = identity_plan_note(llm, name=name, statements=statements, date=date)
    thought_note = identity_thought_note(llm, name=name, statements=statements)
    new_currently = identity_new_currently(
        llm, name=name, currently=currently, plan_note=plan_note, thought_note=thought_note, date=date
    )
    new_identity = "\n".join(
        f"Currently: {new_currently}" if line.startswith("Currently:") else line for line in identity.splitlines()
    )
    daily_req = identity_new_daily_req(llm, name=name, identity=new_identity, date=date, wake_up_hour=wake_up_hour)
    return new_currently, daily_req
