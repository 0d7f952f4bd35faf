"""Every prompt fits the context window, however long the run.

Before each call the chain measures the rendered prompt (the model's own tokenizer in
process; a server's ``/tokenize`` or a safe estimate otherwise). When it is longer than
``n_ctx − max_tokens``, only the inputs that grow with the run are shortened: retrieved
memories, perceived events, statements, chat history. A task declares them with
:class:`Trim`; each drops whole lines from its least relevant end (the last of a ranked
list, the oldest of a transcript). The instructions and the format line are never cut.
Repair turns are kept too, except that only the latest reply and correction stay once
the window is full.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage

# Tokens of chat markup around one message (role markers, separators), on the safe side.
PER_MESSAGE_TOKENS = 8
CHARS_PER_TOKEN_SAFE = 3.0
MAX_ROUNDS = 40
CUT_MARGIN_CHARS = 24  # cut a little more than the estimate, so that few rounds are needed


class Drop(enum.Enum):
    """Which end of an input's lines is the least relevant."""

    LAST = "last"  # a list ranked most relevant first (retrieved memories, statements)
    FIRST = "first"  # a transcript, oldest line first (chat history)


@dataclass(frozen=True)
class Trim:
    """An input that grows with the run and may lose lines from its ``drop`` end."""

    input: str
    drop: Drop


class PromptTooLong(ValueError):
    """Even with every growing input cut, the prompt does not fit the context window."""


@dataclass
class Fitted:
    messages: list[BaseMessage]
    inputs: dict[str, Any]
    prompt_tokens: int  # as measured, after trimming
    trimmed_tokens: int  # measured before minus after (0: nothing cut)


def estimate_tokens(messages: list[BaseMessage]) -> int:
    """A safe over-estimate for text the model's tokenizer cannot see (about 4 characters
    make a token in English prose; this counts 3)."""
    chars = sum(len(str(m.content)) for m in messages)
    return math.ceil(chars / CHARS_PER_TOKEN_SAFE) + PER_MESSAGE_TOKENS * len(messages)


def _cut_lines(text: str, drop: Drop, chars_to_cut: int) -> str:
    """Drop whole lines from the ``drop`` end until ``chars_to_cut`` characters are gone;
    the last line left is shortened instead of dropped."""
    lines = text.split("\n")
    cut = 0
    while len(lines) > 1 and cut < chars_to_cut:
        cut += len(lines.pop() if drop is Drop.LAST else lines.pop(0)) + 1
    if cut < chars_to_cut:
        keep = max(len(lines[0]) - (chars_to_cut - cut), 0)
        lines[0] = (
            lines[0][:keep].rstrip() + " …" if drop is Drop.LAST else "… " + lines[0][len(lines[0]) - keep :].lstrip()
        )
    return "\n".join(lines)


def _shortened(exchanges: list[BaseMessage], max_chars: int) -> list[BaseMessage]:
    """The repair turns with the latest reply cut to ``max_chars``."""
    *earlier, reply, correction = exchanges
    text = str(reply.content)
    if len(text) <= max_chars:
        return exchanges
    return [*earlier, reply.model_copy(update={"content": text[:max_chars] + " …"}), correction]


def fit(
    render: Callable[[dict[str, Any]], list[BaseMessage]],
    inputs: dict[str, Any],
    trims: tuple[Trim, ...],
    exchanges: list[BaseMessage],
    count: Callable[[list[BaseMessage]], int],
    budget: int,
) -> Fitted:
    """The messages to send: ``render(inputs)`` then the repair ``exchanges``, cut to
    ``budget`` tokens as described above (raises :class:`PromptTooLong`)."""
    current = dict(inputs)
    messages = [*render(current), *exchanges]
    first = tokens = count(messages)
    while tokens > budget and len(exchanges) > 2:
        exchanges = exchanges[-2:]  # only the latest reply and its correction
        messages = [*render(current), *exchanges]
        tokens = count(messages)
    if tokens > budget and exchanges:
        # A runaway reply (a server that ignores max_tokens) keeps only its start: a quarter of the window.
        chars_per_token = sum(len(str(m.content)) for m in messages) / max(tokens, 1)
        exchanges = _shortened(exchanges, int(budget / 4 * chars_per_token))
        messages = [*render(current), *exchanges]
        tokens = count(messages)
    for _ in range(MAX_ROUNDS):
        if tokens <= budget:
            return Fitted(messages, current, tokens, first - tokens)
        growing = [t for t in trims if len(str(current.get(t.input, ""))) > 1]
        if not growing:
            break
        chars = sum(len(str(m.content)) for m in messages) or 1
        over_chars = math.ceil((tokens - budget) * chars / tokens) + CUT_MARGIN_CHARS
        sizes = {t.input: len(str(current[t.input])) for t in growing}
        total = sum(sizes.values())
        for trim in growing:  # each growing input gives up the same share of itself
            share = math.ceil(over_chars * sizes[trim.input] / total)
            current[trim.input] = _cut_lines(str(current[trim.input]), trim.drop, min(share, sizes[trim.input] - 1))
        messages = [*render(current), *exchanges]
        tokens = count(messages)
    if tokens <= budget:
        return Fitted(messages, current, tokens, first - tokens)
    raise PromptTooLong(
        f"the prompt needs {tokens} tokens but only {budget} fit (n_ctx minus max_tokens) even with its "
        "growing parts cut — raise [models] n_ctx or shorten the prompt file"
    )
