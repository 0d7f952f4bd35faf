"""Helpers of the memory tests (imported by name: the tests folder has no packages)."""

from __future__ import annotations

from datetime import datetime, timedelta

from reverie.memory import AssociativeMemory
from reverie.memory.associative import NewMemory
from reverie.memory.concept_node import NodeKind
from reverie.memory.event import Event

BASE_SIM = "base_the_ville_isabella_maria_klaus"
PERSONAS = ("Isabella Rodriguez", "Maria Lopez", "Klaus Mueller")
T0 = datetime(2023, 2, 13, 7, 0, 0)


def add(
    mem: AssociativeMemory,
    desc: str,
    vector,
    *,
    poignancy: int = 5,
    minutes: int = 0,
    kind: str = "event",
    keywords=("thing",),
):
    """Add a node with a chosen vector, created (and last accessed) T0 + minutes."""
    s, p, o = desc.split(" ", 2) if desc.count(" ") >= 2 else (desc, "is", "here")
    return mem.add(
        NewMemory(
            kind=NodeKind(kind),
            created=T0 + timedelta(minutes=minutes),
            event=Event(s, p, o),
            description=desc,
            keywords=keywords,
            poignancy=poignancy,
            embedding_key=desc,
            filling=[],
            embedding=list(map(float, vector)),
        )
    )
