"""Interview mode: a persona answers the user (prompts safety_score, summarize_ideas, next_convo_line).

For each line the user types: the safety check first (a score of 8 or more skips the
answer), then the memories relevant to the line are summarized, then the persona answers.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs, memories, transcript_of
from reverie.tasks.common import Checked, Reply, Scale, Text, bulleted, check_text, first_name, transcript
from reverie.tasks.prompt_text import transcript_rows

# Lines scoring this much or more are not answered (the original's threshold).
SAFETY_THRESHOLD = 8


# --- safety_score -------------------------------------------------------------------------


class SafetyInputs(TaskInputs):
    comment: str


class SafetyReply(Reply):
    score: Scale = Field(description="1 = ordinary question, 10 = treats the agent as a human friend or partner")


def _safety_fail_safe(inputs: SafetyInputs, choices: Choices) -> SafetyReply:
    return SafetyReply(score=1)  # a check that cannot be made must not block the interview


SAFETY_SCORE = Task("safety_score", SafetyInputs, SafetyReply, _safety_fail_safe)


def safety_score(llm: LanguageModel, *, comment: str, persona_name: str | None = None) -> int:
    """1..10: how much the user's line treats the agent as a human friend or partner."""
    score: int = llm.ask(SAFETY_SCORE, SafetyInputs(comment=comment), persona=persona_name).score
    return score


# --- summarize_ideas ----------------------------------------------------------------------


class IdeasInputs(TaskInputs):
    persona_name: str
    statements: str
    question: str


class IdeasReply(Reply):
    summary: Text("the summary", 400, min_words=3) = Field(
        description="what the persona remembers that bears on the line"
    )


def _ideas_fail_safe(inputs: IdeasInputs, choices: Choices) -> IdeasReply:
    return IdeasReply(summary=f"{inputs.persona_name or 'The persona'} remembers nothing in particular about this.")


SUMMARIZE_IDEAS = Task("summarize_ideas", IdeasInputs, IdeasReply, _ideas_fail_safe, trim=memories("statements"))


def summarize_ideas(llm: LanguageModel, *, persona_name: str, statements: list[str], question: str) -> str:
    """A short summary of the ``statements`` most relevant to the interviewer's ``question``."""
    inputs = IdeasInputs(
        persona_name=persona_name, statements=bulleted(statements) or "- (no memories)", question=question
    )
    summary: str = llm.ask(SUMMARIZE_IDEAS, inputs, persona=persona_name).summary
    return summary


# --- next_convo_line ----------------------------------------------------------------------


def strip_speaker(value: str, *names: str) -> str:
    """Drop a leading ``Name:`` and surrounding quotes from an utterance."""
    for name in sorted({n for full in names if full for n in (full, first_name(full))}, key=len, reverse=True):
        value = re.sub(rf"^\s*{re.escape(name)}\s*:\s*", "", value, flags=re.IGNORECASE)
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1].strip()
    return value


class AnswerInputs(TaskInputs):
    persona_name: str
    identity: str
    interlocutor: str
    conversation: str
    summary: str


def _answer(value: str, inputs: AnswerInputs | None) -> str:
    name = inputs.persona_name if inputs else ""
    value = check_text(strip_speaker(value, name), "the answer", min_words=2)
    rows = transcript_rows(inputs.conversation) if inputs else []
    lines = [said.strip().lower() for _speaker, said in rows]
    if lines and value.lower().rstrip("?.!") == lines[-1].rstrip("?.!"):
        raise ValueError(f"that repeats the question; answer it as {first_name(name) or 'the persona'} would")
    return value


class AnswerReply(Reply):
    utterance: Annotated[str, Checked(AnswerInputs, _answer)] = Field(
        max_length=400, description="what the persona says next, in their own voice"
    )


def _answer_fail_safe(inputs: AnswerInputs, choices: Choices) -> AnswerReply:
    return AnswerReply(utterance="I'm not sure what to say about that.")


NEXT_CONVO_LINE = Task(
    "next_convo_line", AnswerInputs, AnswerReply, _answer_fail_safe, trim=transcript_of("conversation")
)


def next_convo_line(
    llm: LanguageModel,
    *,
    persona_name: str,
    identity: str,
    interlocutor: str,
    conversation: list[tuple[str, str]],
    summary: str,
) -> str:
    """The persona's next line in an interview; ``conversation`` ends with the interviewer's line."""
    inputs = AnswerInputs(
        persona_name=persona_name,
        identity=identity,
        interlocutor=interlocutor,
        conversation=transcript(conversation),
        summary=summary,
    )
    return llm.ask(NEXT_CONVO_LINE, inputs, persona=persona_name).utterance
