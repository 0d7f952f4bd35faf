"""Everything a persona remembers, loaded from and saved to its ``bootstrap_memory/`` folder.

Layout (the original's)::

    bootstrap_memory/scratch.json
    bootstrap_memory/spatial_memory.json
    bootstrap_memory/associative_memory/{nodes,kw_strength,embeddings}.json

plus ours, which the original ignores: ``bootstrap_memory/day_cache.json`` (today's answers
worth reusing, see :mod:`reverie.memory.day_cache`) and ``bootstrap_memory/unrated.json``
(new memories whose poignancy is still to be asked, see :mod:`reverie.memory.unrated`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from reverie.errors import UserError
from reverie.memory.associative import AssociativeMemory
from reverie.memory.concept_node import ConceptNode
from reverie.memory.day_cache import DAY_CACHE_FILE, DayCache
from reverie.memory.retrieval import RetrievalWeights, retrieve
from reverie.memory.scratch import SCRATCH_FILE, Scratch
from reverie.memory.spatial import SPATIAL_FILE, SpatialMemory
from reverie.memory.unrated import UNRATED_FILE, Unrated

if TYPE_CHECKING:
    from reverie.memory.embedder import Embedder
    from reverie.memory.vector_index import VectorIndex

ASSOCIATIVE_DIR = "associative_memory"


@dataclass
class PersonaMemory:
    scratch: Scratch
    spatial: SpatialMemory
    associative: AssociativeMemory
    day_cache: DayCache = field(default_factory=DayCache)
    unrated: Unrated = field(default_factory=Unrated)

    @classmethod
    def load(
        cls, folder: str | Path, *, embedder: Embedder | None = None, index: VectorIndex | None = None
    ) -> PersonaMemory:
        """Read a ``bootstrap_memory`` folder; ``index`` (a VectorIndex) receives every node's vector."""
        folder = Path(folder)
        if not (folder / SCRATCH_FILE).is_file():
            raise UserError(f"'{folder}' has no {SCRATCH_FILE} — is it a persona's bootstrap_memory folder?")
        scratch = Scratch.load(folder / SCRATCH_FILE)
        spatial_path = folder / SPATIAL_FILE
        spatial = SpatialMemory.load(spatial_path) if spatial_path.is_file() else SpatialMemory()
        vectors = None
        if index is not None:
            if not scratch.name:
                raise UserError(f"'{folder / SCRATCH_FILE}' has no name: its vectors are kept under the persona's name")
            vectors = index.persona(scratch.name)
        associative = AssociativeMemory.load(folder / ASSOCIATIVE_DIR, embedder=embedder, vectors=vectors)
        return cls(
            scratch, spatial, associative, DayCache.load(folder / DAY_CACHE_FILE), Unrated.load(folder / UNRATED_FILE)
        )

    def save(self, folder: str | Path) -> None:
        folder = Path(folder)
        self.scratch.save(folder / SCRATCH_FILE)
        self.spatial.save(folder / SPATIAL_FILE)
        self.associative.save(folder / ASSOCIATIVE_DIR)
        self.day_cache.save(folder / DAY_CACHE_FILE)
        self.unrated.save(folder / UNRATED_FILE)

    def todays_answers(self) -> DayCache:
        """Today's reusable answers (emptied when the game date changes)."""
        return self.day_cache.today(self.scratch.curr_date_str())

    def retrieve(self, focal_points: Sequence[str], n: int = 30) -> dict[str, list[ConceptNode]]:
        """Scored retrieval at the persona's current time with its scratch weights."""
        return retrieve(
            self.associative,
            focal_points,
            n,
            now=self.scratch.curr_time,
            weights=RetrievalWeights.from_scratch(self.scratch),
        )
