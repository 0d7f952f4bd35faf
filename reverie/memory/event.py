"""What happens, as a (subject, predicate, object) triple.

A persona's action, the object it uses, a memory node: each is told by one triple. In the
files (``scratch.json`` ``act_event``, ``act_obj_event``) a triple is a three-item list; a
named tuple is written the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

CHAT_WITH = "chat with"  # the predicate of a persona's conversation
IDLE = ("is", "idle")  # the predicate and object of a thing or persona with nothing happening (the original's)


class Event(NamedTuple):
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None

    @classmethod
    def from_json(cls, value: Sequence[str | None] | None) -> Event:
        """A triple from a file: null is no event, a shorter list ends in nulls."""
        return cls(*(value or [])[:3])

    @property
    def is_chat(self) -> bool:
        return self.predicate == CHAT_WITH

    @property
    def is_idle(self) -> bool:
        """Nothing happens: perception's stand-in for a tile event without a predicate."""
        return (self.predicate, self.object) == IDLE


NO_EVENT = Event()
