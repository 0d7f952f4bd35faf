"""Scored retrieval: the memories that matter for a focal point.

For each focal point, every event and thought (chats excluded, idle ones skipped) gets
recency, importance and relevance scores, each min-max normalised over the candidates,
combined as ``recency_w·0.5·recency + relevance_w·3·relevance + importance_w·2·importance``.
The top ``n`` are returned and marked as accessed now. Relevance is cosine similarity to
the focal point's embedding, asked of the persona's Chroma collection.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import numpy as np

from reverie.memory.associative import AssociativeMemory
from reverie.memory.concept_node import ConceptNode
from reverie.memory.vector_index import ChromaLost

if TYPE_CHECKING:
    from reverie.memory.scratch import Scratch

GLOBAL_WEIGHTS = (0.5, 3.0, 2.0)  # recency, relevance, importance


@dataclass(frozen=True)
class RetrievalWeights:
    recency_w: float = 1.0
    relevance_w: float = 1.0
    importance_w: float = 1.0
    recency_decay: float = 0.99

    @classmethod
    def from_scratch(cls, scratch: Scratch) -> RetrievalWeights:
        return cls(scratch.recency_w, scratch.relevance_w, scratch.importance_w, scratch.recency_decay)


def normalise(values: list[float]) -> list[float]:
    """Min-max to [0, 1]; all equal -> 0.5 each."""
    if not values:
        return []
    low, high = min(values), max(values)
    if high == low:
        return [0.5] * len(values)
    return [(v - low) / (high - low) for v in values]


def candidates(memory: AssociativeMemory) -> list[ConceptNode]:
    """Events and thoughts that are not idle, most recently accessed first."""
    nodes = [n for n in memory.seq_event + memory.seq_thought if not n.spo().is_idle]
    # A node's last access starts as its creation time (ConceptNode.__post_init__), so it is never None here.
    return sorted(nodes, key=lambda n: n.last_accessed or n.created, reverse=True)


def recency_scores(nodes: list[ConceptNode], decay: float) -> list[float]:
    """decay ** rank of last access, rank 1 = most recent; equal access times share a rank."""
    # Most recently accessed scores highest (docs/FIDELITY.md).
    ranks, rank, previous = [], 0, None
    for node in nodes:
        if node.last_accessed != previous:
            rank, previous = rank + 1, node.last_accessed
        ranks.append(decay**rank)
    return ranks


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    u, v = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    denom = np.linalg.norm(u) * np.linalg.norm(v)
    return float(u @ v / denom) if denom else 0.0


def relevance_scores(memory: AssociativeMemory, nodes: list[ConceptNode], query: Sequence[float]) -> list[float]:
    """Cosine similarity of each node's vector to ``query``: Chroma first, exact numpy for any gap."""
    found: dict[str, float] = {}
    if memory.vectors is not None and nodes:
        memory.flush_index()
        try:
            found = memory.vectors.query(query, n=len(nodes), ids=[n.node_id for n in nodes])
        except ChromaLost:
            found = {}  # the server went away: this step ends on the exact scores, then the run stops
    return [
        found[n.node_id] if n.node_id in found else cosine(memory.embeddings[n.embedding_key], query) for n in nodes
    ]


def retrieve(
    memory: AssociativeMemory,
    focal_points: Sequence[str],
    n: int = 30,
    *,
    now: datetime | None,
    weights: RetrievalWeights = RetrievalWeights(),
) -> dict[str, list[ConceptNode]]:
    """``{focal_point: [up to n nodes, best first]}``; sets ``last_accessed = now`` on them."""
    focal_points = list(focal_points)
    if not focal_points:
        return {}
    if memory.embedder is None:
        raise RuntimeError("this memory has no embedder to embed the focal points")
    queries = dict(zip(focal_points, memory.embedder.embed(focal_points)))
    return retrieve_by_vectors(memory, queries, n, now=now, weights=weights)


def retrieve_by_vectors(
    memory: AssociativeMemory,
    queries: Mapping[str, Sequence[float]],
    n: int = 30,
    *,
    now: datetime | None,
    weights: RetrievalWeights = RetrievalWeights(),
) -> dict[str, list[ConceptNode]]:
    """:func:`retrieve` with the focal points' vectors given (one pass per focal point, in order)."""
    g_rec, g_rel, g_imp = GLOBAL_WEIGHTS
    out: dict[str, list[ConceptNode]] = {}
    for focal, query in queries.items():
        nodes = candidates(memory)
        recency = normalise(recency_scores(nodes, weights.recency_decay))
        importance = normalise([float(node.poignancy) for node in nodes])
        relevance = normalise(relevance_scores(memory, nodes, query))
        scores = [
            weights.recency_w * r * g_rec + weights.relevance_w * v * g_rel + weights.importance_w * i * g_imp
            for r, v, i in zip(recency, relevance, importance)
        ]
        order = sorted(range(len(nodes)), key=lambda k: -scores[k])  # stable: ties keep candidate order
        chosen = [nodes[k] for k in order[:n]]
        if now is not None:
            for node in chosen:
                node.last_accessed = now
        out[focal] = chosen
    return out
