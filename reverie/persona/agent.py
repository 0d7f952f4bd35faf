"""What each cognitive stage sees of a persona (a :class:`reverie.persona.persona.Persona`
satisfies it; tests may pass any object that does)."""

from __future__ import annotations

from typing import Protocol

from reverie.memory import AssociativeMemory, PersonaMemory, Scratch, SpatialMemory
from reverie.persona.options import CognitionOptions
from reverie.persona.seeded_status import Seeds
from reverie.tasks.convo_thoughts import ChatNotes


class Agent(Protocol):
    name: str
    memory: PersonaMemory
    options: CognitionOptions
    seeds: Seeds
    learned_from: tuple | None  # (tile, vision radius) the places were last learned from
    chat_notes: dict[str, ChatNotes]  # packed mode: a partner's call wrote these notes of a chat that ends, by partner

    @property
    def scratch(self) -> Scratch: ...

    @property
    def s_mem(self) -> SpatialMemory: ...

    @property
    def a_mem(self) -> AssociativeMemory: ...

    def identity(self) -> str: ...
