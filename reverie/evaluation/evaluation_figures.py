"""The paper's measurements from judged interview answers and movement files: information
diffusion, relationship network density (mutual knowledge), and who came to a seeded event;
whether an open question's answer names what it must; and the same two read from the
residents' memories with no model (what each was told, saw or heard).

Pure functions over plain data (the density as the report's typed ``Density``), so they can
be checked on hand-made answer sets.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Iterable
from datetime import datetime
from itertools import combinations
from typing import Any

from reverie.evaluation.evaluation_report import Density


def all_pairs(names: list[str]) -> list[tuple[str, str]]:
    return list(combinations(sorted(names), 2))


def sample_pairs(names: list[str], k: int, seed: int = 0) -> list[tuple[str, str]]:
    """``k`` unordered pairs drawn at random (the same ``seed``, the same pairs), in name order."""
    pairs = all_pairs(names)
    return sorted(random.Random(seed).sample(pairs, min(k, len(pairs))))


def density(names: list[str], knows: dict[str, dict[str, bool]], pairs: list[tuple[str, str]] | None = None) -> Density:
    """The paper's network density: the share of unordered pairs where **both** know of the
    other (an undirected graph of mutual knowledge; one-sided knowledge is no edge).
    ``knows[a][b]``: whether a knows of b.

    ``pairs``: a random sample of the pairs, both asked about each other; the density is then
    the sample's share, an estimate, with its 95 % (Wilson) interval."""
    everyone = all_pairs(names)
    asked = everyone if pairs is None else [tuple(sorted(p)) for p in pairs]
    edges = [[a, b] for a, b in asked if knows.get(a, {}).get(b) and knows.get(b, {}).get(a)]
    share = len(edges) / len(asked) if asked else 0.0
    out = Density(pairs=len(everyone), known_pairs=len(edges), density=round(share, 4), edges=edges)
    if pairs is not None:
        low, high = wilson(len(edges), len(asked))
        out = out.model_copy(
            update={"sampled": True, "pairs_asked": len(asked), "interval": [round(low, 4), round(high, 4)]}
        )
    return out


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a share ``hits``/``n``."""
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def attendance(
    frames: Iterable[tuple[datetime, dict[str, Any]]],
    place_of: Callable[[tuple[int, ...]], bool],
    window: tuple,
    names: list[str],
) -> dict[str, int]:
    """{name: steps spent at the place} over movement frames inside ``window``.

    ``frames``: (time, {name: (x, y)}) pairs; ``place_of((x, y))`` is True on the event's
    tiles; ``window``: (start, end) datetimes, end excluded."""
    start, end = window
    seen: dict[str, int] = {}
    for when, tiles in frames:
        if not (start <= when < end):
            continue
        for name in names:
            tile = tiles.get(name)
            if tile is not None and place_of(tuple(tile)):
                seen[name] = seen.get(name, 0) + 1
    return seen


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.lower())


def holds(texts: Iterable[str], keywords: Iterable[str]) -> bool:
    """Whether one of ``texts`` (a resident's memories) has every keyword, as a word or the
    start of one ("council" in "councillor"); no keywords: False."""
    keys = [k.lower() for k in keywords if k.strip()]
    if not keys:
        return False
    for text in texts:
        words = _words(text)
        if all(any(w.startswith(k) for w in words) for k in keys):
            return True
    return False


def names_in(texts: Iterable[str], names: Iterable[str]) -> set[str]:
    """The ``names`` (full names) that ``texts`` mention."""
    joined = " ".join(" ".join(_words(text)) for text in texts)
    return {name for name in names if f" {' '.join(_words(name))} " in f" {joined} "}


def named_in(answer: str, expected: Iterable[str]) -> str | None:
    """The first of ``expected`` (names, or facts in a few words) that ``answer`` says as whole
    words, case and punctuation aside; None when it says none of them."""
    said = f" {' '.join(_words(answer))} "
    for item in expected:
        words = " ".join(_words(item))
        if words and f" {words} " in said:
            return item
    return None
