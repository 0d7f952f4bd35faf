"""How much each of a persona's new memories matters to it, in one call (prompt events_poignancy).

New events and thoughts wait for their score until something reads it
(``reverie/persona/ratings.py``); rating them one call each made ``event_poignancy`` the most
frequent prompt of a run. This unit sends the waiting ones as a numbered
list and reads back one 1..10 score per event, in order. The call passes the events as its
``events`` choice, so the grammar writes exactly that many scores (``minItems`` =
``maxItems``); without a grammar a list of the wrong length or a score outside 1..10 goes
back to the model with what to fix. The fail-safe gives every event the single prompt's
middling score (the chain logs it). One event is still rated with ``event_poignancy``.

The persona's identity comes after the rating scale and the example, so that stable text is
the same for every persona (llama.cpp's prompt cache reuses it), and without the lines a
rating does not read (when the persona sleeps, today's date).
"""

from __future__ import annotations

from typing import Annotated

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs, items_field
from reverie.tasks.common import Checked, Reply, Scale, numbered
from reverie.tasks.poignancy import FAIL_SAFE_RATING

# The most events one call rates (the grammar's bound; longer lists go in several calls).
MAX_EVENTS = 12
# Identity lines (see ``Scratch.identity``) that say nothing about what matters to the persona.
UNRATED_LINES = ("Lifestyle:", "Current Date:")


def rating_identity(identity: str) -> str:
    """The identity without :data:`UNRATED_LINES`."""
    return "\n".join(line for line in identity.splitlines() if not line.startswith(UNRATED_LINES))


class EventsPoignancyInputs(TaskInputs):
    persona_name: str
    identity: str
    events: str  # numbered from 1, one per line
    count: int


def _one_per_event(values: list[int], inputs: EventsPoignancyInputs | None) -> list[int]:
    if inputs is not None and len(values) != inputs.count:
        raise ValueError(
            f"give exactly {inputs.count} ratings, one for each numbered memory in order; you gave {len(values)}"
        )
    return values


class EventsPoignancyReply(Reply):
    ratings: Annotated[list[Scale], Checked(EventsPoignancyInputs, _one_per_event)] = items_field(
        "events", MAX_EVENTS, "one score per memory, in the order given: 1 = routine, 10 = life-changing", min_length=1
    )


def fail_safe(inputs: EventsPoignancyInputs, choices: Choices) -> EventsPoignancyReply:
    return EventsPoignancyReply(ratings=[FAIL_SAFE_RATING] * max(1, min(inputs.count, MAX_EVENTS)))


EVENTS_POIGNANCY = Task("events_poignancy", EventsPoignancyInputs, EventsPoignancyReply, fail_safe)


def events_poignancy(llm: LanguageModel, *, persona_name: str, identity: str, descriptions: list[str]) -> list[int]:
    """1..10 for each description, in order (one call per ``MAX_EVENTS`` of them)."""
    scores: list[int] = []
    identity = rating_identity(identity)
    for start in range(0, len(descriptions), MAX_EVENTS):
        chunk = descriptions[start : start + MAX_EVENTS]
        inputs = EventsPoignancyInputs(
            persona_name=persona_name, identity=identity, events=numbered(chunk, 1), count=len(chunk)
        )
        scores += llm.ask(EVENTS_POIGNANCY, inputs, persona=persona_name, choices={"events": chunk}).ratings
    return scores
