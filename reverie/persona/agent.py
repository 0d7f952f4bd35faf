"""What each cognitive stage sees of a persona (a :class:`reverie.persona.persona.Persona`
satisfies it; tests may pass any object that does)."""

from __future__ import annotations

from typing import Protocol

from reverie.memory import AssociativeMemory, PersonaMemory, Scratch, SpatialMemory
from reverie.persona.options import CognitionOptions
from reverie.persona.seeded_status import Seeds


class Agent(Protocol):
    name: str
    memory: PersonaMemory
    options: CognitionOptions
    seeds: Seeds
    learned_from: tuple | None  # (tile, vision radius) the places were last learned from

    @property
    def scratch(self) -> Scratch: ...

    @property
    def s_mem(self) -> SpatialMemory: ...

    @property
    def a_mem(self) -> AssociativeMemory: ...

    def identity(self) -> str: ...
