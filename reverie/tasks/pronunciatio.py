"""One or two emoji that picture an action (prompt pronunciatio).

Shown above the sprite in the frontend, twice per new action (the persona's action and the
object's state). The reply must be emoji only; the fail-safe picks an emoji from keywords
of the action (docs/FIDELITY.md).
"""

from __future__ import annotations

import re
import unicodedata

from pydantic import Field, field_validator

from reverie.action_text import subtask
from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs
from reverie.tasks.common import Reply

MAX_EMOJI = 2
ZWJ = "\u200d"
_JOINERS = {ZWJ, "\ufe0f", "\ufe0e", "\u20e3"}
DEFAULT_EMOJI = "\U0001f642"  # slightly smiling face

# First matching keyword wins; checked against the lower-cased action.
KEYWORD_EMOJI = (
    (("sleep", "nap", "bed"), "\U0001f634"),
    (("coffee",), "\u2615"),
    (("breakfast", "lunch", "dinner", "eat", "meal", "snack"), "\U0001f37d\ufe0f"),
    (("cook", "bak", "kitchen"), "\U0001f373"),
    (("shower", "bath", "wash", "brush", "toilet", "morning routine"), "\U0001f6bf"),
    (("writ", "essay", "paper", "email"), "\u270d\ufe0f"),
    (("read", "book", "librar"), "\U0001f4d6"),
    (("study", "class", "lecture", "homework", "research"), "\U0001f4da"),
    (("stream", "game", "gaming", "play"), "\U0001f3ae"),
    (("talk", "chat", "convers", "meet", "party"), "\U0001f4ac"),
    (("walk", "stroll", "jog", "run"), "\U0001f6b6"),
    (("shop", "buy", "store", "grocer"), "\U0001f6d2"),
    (("music", "piano", "sing", "guitar"), "\U0001f3b5"),
    (("paint", "draw", "art"), "\U0001f3a8"),
    (("wait",), "\u231b"),
    (("clean", "tidy", "organiz"), "\U0001f9f9"),
    (("work", "serve", "counter", "cafe", "customer", "open", "clos"), "\U0001f4bc"),
    (("relax", "rest", "tv", "watch"), "\U0001f6cb\ufe0f"),
)


def _is_modifier(char: str) -> bool:
    return char in _JOINERS or 0x1F3FB <= ord(char) <= 0x1F3FF or 0xE0020 <= ord(char) <= 0xE007F


def _is_regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def emoji_clusters(text: str) -> list[str]:
    """Split emoji text into visible emoji (ZWJ sequences, modifiers and flags kept whole).

    Raises ValueError naming the first character that is not part of an emoji."""
    clusters: list[str] = []
    joined = False
    for char in text:
        if char.isspace():
            joined = False
            continue
        category = unicodedata.category(char)
        if _is_modifier(char):
            if not clusters:
                raise ValueError("the answer starts with a joining mark; answer with one or two emoji only")
            clusters[-1] += char
            joined = char == ZWJ
            continue
        if category != "So":
            raise ValueError(f"{char!r} is not an emoji; answer with one or two emoji only, no words or punctuation")
        if joined or (_is_regional(char) and clusters and len(clusters[-1]) == 1 and _is_regional(clusters[-1])):
            clusters[-1] += char
        else:
            clusters.append(char)
        joined = False
    return clusters


class PronunciatioInputs(TaskInputs):
    action: str


class PronunciatioReply(Reply):
    emoji: str = Field(max_length=24, description="one or two emoji for the action, nothing else")

    @field_validator("emoji")
    @classmethod
    def _check(cls, value: str) -> str:
        clusters = emoji_clusters(value)
        if not clusters:
            raise ValueError("the emoji is empty; answer with one or two emoji, like \u2615\U0001f4d6")
        if len(clusters) > MAX_EMOJI + 1:
            raise ValueError(f"that is {len(clusters)} emoji; use one or two emoji only")
        return "".join(clusters[:MAX_EMOJI])


def emoji_for(action: str) -> str:
    """A keyword-picked emoji for an action (the fail-safe)."""
    lowered = action.lower()
    for keywords, emoji in KEYWORD_EMOJI:
        if any(re.search(rf"\b{re.escape(k)}", lowered) for k in keywords):
            return emoji
    return DEFAULT_EMOJI


def fail_safe(inputs: PronunciatioInputs, choices: Choices) -> PronunciatioReply:
    return PronunciatioReply(emoji=emoji_for(inputs.action))


PRONUNCIATIO = Task("pronunciatio", PronunciatioInputs, PronunciatioReply, fail_safe)


def pronunciatio(llm: LanguageModel, *, action_description: str, persona: str | None = None) -> str:
    """One or two emoji for the action (the text inside the last parentheses, if any)."""
    inputs = PronunciatioInputs(action=subtask(action_description))
    return llm.ask(PRONUNCIATIO, inputs, persona=persona).emoji
