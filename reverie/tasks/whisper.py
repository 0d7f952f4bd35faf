"""A whispered "you ..." statement restated as the persona's own belief (prompt whisper_inner_thought).

Used when loading a history file: each whisper ("you and Maria are close friends") becomes
a thought about the persona ("Isabella Rodriguez and Maria are close friends"). The model is
shown the code's third-person draft, not the whisper: shown both, the bundled model copied the
whisper's "you" and "your" back.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import Field, model_validator

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, NotShown, Task, TaskInputs
from reverie.tasks.common import Checked, Reply, Text, first_name, mentions_second_person, names, one_line

# Second-person phrases, longest first, and their third-person replacements ({n} = name).
_SWAPS = [
    (r"\byou are\b", "{n} is"),
    (r"\byou're\b", "{n} is"),
    (r"\byou were\b", "{n} was"),
    (r"\byou have\b", "{n} has"),
    (r"\byou've\b", "{n} has"),
    (r"\byou do\b", "{n} does"),
    (r"\byou don't\b", "{n} doesn't"),
    (r"\byourself\b", "{n}"),
    (r"\byours\b", "{n}'s"),
    (r"\byour\b", "{n}'s"),
    (r"\byou\b", "{n}"),
]


def third_person(whisper: str, name: str) -> str:
    """Mechanical rewrite of a second-person whisper about ``name`` (used as the fail-safe)."""
    text = one_line(whisper).rstrip(".")
    if not mentions_second_person(text):
        return f"{name} believes that {text}." if text else f"{name} has a quiet thought."
    for pattern, replacement in _SWAPS:
        text = re.sub(pattern, replacement.format(n=name), text, flags=re.IGNORECASE)
    return text[0].upper() + text[1:] + "."


class WhisperInputs(TaskInputs):
    """The persona, the whisper, and a mechanical third-person draft of it (filled in by code
    when not given) that the model turns into good English: a small model that cannot yet
    move "you" to a name keeps every fact by copying the draft."""

    persona_name: str
    whisper: Annotated[str, NotShown()]  # the draft says all it says; shown, a small model copied its "you"
    draft: str = ""

    @model_validator(mode="before")
    @classmethod
    def _draft_from_the_whisper(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.get("draft") and data.get("whisper"):
            data = {**data, "draft": third_person(str(data["whisper"]), str(data.get("persona_name") or "The persona"))}
        return data


def _about_the_persona(value: str, inputs: WhisperInputs | None) -> str:
    name = inputs.persona_name if inputs else ""
    if mentions_second_person(value):
        raise ValueError(f"write it about {name or 'the persona'} in the third person; do not use 'you' or 'your'")
    if name and not names(value, name):
        raise ValueError(f"the statement must be about {name}; mention {first_name(name)} by name")
    return value


class WhisperReply(Reply):
    thought: Annotated[Text("the statement", 300, min_words=3), Checked(WhisperInputs, _about_the_persona)] = Field(
        description="the statement about the persona, in the third person"
    )


def _fail_safe(inputs: WhisperInputs, choices: Choices) -> WhisperReply:
    return WhisperReply(thought=third_person(inputs.whisper, inputs.persona_name or "The persona")[:300])


WHISPER_INNER_THOUGHT = Task("whisper_inner_thought", WhisperInputs, WhisperReply, _fail_safe)


def whisper_inner_thought(llm: LanguageModel, *, persona_name: str, whisper: str) -> str:
    """The whisper restated as a third-person statement about the persona."""
    inputs = WhisperInputs(persona_name=persona_name, whisper=whisper)
    thought: str = llm.ask(WHISPER_INNER_THOUGHT, inputs, persona=persona_name).thought
    return thought
