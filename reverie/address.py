"""Where an action happens, parsed: a place, another persona, a tile to wait at.

The file format keeps the original's strings (``scratch.json`` ``act_address``, the
movement files' "<description> @ <address>"): ``world:sector:arena:object`` for a place
(object ``<random>``: anywhere in the arena), ``<persona> Name`` for a conversation
partner, ``<waiting> x y`` for the tile where a persona waits. This module is the one reader
and writer of that format: the rest of the code decides on the parsed types.
"""

from __future__ import annotations

from dataclasses import dataclass

PERSONA = "<persona>"
WAITING = "<waiting>"
RANDOM = "<random>"
MOVEMENT_SEPARATOR = " @ "  # a movement file's "<description> @ <address>"


@dataclass(frozen=True)
class Place:
    """``world:sector:arena:object`` (or a shorter prefix, or ``""`` for nowhere known)."""

    text: str

    @property
    def is_random(self) -> bool:
        """The object is ``<random>``: a new tile of the arena on every arrival."""
        return RANDOM in self.text

    @property
    def parts(self) -> list[str]:
        """``["world", "sector", "arena", "object"]`` (as many as the address has)."""
        return self.text.split(":")

    @property
    def arena(self) -> str:
        """The address without its last part."""
        return ":".join(self.parts[:-1])

    @property
    def object(self) -> str:
        return self.parts[-1]

    def widening(self) -> list[str]:
        """This address, then each shorter one above it down to ``world:sector`` (never the
        world alone); none for the empty address."""
        if not self.text:
            return []
        parts = self.parts
        return [":".join(parts[:k]) for k in range(len(parts), min(len(parts), 2) - 1, -1)]

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


def movement_text(description: str | None, address: str | None) -> str:
    """A movement file's "<description> @ <address>"."""
    return f"{description}{MOVEMENT_SEPARATOR}{address}"


def movement_address(text: str) -> str | None:
    """The address of a movement file's "<description> @ <address>" (None: the text names none)."""
    _description, separator, address = text.partition(MOVEMENT_SEPARATOR)
    return address.strip() if separator else None


def random_spot(area: str) -> str:
    """``<area>:<random>``: anywhere in ``area``."""
    return f"{area}:{RANDOM}"
