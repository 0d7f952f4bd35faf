"""Where an action happens, parsed: a place, another persona, a tile to wait at.

The file format keeps the original's strings (``scratch.json`` ``act_address``, the
movement files' "<description> @ <address>"): ``world:sector:arena:object`` for a place
(object ``<random>``: anywhere in the arena), ``<persona> Name`` for a conversation
partner, ``<waiting> x y`` for the tile where a persona waits.
"""

from __future__ import annotations

from dataclasses import dataclass

PERSONA = "<persona>"
WAITING = "<waiting>"
RANDOM = "<random>"


@dataclass(frozen=True)
class Place:
    """``world:sector:arena:object`` (or a shorter prefix, or ``""`` for nowhere known)."""

    text: str

    @property
    def is_random(self) -> bool:
        """The object is ``<random>``: a new tile of the arena on every arrival."""
        return RANDOM in self.text

    @property
    def arena(self) -> str:
        """The address without its last part."""
        return ":".join(self.text.split(":")[:-1])

    @property
    def object(self) -> str:
        return self.text.split(":")[-1]

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class PersonaAt:
    """Wherever the persona ``name`` is (a conversation)."""

    name: str

    def __str__(self) -> str:
        return f"{PERSONA} {self.name}"


@dataclass(frozen=True)
class WaitingAt:
    """A tile to stand on while waiting; ``tile`` is None when the text named none (stay)."""

    tile: tuple[int, int] | None

    def __str__(self) -> str:
        x, y = self.tile if self.tile is not None else ("", "")
        return f"{WAITING} {x} {y}"


Address = Place | PersonaAt | WaitingAt


def parse_address(text: str | None) -> Address:
    """The address a scratch ``act_address`` (or a planned address) names."""
    text = text or ""
    if PERSONA in text:
        return PersonaAt(text.split(PERSONA, 1)[1].strip())
    if WAITING in text:
        parts = text.split()
        try:
            return WaitingAt((int(parts[-2]), int(parts[-1])))
        except (ValueError, IndexError):
            return WaitingAt(None)
    return Place(text)


def random_spot(area: str) -> str:
    """``<area>:<random>``: anywhere in ``area``."""
    return f"{area}:{RANDOM}"
