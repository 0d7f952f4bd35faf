"""A persona's long-term memory stream (events, thoughts, chats) and its keyword index.

Loads and saves the original ``associative_memory/`` files (``nodes.json``,
``kw_strength.json``, ``embeddings.json``). Vectors come from our embedding model: a
file written with another model (the original's 1536-value vectors) is re-embedded on
load. Every node's vector is also kept in the persona's Chroma collection, which
scored retrieval queries for relevance.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from reverie.action_text import subtask
from reverie.jsonio import ObjectText, read_json, write_json_atomic, write_text_atomic
from reverie.memory.concept_node import ConceptNode, node_number
from reverie.memory.event import Event
from reverie.memory.vector_index import ChromaLost

NODES_FILE = "nodes.json"
KW_STRENGTH_FILE = "kw_strength.json"
EMBEDDINGS_FILE = "embeddings.json"


@dataclass(frozen=True)
class NewMemory:
    """What a new node holds before memory numbers it."""

    created: datetime
    expiration: datetime | None
    event: Event
    description: str
    keywords: Iterable[str]
    poignancy: int
    embedding_key: str
    filling: list | None = None
    embedding: list[float] | None = None


def _last_segment(text: str) -> str:
    return str(text).split(":")[-1]


class AssociativeMemory:
    def __init__(self, embedder=None, vectors=None):
        self.embedder = embedder  # reverie.memory.embedder.Embedder (needed for new vectors)
        self.vectors = vectors  # reverie.memory.vector_index.PersonaVectors or None
        self.id_to_node: dict[str, ConceptNode] = {}
        # Newest first, as in the original.
        self.seq_event: list[ConceptNode] = []
        self.seq_thought: list[ConceptNode] = []
        self.seq_chat: list[ConceptNode] = []
        # Keys are lower-cased keywords; lists are newest first.
        self.kw_to_event: dict[str, list[ConceptNode]] = {}
        self.kw_to_thought: dict[str, list[ConceptNode]] = {}
        self.kw_to_chat: dict[str, list[ConceptNode]] = {}
        # Persisted but not used for retrieval (as in the original).
        self.kw_strength_event: dict[str, int] = {}
        self.kw_strength_thought: dict[str, int] = {}
        # embedding_key -> vector, shared by all nodes with the same key.
        self.embeddings: dict[str, list[float]] = {}
        self._last_count = 0  # highest node number so far
        self._unindexed: list[ConceptNode] = []  # new nodes not yet written to Chroma
        # The saved files' text, each node and vector encoded once while it stays the same.
        self._nodes_text = ObjectText(indent=2)
        self._vectors_text = ObjectText(indent=None)

    # -- vectors ---------------------------------------------------------------------
    def vector(self, embedding_key: str) -> list[float]:
        """The vector of a text: reused from this memory, else embedded (and kept)."""
        if embedding_key not in self.embeddings:
            if self.embedder is None:
                raise RuntimeError("this memory has no embedder to embed new text")
            self.embeddings[embedding_key] = self.embedder.embed_one(embedding_key)
        return self.embeddings[embedding_key]

    def _index(self, nodes: list[ConceptNode]) -> None:
        if self.vectors is None or not nodes:
            return
        self.vectors.upsert_many(
            [n.node_id for n in nodes],
            [self.embeddings[n.embedding_key] for n in nodes],
            [{"type": n.type, "node_count": n.node_count, "poignancy": n.poignancy} for n in nodes],
            [n.embedding_key for n in nodes],
        )

    def flush_index(self) -> None:
        """Write new nodes to Chroma in one batch (done before every query and on save).
        A Chroma server that went away keeps them pending: the files hold them, and the
        collection is rebuilt from the files when the run resumes."""
        pending, self._unindexed = self._unindexed, []
        try:
            self._index(pending)
        except ChromaLost:
            self._unindexed = pending + self._unindexed

    def sync_index(self) -> None:
        """Make the Chroma collection hold exactly this memory's nodes and vectors."""
        if self.vectors is None:
            return
        nodes = list(self.id_to_node.values())
        dim = len(self.embeddings[nodes[0].embedding_key]) if nodes else None
        stored = self.vectors.dimension()
        if stored is not None and dim is not None and stored != dim:
            self.vectors.reset()
        have = self.vectors.documents()
        self.vectors.delete([i for i in have if i not in self.id_to_node])
        self._index([n for n in nodes if have.get(n.node_id) != n.embedding_key])

    # -- adding ----------------------------------------------------------------------
    def _next_counts(self, seq: list[ConceptNode]) -> tuple[str, int, int]:
        count = self._last_count + 1
        return f"node_{count}", count, len(seq) + 1

    def _register(self, node: ConceptNode) -> None:
        """Put a node into the id map, its sequence and its keyword index (newest first)."""
        seq, kw_index = {
            "event": (self.seq_event, self.kw_to_event),
            "thought": (self.seq_thought, self.kw_to_thought),
            "chat": (self.seq_chat, self.kw_to_chat),
        }[node.type]
        seq.insert(0, node)
        # Keys lower-cased here and at lookup (the original looked up with the original case).
        for kw in {k.lower() for k in node.keywords}:
            kw_index.setdefault(kw, []).insert(0, node)
        self.id_to_node[node.node_id] = node
        self._last_count = max(self._last_count, node_number(node.node_id))

    def _strengthen(self, node: ConceptNode) -> None:
        strength = {"event": self.kw_strength_event, "thought": self.kw_strength_thought}.get(node.type)
        if strength is None or f"{node.predicate} {node.object}" == "is idle":
            return
        for kw in {k.lower() for k in node.keywords}:
            strength[kw] = strength.get(kw, 0) + 1

    def _add(self, node_type: str, memory: NewMemory, depth: int = 0) -> ConceptNode:
        seq = {"event": self.seq_event, "thought": self.seq_thought, "chat": self.seq_chat}[node_type]
        node_id, count, type_count = self._next_counts(seq)
        if memory.embedding is not None:
            self.embeddings[memory.embedding_key] = list(memory.embedding)
        self.vector(memory.embedding_key)
        subject, predicate, obj = memory.event
        node = ConceptNode(
            node_id=node_id,
            node_count=count,
            type_count=type_count,
            type=node_type,
            depth=depth,
            created=memory.created,
            expiration=memory.expiration,
            subject=subject,
            predicate=predicate,
            object=obj,
            description=memory.description,
            embedding_key=memory.embedding_key,
            poignancy=int(memory.poignancy),
            keywords=set(memory.keywords),
            filling=list(memory.filling or []),
        )
        self._register(node)
        self._strengthen(node)
        if self.vectors is not None:
            self._unindexed.append(node)
        return node

    def add_event(
        self,
        *,
        created: datetime,
        event: Event,
        description: str,
        keywords: Iterable[str],
        poignancy: int,
        embedding_key: str,
        filling: list | None = None,
        expiration: datetime | None = None,
        embedding: list[float] | None = None,
    ) -> ConceptNode:
        """A perceived event. A description with "(" keeps its first three words + the parenthetical."""
        if "(" in description:
            description = " ".join(description.split()[:3]) + " " + subtask(description)
        return self._add(
            "event",
            NewMemory(
                created, expiration, Event(*event), description, keywords, poignancy, embedding_key, filling, embedding
            ),
        )

    def add_chat(
        self,
        *,
        created: datetime,
        event: Event,
        description: str,
        keywords: Iterable[str],
        poignancy: int,
        embedding_key: str,
        filling: list | None = None,
        expiration: datetime | None = None,
        embedding: list[float] | None = None,
    ) -> ConceptNode:
        """A conversation: ``filling`` is the transcript [[speaker, utterance], ...]."""
        return self._add(
            "chat",
            NewMemory(
                created, expiration, Event(*event), description, keywords, poignancy, embedding_key, filling, embedding
            ),
        )

    def add_thought(
        self,
        *,
        created: datetime,
        event: Event,
        description: str,
        keywords: Iterable[str],
        poignancy: int,
        embedding_key: str,
        filling: list | None = None,
        expiration: datetime | None = None,
        embedding: list[float] | None = None,
    ) -> ConceptNode:
        """A reflection or plan; ``filling`` = evidence node ids; depth = 1 + deepest evidence."""
        evidence = [self.id_to_node[i] for i in (filling or []) if isinstance(i, str) and i in self.id_to_node]
        depth = 1 + max((n.depth for n in evidence), default=0)
        return self._add(
            "thought",
            NewMemory(
                created, expiration, Event(*event), description, keywords, poignancy, embedding_key, filling, embedding
            ),
            depth=depth,
        )

    def set_poignancy(self, node: ConceptNode, poignancy: int) -> None:
        """A node's score, asked after it was stored; a node already in Chroma is written there
        again at the next flush, so the collection's metadata holds the score too."""
        node.poignancy = int(poignancy)
        if self.vectors is not None and all(pending is not node for pending in self._unindexed):
            self._unindexed.append(node)

    # -- reading ---------------------------------------------------------------------
    def get_summarized_latest_events(self, retention: int) -> set[tuple[str, str, str]]:
        """Triples of the ``retention`` newest events (perception skips these)."""
        return {node.spo() for node in self.seq_event[:retention]}

    def get_last_chat(self, name: str) -> ConceptNode | None:
        """The newest chat with ``name`` (the original read the oldest chat in one place)."""
        chats = self.kw_to_chat.get(name.lower())
        return chats[0] if chats else None

    @staticmethod
    def _lookup(index: dict[str, list[ConceptNode]], words: Iterable[str]) -> list[ConceptNode]:
        found: dict[str, ConceptNode] = {}
        for word in words:
            for node in index.get(str(word).lower(), []):  # lower-cased lookup: fixes the case bug
                found.setdefault(node.node_id, node)
        return list(found.values())

    @staticmethod
    def _spo_words(s: str, p: str, o: str) -> list[str]:
        # Object events have full addresses as subject; keywords hold only the last segment.
        return list(dict.fromkeys([s, p, o, _last_segment(s), _last_segment(o)]))

    def retrieve_relevant_events(self, s: str, p: str, o: str) -> list[ConceptNode]:
        return self._lookup(self.kw_to_event, self._spo_words(s, p, o))

    def retrieve_relevant_thoughts(self, s: str, p: str, o: str) -> list[ConceptNode]:
        return self._lookup(self.kw_to_thought, self._spo_words(s, p, o))

    def retrieve_events_thoughts(self, perceived: Iterable[ConceptNode]) -> dict[str, dict]:
        """Keyword retrieval for newly perceived events (no scoring):
        ``{description: {"curr_event": node, "events": [...], "thoughts": [...]}}``."""
        out = {}
        for event in perceived:
            out[event.description] = {
                "curr_event": event,
                "events": self.retrieve_relevant_events(*event.spo()),
                "thoughts": self.retrieve_relevant_thoughts(*event.spo()),
            }
        return out

    def nodes(self) -> list[ConceptNode]:
        """All nodes, oldest first."""
        return sorted(self.id_to_node.values(), key=lambda n: node_number(n.node_id))

    # -- files -----------------------------------------------------------------------
    @classmethod
    def load(cls, folder: str | Path, *, embedder=None, vectors=None) -> AssociativeMemory:
        """Read ``folder`` (…/bootstrap_memory/associative_memory); missing files = empty."""
        folder = Path(folder)
        mem = cls(embedder=embedder, vectors=vectors)
        nodes = read_json(folder / NODES_FILE) if (folder / NODES_FILE).is_file() else {}
        for node_id in sorted(nodes, key=node_number):
            mem._register(ConceptNode.from_json(node_id, nodes[node_id]))
        if (folder / KW_STRENGTH_FILE).is_file():
            strength = read_json(folder / KW_STRENGTH_FILE) or {}
            mem.kw_strength_event = dict(strength.get("kw_strength_event") or {})
            mem.kw_strength_thought = dict(strength.get("kw_strength_thought") or {})
        if (folder / EMBEDDINGS_FILE).is_file():
            mem.embeddings = dict(read_json(folder / EMBEDDINGS_FILE) or {})
        mem._fix_vectors()
        mem.sync_index()
        return mem

    def _fix_vectors(self) -> None:
        """Re-embed vectors of another model's size and embed node keys that have none."""
        needed = {n.embedding_key for n in self.id_to_node.values()}
        missing = [k for k in needed if k not in self.embeddings]
        if not self.embeddings and not missing:
            return
        if self.embedder is None:
            if missing:
                raise RuntimeError(f"{len(missing)} memory nodes have no vector and there is no embedder")
            return
        dim = self.embedder.dim
        redo = [k for k, v in self.embeddings.items() if len(v) != dim] + missing
        if redo:
            for key, vec in zip(redo, self.embedder.embed(redo)):
                self.embeddings[key] = vec

    def save(self, folder: str | Path) -> None:
        self.flush_index()
        folder = Path(folder)
        nodes = {n.node_id: n.to_json() for n in reversed(self.nodes())}  # newest first
        write_text_atomic(folder / NODES_FILE, self._nodes_text.text(nodes))
        write_json_atomic(
            folder / KW_STRENGTH_FILE,
            {
                "kw_strength_event": self.kw_strength_event,
                "kw_strength_thought": self.kw_strength_thought,
            },
        )
        write_text_atomic(folder / EMBEDDINGS_FILE, self._vectors_text.text(self.embeddings))
