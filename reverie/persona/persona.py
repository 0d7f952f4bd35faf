"""A persona: its memory and the order of its cognitive stages for one step (LOOP.md §3)."""

from __future__ import annotations

import random
from datetime import datetime
from pathlib import Path

from reverie.memory import PersonaMemory
from reverie.persona.execute import execute
from reverie.persona.perceive import perceive
from reverie.persona.plan import plan
from reverie.persona.reflect import reflect
from reverie.persona.retrieve import retrieve_perceived


class Persona:
    def __init__(self, name: str, memory: PersonaMemory):
        self.name = name
        self.memory = memory

    # The original's attribute names, used throughout cognition.
    @property
    def scratch(self):
        return self.memory.scratch

    @property
    def s_mem(self):
        return self.memory.spatial

    @property
    def a_mem(self):
        return self.memory.associative

    @classmethod
    def load(cls, name: str, folder: Path, *, embedder=None, index=None) -> "Persona":
        return cls(name, PersonaMemory.load(folder, embedder=embedder, index=index))

    def save(self, folder: Path) -> None:
        self.memory.save(folder)

    def identity(self) -> str:
        return self.scratch.identity()

    def current_event(self) -> tuple:
        return self.scratch.curr_event()

    def object_event(self) -> tuple:
        return self.scratch.curr_obj_event()

    def move(self, maze, personas: dict, tile: tuple[int, int], curr_time: datetime, *,
             rng: random.Random, llm) -> tuple[tuple[int, int], str, str]:
        """One step of cognition: perceive → retrieve → plan → reflect → execute."""
        s = self.scratch
        s.curr_tile = tuple(tile)
        if s.curr_time is None:
            new_day = "First day"
        elif s.curr_time.strftime("%A %B %d") != curr_time.strftime("%A %B %d"):
            new_day = "New day"
        else:
            new_day = False
        previous_time = s.curr_time
        s.curr_time = curr_time

        perceived = perceive(self, maze, llm)
        retrieved = retrieve_perceived(self, perceived)
        plan_address = plan(self, maze, personas, new_day, retrieved, llm, rng)
        reflect(self, llm, previous_time)
        return execute(self, maze, personas, plan_address, rng)
