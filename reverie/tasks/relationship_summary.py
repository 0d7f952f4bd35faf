"""How the speaker relates to the listener, from the speaker's memories (prompt relationship_summary).

Asked once per conversation and speaker (the original: before every utterance); the answer is a
focal point for the memories the next line draws on. The speaker's plan for the day is left out of
the memories unless it names the listener (docs/FIDELITY.md): the bundled model copied it as the
summary. A phrase the model repeats word for word is kept once.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, ValidationInfo, field_validator

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs, memories
from reverie.tasks.common import Checked, Reply, Text, bulleted, first_name, names, unlist

NO_MEMORIES = "- (no memories)"


class RelationshipInputs(TaskInputs):
    """The statements (a bulleted list) lose the speaker's plan for a day unless it names the
    listener (:func:`about_the_pair`), however the inputs were made (a unit's call, a captured case)."""

    speaker: str
    listener: str
    statements: str

    @field_validator("statements")
    @classmethod
    def _without_the_plan(cls, statements: str, info: ValidationInfo) -> str:
        listed = unlist(statements)
        shown = about_the_pair(listed, info.data.get("speaker", ""), info.data.get("listener", ""))
        return statements if len(shown) == len(listed) else bulleted(shown) or NO_MEMORIES


def _about_the_listener(value: str, inputs: RelationshipInputs | None) -> str:
    listener = inputs.listener if inputs else ""
    if listener and not names(value, listener):
        raise ValueError(f"the summary must say how they relate to {listener}; mention {first_name(listener)} by name")
    return value


class RelationshipReply(Reply):
    summary: Annotated[
        Text("the summary", 300, min_words=4, once=True), Checked(RelationshipInputs, _about_the_listener)
    ] = Field(description="how the two relate: feelings and what one knows of the other")


def _fail_safe(inputs: RelationshipInputs, choices: Choices) -> RelationshipReply:
    speaker = inputs.speaker or "They"
    listener = inputs.listener or "the other person"
    return RelationshipReply(summary=f"{speaker} does not know {listener} well yet.")


RELATIONSHIP_SUMMARY = Task(
    "relationship_summary", RelationshipInputs, RelationshipReply, _fail_safe, trim=memories("statements")
)


def about_the_pair(statements: list[str], speaker: str, listener: str) -> list[str]:
    """``statements`` without the speaker's plan for a day ("This is <speaker>'s plan for ...") unless
    it names the listener: it says nothing of the two, and a small model copies it as the summary."""
    plan = f"this is {speaker.lower()}'s plan for "
    return [s for s in statements if not s.strip().lower().startswith(plan) or names(s, listener)]


def relationship_summary(llm: LanguageModel, *, speaker: str, listener: str, statements: list[str]) -> str:
    """One or two sentences on how ``speaker`` relates to ``listener`` (never empty)."""
    inputs = RelationshipInputs(speaker=speaker, listener=listener, statements=bulleted(statements) or NO_MEMORIES)
    summary: str = llm.ask(RELATIONSHIP_SUMMARY, inputs, persona=speaker).summary
    return summary
