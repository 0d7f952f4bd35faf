"""Two thoughts each participant keeps from a conversation that is ending
(prompts planning_thought_on_convo, memo_on_convo; packed mode: convo_thoughts_packed).

The planning thought is stored as "For <name>'s planning: <thought>"; the memo as a thought
of its own. Both functions return one complete sentence, never empty; a phrase the model
repeats word for word (a small model's loop) is kept once.

The faithful mode asks the two in two calls for each participant, as the original did. All
four calls show the same conversation, so packed mode asks for the four sentences in one reply
(:func:`convo_thoughts`): the persona's two, then the partner's two, each from its own point of
view. The transcript is read once, and the conversation's end costs one call instead of four;
the persona whose step ends the conversation first asks it, and the partner's notes wait for
the partner (:mod:`reverie.persona.reflect`). Each sentence gets the same checks as in its own
call; a reply failing them goes back to the model, and its fail-safe is the single fail-safes
of both participants.

Every thought is stored with a triple (``event_triple``; in packed mode, thoughts that arrive
together ask ``thought_triples``). Each participant's notes in the packed reply end with the two
sentences' triples (``triples``: a predicate and a target for each, in order), so the
conversation's end asks no triples call. Each is checked as a single ``event_triple`` reply for
its stored thought, and as ``thought_triples`` checks its own (it must share a word with its
thought); one that fails is left out (logged) and its thought keeps ``event_triple``'s
fail-safe: in packed mode a thought's triple is asked once (:mod:`reverie.persona.thoughts`). A
triple never sends the reply back: the field is in the grammar's ``required`` but not in the
model's, as ``conversation_packed``'s topic.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from pydantic import ConfigDict, Field

from reverie.llm.language_model import LanguageModel
from reverie.llm.side_by_side import side_by_side
from reverie.llm.task import Choices, Task, TaskInputs, transcript_of
from reverie.tasks.common import Reply, Text, transcript
from reverie.tasks.event_triple import TripleFields
from reverie.tasks.thought_triples import checked_triples

log = logging.getLogger(__name__)


class ConvoInputs(TaskInputs):
    persona_name: str
    partner_name: str
    conversation: str

    def names(self) -> tuple[str, str]:
        return self.persona_name or "I", self.partner_name or "someone"


class PlanningThoughtReply(Reply):
    thought: Text("the thought", 300, min_words=3, once=True) = Field(
        description="what matters from the chat for the persona's plans"
    )


class MemoReply(Reply):
    memo: Text("the note", 300, min_words=3, once=True) = Field(
        description="what the persona found noteworthy in the chat"
    )


def planning_thought(persona_name: str, plan: str) -> str:
    """The planning thought as it is stored."""
    return f"For {persona_name}'s planning: {plan}"


@dataclass(frozen=True)
class ChatNotes:
    """One participant's two thoughts from a conversation, with their triples where valid."""

    conversation: str  # the transcript they were written from
    plan: str
    memo: str
    triples: tuple[tuple[str, str, str] | None, tuple[str, str, str] | None]


class ConvoThoughtsReply(Reply):
    """One participant's notes in the packed reply."""

    plan: Text("the planning thought", 300, min_words=3, once=True) = Field(
        description="what matters from the chat for the persona's plans"
    )
    memo: Text("the note", 300, min_words=3, once=True) = Field(
        description="what the persona found noteworthy in the chat"
    )
    # Asked for (the grammar writes two) but not required; each checked in :meth:`stored_triples`.
    triples: list[TripleFields] = Field(
        default_factory=list,
        max_length=2,
        json_schema_extra={"minItems": 2},
        description="the plan's triple, then the memo's",
    )

    model_config = ConfigDict(
        json_schema_extra=lambda schema: schema.update(additionalProperties=False, required=["plan", "memo", "triples"])
    )

    def stored_triples(self, inputs: ConvoInputs) -> list[tuple[str, str, str] | None]:
        """The stored planning thought's and memo's ``(persona, predicate, target)``, each where
        its triple passes the checks ``thought_triples`` gives its own (``event_triple``'s, and a
        word of its thought); None where not, or missing."""
        name = inputs.names()[0]
        thoughts = [planning_thought(name, self.plan), self.memo]
        return checked_triples(
            name,
            thoughts,
            self.triples[:2],
            log=log,
            unusable="convo_thoughts_packed: %s's triple(s) %s keep the single fail-safe (failed their checks, or missing)",
        )

    def chat_notes(self, inputs: ConvoInputs) -> ChatNotes:
        """These notes for the participant ``inputs`` names first."""
        plan_triple, memo_triple = self.stored_triples(inputs)
        return ChatNotes(inputs.conversation, self.plan, self.memo, (plan_triple, memo_triple))


class ConvoNotesReply(Reply):
    """The packed reply: the persona's notes, then the partner's."""

    notes: list[ConvoThoughtsReply] = Field(
        min_length=2, max_length=2, description="the persona's notes, then the partner's"
    )


def _planning_fail_safe(inputs: ConvoInputs, choices: Choices) -> PlanningThoughtReply:
    return PlanningThoughtReply(
        thought="{} should keep the conversation with {} in mind when planning.".format(*inputs.names())
    )


def _memo_fail_safe(inputs: ConvoInputs, choices: Choices) -> MemoReply:
    return MemoReply(memo="{} had a conversation with {}.".format(*inputs.names()))


def _one_fail_safe(inputs: ConvoInputs) -> ConvoThoughtsReply:
    return ConvoThoughtsReply(plan=_planning_fail_safe(inputs, {}).thought, memo=_memo_fail_safe(inputs, {}).memo)


def _both_fail_safe(inputs: ConvoInputs, choices: Choices) -> ConvoNotesReply:
    return ConvoNotesReply(notes=[_one_fail_safe(inputs), _one_fail_safe(_partners(inputs))])


def _partners(inputs: ConvoInputs) -> ConvoInputs:
    """The same conversation seen by the partner."""
    return ConvoInputs(
        persona_name=inputs.partner_name, partner_name=inputs.persona_name, conversation=inputs.conversation
    )


PLANNING_THOUGHT_ON_CONVO = Task(
    "planning_thought_on_convo",
    ConvoInputs,
    PlanningThoughtReply,
    _planning_fail_safe,
    trim=transcript_of("conversation"),
)
MEMO_ON_CONVO = Task("memo_on_convo", ConvoInputs, MemoReply, _memo_fail_safe, trim=transcript_of("conversation"))
CONVO_THOUGHTS_PACKED = Task(
    "convo_thoughts_packed", ConvoInputs, ConvoNotesReply, _both_fail_safe, trim=transcript_of("conversation")
)


def _inputs(persona_name: str, partner_name: str, utterances: list[tuple[str, str]]) -> ConvoInputs:
    return ConvoInputs(persona_name=persona_name, partner_name=partner_name, conversation=transcript(utterances))


def thought_and_memo(
    llm: LanguageModel, *, persona_name: str, partner_name: str, utterances: list[tuple[str, str]]
) -> tuple[str, str]:
    """One sentence each: what from the conversation matters for the persona's plans
    (planning_thought_on_convo), and what it found noteworthy (memo_on_convo). Both need only the
    conversation, so they are asked together (:func:`side_by_side`)."""
    inputs = _inputs(persona_name, partner_name, utterances)
    thought, memo = side_by_side(
        llm,
        [
            lambda: llm.ask(PLANNING_THOUGHT_ON_CONVO, inputs, persona=persona_name).thought,
            lambda: llm.ask(MEMO_ON_CONVO, inputs, persona=persona_name).memo,
        ],
    )
    return thought, memo


def convo_thoughts(
    llm: LanguageModel, *, persona_name: str, partner_name: str, utterances: list[tuple[str, str]]
) -> tuple[ChatNotes, ChatNotes]:
    """Packed mode: the planning thought and the memo of :func:`thought_and_memo` for the persona
    and for its partner, asked in one call, with each stored thought's ``(name, predicate,
    target)`` where the reply gave a valid one (None: the single fail-safe's, asked no more)."""
    inputs = _inputs(persona_name, partner_name, utterances)
    reply = llm.ask(CONVO_THOUGHTS_PACKED, inputs, persona=persona_name)
    mine, theirs = reply.notes
    return mine.chat_notes(inputs), theirs.chat_notes(_partners(inputs))
