"""What a finished conversation was about (prompt summarize_conversation).

The answer becomes both participants' current activity, "conversing about <topic>". The model
gives only the topic; a "conversing about" it repeats is removed, so the prefix is never doubled.
A topic that quotes the conversation with its speakers keeps only the first line quoted, without
its speaker: the transcript would become the activity, and the re-planned schedule after it.
The topic is one sentence, as the original asks, of at most :data:`MAX_TOPIC_WORDS` words
(:func:`one_phrase`): it is the event every resident nearby perceives and keeps, so it is read
again in their ratings, retrievals, reflections and conversations.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs, transcript_of
from reverie.tasks.common import Checked, Reply, check_text, content_words, first_name, sentences, transcript
from reverie.tasks.prompt_text import transcript_rows

PREFIX = "conversing about "
FAIL_SAFE_TOPIC = "everyday things"
# The most words a topic keeps ("Isabella's Valentine's Day party at Hobbs Cafe on February 14th"
# is 10): a longer one quotes a line instead of naming a topic (docs/SPEED.md).
MAX_TOPIC_WORDS = 15
# Words whose full stop does not end a sentence.
_TITLES = {"mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof"}

_LEAD_IN = re.compile(
    r"^(?:(?:they|we|the two|both)\s+(?:are|were)\s+)?(?:conversing|talking|chatting)\s+about\s+", re.IGNORECASE
)


class ConversationInputs(TaskInputs):
    conversation: str


def _speakers(conversation: str) -> set[str]:
    """The speakers of a ``Speaker: line`` transcript."""
    return {speaker.strip() for speaker, said in transcript_rows(conversation) if said.strip()}


def first_line_quoted(topic: str, speakers: set[str]) -> str:
    """A topic that quotes the conversation with its speakers ("Nora Bennett: Theo is here! Theo
    Alvarez: Sorry, ...") keeps the first line quoted, without its speaker ("Theo is here!")."""
    tags = [re.escape(name) for name in speakers if name]
    if not tags:
        return topic
    tag = re.compile(rf"(?:^|(?<=\s))(?:{'|'.join(tags)})\s*:\s*")
    found = list(tag.finditer(topic))
    if not found:
        return topic
    if found[0].start() > 0:  # "about the party Nora Bennett: ..." keeps the words before the quote
        return topic[: found[0].start()].strip()
    stop = found[1].start() if len(found) > 1 else len(topic)
    return topic[found[0].end() : stop].strip()


def one_phrase(topic: str) -> str:
    """The topic's first sentence, and of it at most :data:`MAX_TOPIC_WORDS` words: up to the last
    clause end within them (in their second half), or the words themselves ("Walter is kind! He is going to help you in the
    garden!" -> "Walter is kind!")."""
    parts = sentences(topic) or [""]
    first = parts[0]
    for part in parts[1:]:
        if first.rsplit(" ", 1)[-1].rstrip(".").lower() not in _TITLES:
            break
        first = f"{first} {part}"  # "Dr. Smith visiting" is one sentence
    words = first.split()
    if len(words) <= MAX_TOPIC_WORDS:
        return first
    kept = words[:MAX_TOPIC_WORDS]
    # A clause end in the second half only: "By the way," alone says nothing.
    ends = [i for i, word in enumerate(kept) if word.endswith((",", ";", ":")) and i >= MAX_TOPIC_WORDS // 2]
    return " ".join(kept[: ends[-1] + 1] if ends else kept).rstrip(",;:")


def _topic(value: str, inputs: ConversationInputs | None) -> str:
    return topic_of(value, inputs.conversation if inputs else "")


def topic_of(value: str, conversation: str) -> str:
    """The topic a reply wrote for ``conversation`` (a ``Speaker: line`` transcript), checked:
    in words, no lead-in or quoted transcript, one short sentence (:func:`one_phrase`), and with
    a word said in the conversation."""
    value = one_phrase(first_line_quoted(_LEAD_IN.sub("", value.strip()), _speakers(conversation)))
    value = check_text(value, "the topic", min_words=2)
    if conversation and not content_words(value) & content_words(conversation):
        raise ValueError("the topic must come from this conversation; use words that were said in it")
    return value.rstrip(".")


class ConversationSummaryReply(Reply):
    conversing_about: Annotated[str, Checked(ConversationInputs, _topic)] = Field(
        max_length=160, description="what they talked about, a few words"
    )


def _fail_safe(inputs: ConversationInputs, choices: Choices) -> ConversationSummaryReply:
    speakers: list[str] = []
    for speaker, _said in transcript_rows(inputs.conversation):
        name = speaker.strip()
        if name and first_name(name) not in speakers:
            speakers.append(first_name(name))
    if len(speakers) >= 2:
        return ConversationSummaryReply(conversing_about=f"what {speakers[0]} and {speakers[1]} are up to")
    return ConversationSummaryReply(conversing_about=FAIL_SAFE_TOPIC)


SUMMARIZE_CONVERSATION = Task(
    "summarize_conversation",
    ConversationInputs,
    ConversationSummaryReply,
    _fail_safe,
    trim=transcript_of("conversation"),
)


def conversing_about(topic: str) -> str:
    """The activity of a conversation about ``topic``."""
    return PREFIX + topic


def summarize_conversation(
    llm: LanguageModel, *, utterances: list[tuple[str, str]], persona_name: str | None = None
) -> str:
    """``[(speaker, line), ...]`` -> "conversing about <topic>" (never empty)."""
    inputs = ConversationInputs(conversation=transcript(utterances))
    reply = llm.ask(SUMMARIZE_CONVERSATION, inputs, persona=persona_name)
    return conversing_about(reply.conversing_about)
