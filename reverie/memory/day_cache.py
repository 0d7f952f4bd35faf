"""Answers a persona already got from the model today, so the same question is asked once.

Two tables, emptied when the game date changes (a new day brings a new identity and plan,
which are part of those prompts):

- ``poignancy``: how poignant an event or chat description felt (``"event:<text>"``);
- ``actions``: for an action description, where it happened and how it looked (emoji,
  event triples, the object's state). An entry also records the places its answer was chosen
  from (:func:`answer_places`), in the tree the caller passes: the places as the location
  prompts show them (the persona's own, ``reverie.persona.location.places_shown``). When the
  persona has learned a place among them since, the prompts would see other choices, so the
  entry is stale; a place learned elsewhere, or one the prompts do not show, leaves it as good
  as it was.

The cache is saved beside the persona's memory (``bootstrap_memory/day_cache.json``), so a
resumed run asks the model exactly what the uninterrupted run would have.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reverie.address import Place, parse_address
from reverie.jsonio import write_json_atomic
from reverie.memory.spatial import SpatialTree

DAY_CACHE_FILE = "day_cache.json"


def poignancy_key(kind: str, text: str) -> str:
    """The ``poignancy`` table's key of a ``kind`` ("event" or "chat") of memory with ``text``."""
    return f"{kind}:{text}"


def places_digest(tree: Mapping[str, Any]) -> str:
    """A short digest of a spatial-memory tree (world → sector → arena → objects)."""
    blob = json.dumps(tree, sort_keys=True, ensure_ascii=False)
    return hashlib.sha1(blob.encode("utf-8")).hexdigest()[:16]


def answer_places(tree: SpatialTree, address: str) -> str:
    """A digest of the places an answer at ``address`` was chosen from: the world's sectors, the
    arenas of its sector and the objects of its arena, the three lists the location prompts show
    on the way to it (``action_sector``, ``action_arena``, ``action_object``). An address that is
    no place (another persona, a tile to wait at) depends on the whole tree."""
    place = parse_address(address)
    parts = place.parts if isinstance(place, Place) else []
    if len(parts) < 3 or parts[0] not in tree:
        return places_digest(tree)
    sectors = tree[parts[0]]
    arenas = sectors.get(parts[1], {})
    return places_digest({"sectors": list(sectors), "arenas": list(arenas), "objects": list(arenas.get(parts[2], []))})


@dataclass
class DayCache:
    date: str | None = None
    poignancy: dict[str, int] = field(default_factory=dict)
    actions: dict[str, dict[str, Any]] = field(default_factory=dict)

    def today(self, date: str) -> DayCache:
        """The cache for ``date``: emptied first when it holds another day's answers."""
        if date != self.date:
            self.date, self.poignancy, self.actions = date, {}, {}
        return self

    def action(self, description: str, tree: SpatialTree) -> dict[str, Any] | None:
        """Today's answer for ``description``, while the places it was chosen from are unchanged in ``tree``."""
        entry = self.actions.get(description)
        if entry is None or entry.get("places") != answer_places(tree, str(entry.get("address", ""))):
            return None
        return entry

    def remember_action(self, description: str, tree: SpatialTree, address: str, details: dict[str, Any]) -> None:
        """Keep the answer with the digest of the places of ``tree`` it was chosen from."""
        self.actions[description] = {"places": answer_places(tree, address), "address": address, "details": details}

    # -- files ---------------------------------------------------------------------------
    @classmethod
    def load(cls, path: Path) -> DayCache:
        """The saved cache, or an empty one (a missing or unreadable file only costs model calls)."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            return cls(
                date=data.get("date"),
                poignancy=dict(data.get("poignancy") or {}),
                actions=dict(data.get("actions") or {}),
            )
        except (OSError, ValueError, AttributeError):
            return cls()

    def save(self, path: Path) -> None:
        write_json_atomic(path, {"date": self.date, "poignancy": self.poignancy, "actions": self.actions}, indent=1)
