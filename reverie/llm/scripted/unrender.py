"""A prompt's inputs read back from its rendered messages: the prompt file run backwards.

The scripted model is handed what any model is handed, the messages. Each prompt file says
where its ``{inputs}`` go in the system and user text, so the literal text around them
tells where each input begins and ends: the template becomes a regular expression with
one group per input (a repeated input must repeat the same text). What a model reads is
exactly what the rules read; nothing else reaches them.
"""

from __future__ import annotations

import re
import string
from functools import lru_cache

from langchain_core.messages import BaseMessage, SystemMessage

from reverie.llm.prompt_spec import PromptSpec


@lru_cache(maxsize=256)
def _pattern(template: str) -> re.Pattern:
    parts, seen = [], set()
    for literal, field, _spec, _conv in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if field is None:
            continue
        parts.append(f"(?P={field})" if field in seen else f"(?P<{field}>.*?)")
        seen.add(field)
    return re.compile("".join(parts), re.DOTALL)


def read_template(template: str, text: str) -> dict[str, str] | None:
    """The values of ``template``'s fields in ``text`` (None when the text is not this template)."""
    found = _pattern(template).fullmatch(text.strip()) or _pattern(template.strip()).fullmatch(text.strip())
    return found.groupdict() if found else None


def prompt_inputs(spec: PromptSpec, messages: list[BaseMessage]) -> dict[str, str]:
    """The inputs ``spec`` was rendered with, from the first attempt's messages (the system
    text, then the user turn after the few-shot examples, behind its one format line). An
    input the text does not show (cut to fit the window, or not found) is left out."""
    inputs: dict[str, str] = {}
    system = [m for m in messages if isinstance(m, SystemMessage)]
    if system and spec.system.strip():
        inputs.update(read_template(spec.system, str(system[0].content)) or {})
    at = (1 if system else 0) + 2 * len(spec.examples)
    if at < len(messages):
        user = str(messages[at].content)
        body = (
            user.split("\n\n", 1)[1] if user.startswith("Answer with only one JSON object") and "\n\n" in user else user
        )
        inputs.update(read_template(spec.user, body) or {})
    return inputs
