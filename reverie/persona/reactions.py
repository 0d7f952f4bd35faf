"""What a persona decides on noticing another: talk to them, or wait until they are done."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class ChatWith:
    """Start a conversation with ``partner`` (a persona's name)."""

    partner: str


@dataclass(frozen=True)
class WaitUntil:
    """Wait where one stands until ``until`` (the last minute of the other's action)."""

    until: datetime


Reaction = ChatWith | WaitUntil
