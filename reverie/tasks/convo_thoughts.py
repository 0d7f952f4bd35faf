"""Two thoughts each participant keeps from a conversation that is ending
(prompts planning_thought_on_convo, memo_on_convo; packed mode: convo_thoughts_packed).

The planning thought is stored as "For <name>'s planning: <thought>"; the memo as a thought
of its own. Both functions return one complete sentence, never empty; a phrase the model
repeats word for word (a small model's loop) is kept once.

The faithful mode asks the two in two calls, as the original did. Both calls show the same
conversation, so packed mode asks for the two sentences in one reply (:func:`convo_thoughts`):
the transcript is read once, and the conversation's end costs each participant one call
instead of two. Each sentence gets the same checks as in its own call; a reply failing them
goes back to the model, and its fail-safe is the two single fail-safes.
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


class ConvoThoughtsReply(Reply):
    plan: Text("the planning thought", 300, min_words=3, once=True) = Field(
        description="what matters from the chat for the persona's plans")
    memo: Text("the note", 300, min_words=3, once=True) = Field(description="what the persona found noteworthy in the chat")


def _planning_fail_safe(inputs: ConvoInputs, choices: dict) -> PlanningThoughtReply:
    return PlanningThoughtReply(thought="{0} should keep the conversation with {1} in mind when planning.".format(*inputs.names()))


def _memo_fail_safe(inputs: ConvoInputs, choices: dict) -> MemoReply:
    return MemoReply(memo="{0} had a conversation with {1}.".format(*inputs.names()))


def _both_fail_safe(inputs: ConvoInputs, choices: dict) -> ConvoThoughtsReply:
    return ConvoThoughtsReply(plan=_planning_fail_safe(inputs, choices).thought, memo=_memo_fail_safe(inputs, choices).memo)


PLANNING_THOUGHT_ON_CONVO = Task(name="planning_thought_on_convo", inputs=ConvoInputs, schema=PlanningThoughtReply,
                                 fail_safe=_planning_fail_safe, trim=transcript_of("conversation"),
                                 used_in="reflect: when a conversation ends, what it means for the persona's plans")
MEMO_ON_CONVO = Task(name="memo_on_convo", inputs=ConvoInputs, schema=MemoReply, fail_safe=_memo_fail_safe,
                     used_in="reflect: when a conversation ends, what the persona found noteworthy",
                     trim=transcript_of("conversation"))
CONVO_THOUGHTS_PACKED = Task(name="convo_thoughts_packed", inputs=ConvoInputs, schema=ConvoThoughtsReply,
                             fail_safe=_both_fail_safe, trim=transcript_of("conversation"),
                             used_in="reflect: when a conversation ends, the planning thought and the note in one call "
                                     "([simulation] packed_actions = true)")


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


def convo_thoughts(llm: LanguageModel, *,
                   persona_name: str, partner_name: str, utterances: list[tuple[str, str]]) -> tuple[str, str]:
    """Packed mode: the planning thought and the memo of :func:`planning_thought_on_convo` and
    :func:`memo_on_convo`, asked in one call."""
    reply = llm.ask(CONVO_THOUGHTS_PACKED, _inputs(persona_name, partner_name, utterances), persona=persona_name)
    return reply.plan, reply.memo
