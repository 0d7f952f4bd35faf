"""A whole conversation between two personas in one call (prompt conversation_packed), for ``packed_actions``.

The faithful mode asks :mod:`reverie.tasks.chat_utterance` once per line (up to 16 calls of
~1,150 prompt tokens each); packed mode asks for the lines of the whole talk at once, 2 to
:data:`MAX_LINES`. The model writes only what is said; the code gives the lines to the two
speakers in turn, the initiator first, so the transcript has the faithful mode's shape
``[(speaker, line), ...]`` and everything after it (summary, memos, memories) is unchanged.

Each line is checked as a faithful line is: a speaker's name the model put in front is
dropped, an empty or placeholder line is sent back. A line said twice word for word ends the
conversation before it when two lines or more come first (the model looped because the talk
had run out; docs/SPEED.md, "Bounds that keep the answer"); before that it is sent back. A conversation of one line is sent back (a conversation takes two).

After the lines, the reply says in a few words what the two talked about (``about``), the topic
that :mod:`reverie.tasks.conversation_summary` asks for in a call of its own: the conversation's
activity, "conversing about <topic>". It gets that prompt's checks against the reply's lines; a
topic that fails them, or is missing, is left empty and never sends the lines back (the topic is
then asked on its own, as in faithful mode).

The fail-safe is "no conversation" (an empty list; the grammar itself never writes one, as it
asks for at least 2 lines): :func:`reverie.persona.converse.generate_convo` then holds the
conversation line by line as in faithful mode, so a failed packed call still gives the model's
own conversation, at the faithful mode's cost.
"""

from __future__ import annotations

import logging
from typing import Annotated

from pydantic import ConfigDict, Field, ValidationInfo, field_validator, model_validator

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs, memories
from reverie.tasks.common import Reply, bulleted, check_text, inputs_of, transcript, words_only
from reverie.tasks.conversation_summary import topic_of
from reverie.tasks.interview import strip_speaker

log = logging.getLogger(__name__)

MIN_LINES = 2
MAX_LINES = 8
MAX_LINE = 300  # as a faithful line (chat_utterance)
MAX_ABOUT = 160  # as summarize_conversation's topic


class ConversationInputs(TaskInputs):
    initiator: str
    partner: str
    initiator_identity: str
    partner_identity: str
    initiator_memories: str
    partner_memories: str
    past_context: str
    location: str
    situation: str


class ConversationReply(Reply):
    # The grammar asks for MIN_LINES or more (``minItems``); the model validates an empty list,
    # which is the fail-safe's "no conversation".
    # in words: the grammar keeps out a line of braces and newlines (the bundled model's second line)
    lines: list[
        Annotated[str, Field(min_length=3, max_length=MAX_LINE, json_schema_extra=words_only(MAX_LINE, min_length=3))]
    ] = Field(
        max_length=MAX_LINES,
        json_schema_extra={"minItems": MIN_LINES},
        description="what is said, in order: the initiator's line, then the partner's, taking turns",
    )
    # Asked for (the grammar writes it) but not required: a reply cut off at max_tokens inside its
    # lines (the bundled model loops a line until then) is closed where it stopped and keeps its
    # lines, the topic then asked on its own.
    about: str = Field(
        default="",
        max_length=MAX_ABOUT,
        json_schema_extra=words_only(MAX_ABOUT, 3),
        description="what they talked about, a few words",
    )

    model_config = ConfigDict(
        json_schema_extra=lambda schema: schema.update(additionalProperties=False, required=["lines", "about"])
    )

    @field_validator("lines")
    @classmethod
    def _lines(cls, values: list[str], info: ValidationInfo) -> list[str]:
        if not values:
            return values  # "no conversation": the line-by-line conversation follows
        inputs = inputs_of(info, ConversationInputs)
        speakers = (inputs.initiator, inputs.partner) if inputs else ()
        lines: list[str] = []
        said: set[str] = set()
        for number, value in enumerate(values, 1):
            line = check_text(strip_speaker(value, *speakers), f"line {number}")
            if line.lower() in said:
                if len(lines) >= MIN_LINES:  # the talk ran out and the model looped: it ends before the repeat
                    break
                raise ValueError(
                    f"line {number} repeats an earlier line word for word; every line must say something new"
                )
            said.add(line.lower())
            lines.append(line)
        if len(lines) < MIN_LINES:
            raise ValueError(f"a conversation has at least {MIN_LINES} lines: write the answer to the first line too")
        return lines

    @model_validator(mode="after")
    def _about(self, info: ValidationInfo) -> ConversationReply:
        """The topic, checked against the lines as ``summarize_conversation`` checks its own; one
        that fails, or is missing, is left empty (logged), and the lines stand."""
        if not self.lines:
            self.about = ""
            return self
        inputs = inputs_of(info, ConversationInputs)
        speakers = (inputs.initiator, inputs.partner) if inputs else ("A", "B")
        conversation = transcript([(speakers[i % 2], line) for i, line in enumerate(self.lines)])
        try:
            self.about = topic_of(self.about, conversation)
        except ValueError as exc:
            log.info("conversation_packed: the topic %r is left out (%s); asked on its own", self.about, exc)
            self.about = ""
        return self


def _fail_safe(inputs: ConversationInputs, choices: Choices) -> ConversationReply:
    """No conversation: the caller then asks for it line by line (the faithful mode's calls)."""
    log.info(
        "conversation_packed: no conversation between %s and %s; asking line by line", inputs.initiator, inputs.partner
    )
    return ConversationReply(lines=[], about="")


CONVERSATION_PACKED = Task(
    "conversation_packed",
    ConversationInputs,
    ConversationReply,
    _fail_safe,
    trim=memories("initiator_memories", "partner_memories"),
)


def packed_conversation(
    llm: LanguageModel,
    *,
    initiator: str,
    partner: str,
    initiator_identity: str,
    partner_identity: str,
    initiator_memories: list[str],
    partner_memories: list[str],
    past_context: str,
    location: str,
    situation: str,
) -> tuple[list[tuple[str, str]], str]:
    """``[(speaker, line), ...]``, the initiator first and then in turn, and the topic ("" when
    it failed its checks); ``[]`` when the call failed (its fail-safe): the caller then holds the
    conversation line by line."""
    inputs = ConversationInputs(
        initiator=initiator,
        partner=partner,
        initiator_identity=initiator_identity,
        partner_identity=partner_identity,
        initiator_memories=bulleted(initiator_memories) or "- (nothing comes to mind)",
        partner_memories=bulleted(partner_memories) or "- (nothing comes to mind)",
        past_context=past_context.strip() or "They have not talked recently.",
        location=location,
        situation=situation,
    )
    reply = llm.ask(CONVERSATION_PACKED, inputs, persona=initiator)
    return [((initiator, partner)[i % 2], line) for i, line in enumerate(reply.lines)], reply.about
