"""Two thoughts each participant keeps from a conversation that is ending
(prompts planning_thought_on_convo, memo_on_convo).

The planning thought is stored as "For <name>'s planning: <thought>"; the memo as a thought
of its own. Both functions return one complete sentence, never empty.
"""

from __future__ import annotations

from pydantic import Field, field_validator

from reverie.llm.task import Task, register, transcript_of
from reverie.tasks.common import Reply, check_text, transcript


class PlanningThoughtReply(Reply):
    thought: str = Field(max_length=300, description="what matters from the chat for the persona's plans")

    @field_validator("thought")
    @classmethod
    def _thought(cls, value: str) -> str:
        return check_text(value, "the thought", min_words=3)


class MemoReply(Reply):
    memo: str = Field(max_length=300, description="what the persona found noteworthy in the chat")

    @field_validator("memo")
    @classmethod
    def _memo(cls, value: str) -> str:
        return check_text(value, "the note", min_words=3)


def _names(inputs) -> tuple[str, str]:
    return inputs.get("persona_name") or "I", inputs.get("partner_name") or "someone"


register(
    Task(
        name="planning_thought_on_convo",
        schema=PlanningThoughtReply,
        fail_safe=lambda inputs, choices: PlanningThoughtReply(
            thought="{0} should keep the conversation with {1} in mind when planning.".format(*_names(inputs))
        ),
        used_in="reflect: when a conversation ends, what it means for the persona's plans",
        trim=transcript_of("conversation"),
    )
)

register(
    Task(
        name="memo_on_convo",
        schema=MemoReply,
        fail_safe=lambda inputs, choices: MemoReply(memo="{0} had a conversation with {1}.".format(*_names(inputs))),
        used_in="reflect: when a conversation ends, what the persona found noteworthy",
        trim=transcript_of("conversation"),
    )
)


def _inputs(persona_name: str, partner_name: str, utterances) -> dict:
    return {"persona_name": persona_name, "partner_name": partner_name, "conversation": transcript(utterances)}


def planning_thought_on_convo(llm, *, persona_name: str, partner_name: str, utterances: list[tuple[str, str]]) -> str:
    """One sentence: what from the conversation matters for the persona's plans."""
    reply = llm.ask("planning_thought_on_convo", _inputs(persona_name, partner_name, utterances), persona=persona_name)
    return reply.thought


def memo_on_convo(llm, *, persona_name: str, partner_name: str, utterances: list[tuple[str, str]]) -> str:
    """One sentence: what the persona found noteworthy in the conversation."""
    reply = llm.ask("memo_on_convo", _inputs(persona_name, partner_name, utterances), persona=persona_name)
    return reply.memo
