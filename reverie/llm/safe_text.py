"""Text from a model made safe to keep: lone surrogates replaced, JSON lines always writable.

A model (or a fuzzer) can produce a lone UTF-16 surrogate such as ``"\\ud800"``, either
raw or as a JSON escape. Python strings hold it, but it cannot be encoded as UTF-8, so
writing it to a file, a tokenizer or a database fails. :func:`clean` replaces each one
with U+FFFD; :func:`json_line` writes any JSON value as one line that always encodes.
"""

from __future__ import annotations

import json
import re
from typing import Any

_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")
REPLACEMENT = "\ufffd"
# The letters of the world's scripts (Latin with its accents, Greek, Cyrillic, Hebrew, Arabic, the
# Indic scripts, Thai, kana, CJK, Hangul), as a regular-expression class body: what a text in words
# is written with (the tasks' checks and grammar patterns, the fail-safe guard's tamed inputs).
LETTERS = (
    "A-Za-z\u00c0-\u024f\u1e00-\u1eff\u0370-\u052f\u0590-\u06ff\u0900-\u0e7f"
    "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3"
)
_A_LETTER = re.compile(f"[{LETTERS}]")


def has_a_letter(text: str) -> bool:
    """``text`` holds a letter of :data:`LETTERS`."""
    return _A_LETTER.search(text) is not None


def clean_str(text: str) -> str:
    return _LONE_SURROGATE.sub(REPLACEMENT, text)


def clean(value: Any) -> Any:
    """``value`` with every string (keys included) cleaned; other values unchanged.

    Iterative, so a deeply nested value cannot exhaust the stack."""
    if isinstance(value, str):
        return clean_str(value)
    if not isinstance(value, (dict, list)):
        return value
    root: list[Any] = [None]
    pending: list[tuple[Any, Any, Any]] = [(value, root, 0)]  # (source, parent container, key in parent)
    while pending:
        source, parent, key = pending.pop()
        if isinstance(source, dict):
            copy: Any = {}
            for k, v in source.items():
                k = clean_str(k) if isinstance(k, str) else k
                copy[k] = None
                pending.append((v, copy, k))
        elif isinstance(source, list):
            copy = [None] * len(source)
            for i, v in enumerate(source):
                pending.append((v, copy, i))
        else:
            copy = clean_str(source) if isinstance(source, str) else source
        parent[key] = copy
    return root[0]


# Characters that str.splitlines() (and some JSON-lines readers) take for line ends; json.dumps
# leaves them raw with ensure_ascii=False. Escaped, the line stays one line and parses the same.
_LINE_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_LINE_BREAK = re.compile("[\x85\u2028\u2029]")


def json_line(value: Any) -> str:
    """``value`` as one JSON line (non-ASCII kept readable) that can always be written as UTF-8
    and is never split by a reader that honours Unicode line breaks."""
    line = json.dumps(value, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: the escaped form encodes and parses back the same
        line = json.dumps(value, ensure_ascii=True)
    return _LINE_BREAK.sub(lambda m: _LINE_BREAKS[m.group()], line)
