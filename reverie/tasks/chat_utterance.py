"""The next line of a conversation between two personas, and whether it ends it
(prompt iterative_chat_utterance).

Called once per utterance (up to 16 per conversation). ``end`` is a real JSON boolean
(docs/FIDELITY.md); an opening line never ends the talk (the
code sets ``end`` back to false), and a line already said word for word is sent back, which
keeps small models from looping; a line that goes on past sentences already said keeps only
its new sentences. A line that fails is the original's fail-safe: "..." and the
conversation goes on (the turn cap of reverie/persona/converse.py ends it).
"""

from __future__ import annotations

from pydantic import Field, ValidationInfo, field_validator, model_validator

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs, memories, transcript_of
from reverie.tasks.common import (
    Reply,
    bulleted,
    check_text,
    first_name,
    inputs_of,
    saying,
    sentences,
    transcript,
    without_repeats,
    words_only,
)
from reverie.tasks.interview import strip_speaker
from reverie.tasks.prompt_text import transcript_rows

# The conversation input when nobody has spoken yet.
NOT_STARTED = "(Nobody has said anything yet.)"
# A line that says nothing: the fail-safe's (the original's), and a pause a speaker may make once.
FAILED_LINE = "..."


def _started(conversation: str) -> bool:
    return bool(conversation.strip()) and conversation.strip() != NOT_STARTED


class UtteranceInputs(TaskInputs):
    identity: str
    speaker: str
    listener: str
    memories: str
    past_context: str
    location: str
    current_context: str
    conversation: str


class UtteranceReply(Reply):
    utterance: str = Field(
        max_length=300, description="the speaker's next line, as spoken", json_schema_extra=words_only(300, 1)
    )
    end: bool = Field(description="true if this line ends the conversation")

    @field_validator("utterance")
    @classmethod
    def _utterance(cls, value: str, info: ValidationInfo) -> str:
        inputs = inputs_of(info, UtteranceInputs)
        speaker, listener = (inputs.speaker, inputs.listener) if inputs else ("", "")
        value = strip_speaker(value, speaker)
        if value.strip() == FAILED_LINE:
            return FAILED_LINE
        value = check_text(value, "the line", min_words=1)
        if listener and value.lower().startswith(f"{listener.lower()}:"):
            raise ValueError(
                f"write only what {first_name(speaker) or 'the speaker'} says, not {first_name(listener)}'s line"
            )
        earlier = [said for _speaker, said in transcript_rows(inputs.conversation)] if inputs else []
        said = {saying(part) for line in earlier for part in [line, *sentences(line)]}
        # Sentences already said (in earlier lines, or earlier in this one) are dropped; the new ones stay.
        value = without_repeats(value, said, clauses=False)
        if not saying(value):
            raise ValueError("that line was already said in this conversation; say something new")
        return value

    @model_validator(mode="after")
    def _no_instant_goodbye(self, info: ValidationInfo) -> UtteranceReply:
        """An opening line never ends the conversation: the code keeps it going (the line is the
        model's; whether a talk has begun is the code's to know)."""
        inputs = inputs_of(info, UtteranceInputs)
        if self.end and inputs and not _started(inputs.conversation):
            self.end = False
        return self


def _fail_safe(inputs: UtteranceInputs, choices: Choices) -> UtteranceReply:
    """The original's: a line that says nothing, and the conversation goes on."""
    return UtteranceReply(utterance=FAILED_LINE, end=False)


ITERATIVE_CHAT_UTTERANCE = Task(
    "iterative_chat_utterance",
    UtteranceInputs,
    UtteranceReply,
    _fail_safe,
    trim=memories("memories") + transcript_of("conversation"),
)


def iterative_chat_utterance(
    llm: LanguageModel,
    *,
    identity: str,
    speaker: str,
    listener: str,
    memories: list[str],
    past_context: str,
    location: str,
    current_context: str,
    conversation: list[tuple[str, str]],
) -> tuple[str, bool]:
    """``(line, end)``: the speaker's next line to the listener and whether it ends the talk."""
    inputs = UtteranceInputs(
        identity=identity,
        speaker=speaker,
        listener=listener,
        memories=bulleted(memories) or "- (nothing comes to mind)",
        past_context=past_context.strip() or "They have not talked recently.",
        location=location,
        current_context=current_context,
        conversation=transcript(conversation) or NOT_STARTED,
    )
    reply = llm.ask(ITERATIVE_CHAT_UTTERANCE, inputs, persona=speaker)
    return reply.utterance, bool(reply.end)
