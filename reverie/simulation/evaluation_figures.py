"""The paper's measurements from judged interview answers and movement files: information
diffusion, relationship network density, and who came to a seeded event.

Pure functions over plain data, so they can be checked on hand-made answer sets.
"""

from __future__ import annotations

from itertools import combinations


def diffusion(knows: dict[str, bool]) -> dict:
    """{"count", "total", "share"} of the personas whose answer showed they know the fact."""
    count = sum(1 for v in knows.values() if v)
    total = len(knows)
    return {"count": count, "total": total, "share": round(count / total, 4) if total else 0.0}


def density(names: list[str], knows: dict[str, dict[str, bool]]) -> dict:
    """The paper's network density: the share of unordered pairs where at least one of the
    two said they know the other. ``knows[a][b]``: a's answer to "Do you know b?"."""
    pairs = list(combinations(sorted(names), 2))
    edges = [[a, b] for a, b in pairs if knows.get(a, {}).get(b) or knows.get(b, {}).get(a)]
    return {"pairs": len(pairs), "known_pairs": len(edges),
            "density": round(len(edges) / len(pairs), 4) if pairs else 0.0, "edges": edges}


def attendance(frames, place_of, window: tuple, names: list[str]) -> dict[str, int]:
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
