"""Lists and transcripts written into a prompt, and read back from a reply: one statement a line,
numbered or bulleted, and a long list cut into even parts."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")


def one_line(text: str) -> str:
    """Collapse every run of whitespace (newlines included) into one space."""
    return " ".join(text.split())


def transcript(utterances: Iterable[tuple[str, str] | list[str]]) -> str:
    """``[(speaker, line), ...]`` -> one ``Speaker: line`` per line (empty list -> empty string)."""
    return "\n".join(f"{speaker}: {one_line(str(line))}" for speaker, line in utterances)


def numbered(statements: Iterable[str], start: int = 0) -> str:
    """``["a", "b"]`` -> ``"0. a\\n1. b"``."""
    return "\n".join(f"{i}. {one_line(s)}" for i, s in enumerate(statements, start))


def even_parts(items: list[T], most: int) -> list[list[T]]:
    """``items`` in the fewest parts of at most ``most``, their sizes differing by one at most
    (a list longer than one call holds, asked in calls of about the same size)."""
    if not items:
        return []
    parts = math.ceil(len(items) / most)
    size, extra = divmod(len(items), parts)
    out, start = [], 0
    for i in range(parts):
        end = start + size + (1 if i < extra else 0)
        out.append(items[start:end])
        start = end
    return out


def bulleted(statements: Iterable[str]) -> str:
    """``["a", "b"]`` -> ``"- a\\n- b"``."""
    return "\n".join(f"- {one_line(s)}" for s in statements)


_MARKER = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s*")


def without_marker(text: str) -> str:
    """``text`` without a leading list number or bullet ("2. eat breakfast" -> "eat breakfast")."""
    return _MARKER.sub("", str(text)).strip()


def unlist(text: str) -> list[str]:
    """Inverse of :func:`numbered` / :func:`bulleted`: the statements without their markers."""
    return [line for line in map(without_marker, str(text).splitlines()) if line]
