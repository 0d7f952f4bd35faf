"""How much a new memory matters to a persona, 1 to 10 (prompts event_poignancy, chat_poignancy).

The score feeds the reflection trigger and retrieval importance. Thoughts are scored with
the event prompt, like the original. The range is an enum, so a grammar enforces it and a
reply outside 1..10 is corrected instead of stored unclamped.
"""

from __future__ import annotations

from pydantic import Field

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs
from reverie.tasks.common import Reply, Scale

# A middling score: an unscored memory neither dominates retrieval nor stalls reflection.
FAIL_SAFE_RATING = 4


class PoignancyInputs(TaskInputs):
    persona_name: str
    identity: str
    description: str


class PoignancyReply(Reply):
    rating: Scale = Field(description="1 = ordinary routine, 10 = life-changing")


def fail_safe(inputs: PoignancyInputs, choices: Choices) -> PoignancyReply:
    return PoignancyReply(rating=FAIL_SAFE_RATING)


EVENT_POIGNANCY = Task("event_poignancy", PoignancyInputs, PoignancyReply, fail_safe)
CHAT_POIGNANCY = EVENT_POIGNANCY.asked_as("chat_poignancy")


def event_poignancy(llm: LanguageModel, *, persona_name: str, identity: str, description: str) -> int:
    """1..10: how much an event (or a thought) matters to the persona."""
    inputs = PoignancyInputs(persona_name=persona_name, identity=identity, description=description)
    rating: int = llm.ask(EVENT_POIGNANCY, inputs, persona=persona_name).rating
    return rating


def chat_poignancy(llm: LanguageModel, *, persona_name: str, identity: str, description: str) -> int:
    """1..10: how much a conversation (given by its summary) matters to the persona."""
    inputs = PoignancyInputs(persona_name=persona_name, identity=identity, description=description)
    rating: int = llm.ask(CHAT_POIGNANCY, inputs, persona=persona_name).rating
    return rating
