"""Interview mode: a persona answers the user (prompts safety_score, summarize_ideas, next_convo_line).

For each line the user types: the safety check first (a score of 8 or more skips the
answer), then the memories relevant to the line are summarized, then the persona answers.
"""

from __future__ import annotations

import re

from pydantic import Field, ValidationInfo, field_validator

from reverie.llm.task import Task, memories, register, transcript_of
from reverie.tasks.common import Reply, Scale, bulleted, check_text, first_name, inputs_of, transcript

# Lines scoring this much or more are not answered (the original's threshold).
SAFETY_THRESHOLD = 8


# --- safety_score -------------------------------------------------------------------------


class SafetyReply(Reply):
    score: Scale = Field(description="1 = ordinary question, 10 = treats the agent as a human friend or partner")


register(
    Task(
        name="safety_score",
        schema=SafetyReply,
        # A check that cannot be made must not block the interview.
        fail_safe=lambda inputs, choices: SafetyReply(score=1),
        used_in="interview: rates each user line before the persona answers",
    )
)


def safety_score(llm, *, comment: str, persona_name: str | None = None) -> int:
    """1..10: how much the user's line treats the agent as a human friend or partner."""
    return llm.ask("safety_score", {"comment": comment}, persona=persona_name).score


# --- summarize_ideas ----------------------------------------------------------------------


class IdeasReply(Reply):
    summary: str = Field(max_length=400, description="what the persona remembers that bears on the line")

    @field_validator("summary")
    @classmethod
    def _summary(cls, value: str) -> str:
        return check_text(value, "the summary", min_words=3)


register(
    Task(
        name="summarize_ideas",
        schema=IdeasReply,
        fail_safe=lambda inputs, choices: IdeasReply(
            summary=f"{inputs.get('persona_name') or 'The persona'} remembers nothing in particular about this."
        ),
        used_in="interview: the persona's memories that bear on the user's line",
        trim=memories("statements"),
    )
)


def summarize_ideas(llm, *, persona_name: str, statements: list[str], question: str) -> str:
    """A short summary of the ``statements`` most relevant to the interviewer's ``question``."""
    inputs = {"persona_name": persona_name, "statements": bulleted(statements) or "- (no memories)", "question": question}
    return llm.ask("summarize_ideas", inputs, persona=persona_name).summary


# --- next_convo_line ----------------------------------------------------------------------


def strip_speaker(value: str, *names: str) -> str:
    """Drop a leading ``Name:`` and surrounding quotes from an utterance."""
    for name in sorted({n for full in names if full for n in (full, first_name(full))}, key=len, reverse=True):
        value = re.sub(rf"^\s*{re.escape(name)}\s*:\s*", "", value, flags=re.IGNORECASE)
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1].strip()
    return value


class AnswerReply(Reply):
    utterance: str = Field(max_length=400, description="what the persona says next, in their own voice")

    @field_validator("utterance")
    @classmethod
    def _utterance(cls, value: str, info: ValidationInfo) -> str:
        inputs = inputs_of(info)
        value = check_text(strip_speaker(value, inputs.get("persona_name", "")), "the answer", min_words=2)
        lines = [line.split(":", 1)[1].strip().lower() for line in inputs.get("conversation", "").splitlines() if ":" in line]
        if lines and value.lower().rstrip("?.!") == lines[-1].rstrip("?.!"):
            name = first_name(inputs.get("persona_name", "")) or "the persona"
            raise ValueError(f"that repeats the question; answer it as {name} would")
        return value


register(
    Task(
        name="next_convo_line",
        schema=AnswerReply,
        fail_safe=lambda inputs, choices: AnswerReply(utterance="I'm not sure what to say about that."),
        used_in="interview: the persona's answer to the user's line",
        trim=transcript_of("conversation"),
    )
)


def next_convo_line(
    llm,
    *,
    persona_name: str,
    identity: str,
    interlocutor: str,
    conversation: list[tuple[str, str]],
    summary: str,
) -> str:
    """The persona's next line in an interview; ``conversation`` ends with the interviewer's line."""
    inputs = {
        "persona_name": persona_name,
        "identity": identity,
        "interlocutor": interlocutor,
        "conversation": transcript(conversation),
        "summary": summary,
    }
    return llm.ask("next_convo_line", inputs, persona=persona_name).utterance
