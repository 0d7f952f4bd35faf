"""A persona's memory: scratch, spatial and associative memory, embeddings, Chroma index, retrieval."""

from reverie.memory.associative import AssociativeMemory
from reverie.memory.concept_node import ConceptNode
from reverie.memory.embedder import Embedder
from reverie.memory.persona_memory import PersonaMemory
from reverie.memory.retrieval import RetrievalWeights, retrieve
from reverie.memory.scratch import Scratch
from reverie.memory.spatial import SpatialMemory
from reverie.memory.vector_index import PersonaVectors, VectorIndex

__all__ = [
    "AssociativeMemory",
    "ConceptNode",
    "Embedder",
    "PersonaMemory",
    "PersonaVectors",
    "RetrievalWeights",
    "Scratch",
    "SpatialMemory",
    "VectorIndex",
    "retrieve",
]
