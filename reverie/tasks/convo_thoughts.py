"""Two thoughts each participant keeps from a conversation that is ending
(prompts planning_thought_on_convo, memo_on_convo).

The planning thought is stored as "For <name>'s planning: <thought>"; the memo as a thought
of its own. Both functions return one complete sentence, never empty; a phrase the model
repeats word for word (a small model's loop) is kept once.
"""

from __future__ import annotations

from pydantic import Field

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Task, TaskInputs, transcript_of
from reverie.tasks.common import Reply, Text, transcript


class ConvoInputs(TaskInputs):
    persona_name: str
    partner_name: str
    conversation: str

    def names(self) -> tuple[str, str]:
        return self.persona_name or "I", self.partner_name or "someone"


class PlanningThoughtReply(Reply):
    thought: Text("the thought", 300, min_words=3, once=True) = Field(description="what matters from the chat for the persona's plans")


class MemoReply(Reply):
    memo: Text("the note", 300, min_words=3, once=True) = Field(description="what the persona found noteworthy in the chat")


def _planning_fail_safe(inputs: ConvoInputs, choices: dict) -> PlanningThoughtReply:
    return PlanningThoughtReply(thought="{0} should keep the conversation with {1} in mind when planning.".format(*inputs.names()))


def _memo_fail_safe(inputs: ConvoInputs, choices: dict) -> MemoReply:
    return MemoReply(memo="{0} had a conversation with {1}.".format(*inputs.names()))


PLANNING_THOUGHT_ON_CONVO = Task(name="planning_thought_on_convo", inputs=ConvoInputs, schema=PlanningThoughtReply,
                                 fail_safe=_planning_fail_safe, trim=transcript_of("conversation"),
                                 used_in="reflect: when a conversation ends, what it means for the persona's plans")
MEMO_ON_CONVO = Task(name="memo_on_convo", inputs=ConvoInputs, schema=MemoReply, fail_safe=_memo_fail_safe,
                     used_in="reflect: when a conversation ends, what the persona found noteworthy",
                     trim=transcript_of("conversation"))


def _inputs(persona_name: str, partner_name: str, utterances: list[tuple[str, str]]) -> ConvoInputs:
    return ConvoInputs(persona_name=persona_name, partner_name=partner_name, conversation=transcript(utterances))


def planning_thought_on_convo(llm: LanguageModel, *,
                              persona_name: str, partner_name: str, utterances: list[tuple[str, str]]) -> str:
    """One sentence: what from the conversation matters for the persona's plans."""
    reply = llm.ask(PLANNING_THOUGHT_ON_CONVO, _inputs(persona_name, partner_name, utterances), persona=persona_name)
    return reply.thought


def memo_on_convo(llm: LanguageModel, *,
                  persona_name: str, partner_name: str, utterances: list[tuple[str, str]]) -> str:
    """One sentence: what the persona found noteworthy in the conversation."""
    reply = llm.ask(MEMO_ON_CONVO, _inputs(persona_name, partner_name, utterances), persona=persona_name)
    return reply.memo
