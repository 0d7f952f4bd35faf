"""Reasoning models (DeepSeek-R1 distills, Qwen3, QwQ) think before they answer.

Without a grammar their reply opens with ``<think>…</think>``, or, when the chat template
already opened the block, with the thoughts and a closing ``</think>``. The answer is
what follows the last closing tag. With the grammar on, the reply must start with the
JSON object itself, so no token is spent on thinking.
"""

from __future__ import annotations

import re

_CLOSING = re.compile(r"</(think|thinking|reasoning)>", re.IGNORECASE)
_OPENING = re.compile(r"^\s*<(think|thinking|reasoning)>", re.IGNORECASE)


def without_reasoning(text: str) -> str:
    """The reply after its reasoning block (the reply itself when it has none)."""
    closings = list(_CLOSING.finditer(text))
    if closings:
        return text[closings[-1].end() :].strip()
    return _OPENING.sub("", text, count=1)  # thinking that never finished: no answer follows
