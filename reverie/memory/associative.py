"""A persona's long-term memory stream (events, thoughts, chats) and its keyword index.

Loads and saves the original ``associative_memory/`` files (``nodes.json``,
``kw_strength.json``, ``embeddings.json``). Vectors come from our embedding model: a
file written with another model (the original's 1536-value vectors) is re-embedded on
load. Every node's vector is also kept in the persona's Chroma collection, which
scored retrieval queries for relevance.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from reverie.action_text import is_decomposed, subtask
from reverie.jsonio import ObjectText, read_json, write_json_atomic, write_text_atomic
from reverie.memory.concept_node import ConceptNode, NodeKind, node_number
from reverie.memory.event import Event
from reverie.memory.vector_index import ChromaLost

if TYPE_CHECKING:
    from reverie.memory.embedder import Embedder
    from reverie.memory.vector_index import PersonaVectors

NODES_FILE = "nodes.json"
KW_STRENGTH_FILE = "kw_strength.json"
EMBEDDINGS_FILE = "embeddings.json"


@dataclass(frozen=True, kw_only=True)
class NewMemory:
    """What a new node holds before memory numbers it (:meth:`AssociativeMemory.add`).

    ``filling``: a chat's transcript ``[[speaker, utterance], ...]``, the evidence node ids of a
    thought, the chat node an event points to. ``embedding``: the vector of ``embedding_key``
    when it was computed already (several memories embedded at once); else memory embeds it."""

    kind: NodeKind
    created: datetime
    event: Event
    description: str
    keywords: Iterable[str]
    poignancy: int
    embedding_key: str
    filling: list[Any] | None = None
    expiration: datetime | None = None
    embedding: list[float] | None = None


class Relevant(TypedDict):
    """What keyword retrieval finds for one newly perceived event."""

    curr_event: ConceptNode
    events: list[ConceptNode]
    thoughts: list[ConceptNode]


@dataclass
class Stream:
    """The nodes of one kind, newest first (as in the original), and their keyword index: keys
    lower-cased, each list newest first."""

    nodes: list[ConceptNode] = field(default_factory=list)
    by_keyword: dict[str, list[ConceptNode]] = field(default_factory=dict)


def _last_segment(text: str) -> str:
    return str(text).split(":")[-1]


def _event_description(description: str) -> str:
    """A perceived event's description: one with "(" keeps its first three words + the parenthetical."""
    if is_decomposed(description):
        return " ".join(description.split()[:3]) + " " + subtask(description)
    return description


class AssociativeMemory:
    def __init__(self, embedder: Embedder | None = None, vectors: PersonaVectors | None = None):
        self.embedder = embedder  # needed for new vectors
        self.vectors = vectors
        self.id_to_node: dict[str, ConceptNode] = {}
        self.streams: dict[NodeKind, Stream] = {kind: Stream() for kind in NodeKind}
        # Keyword strengths of events and thoughts: persisted but not used for retrieval (as in the original).
        self.strengths: dict[NodeKind, dict[str, int]] = {NodeKind.EVENT: {}, NodeKind.THOUGHT: {}}
        # embedding_key -> vector, shared by all nodes with the same key.
        self.embeddings: dict[str, list[float]] = {}
        self._last_count = 0  # highest node number so far
        self._unindexed: list[ConceptNode] = []  # new nodes not yet written to Chroma
        # The saved files' text, each node and vector encoded once while it stays the same.
        self._nodes_text = ObjectText(indent=2)
        self._vectors_text = ObjectText(indent=None)

    # The original's names for each kind's nodes and keyword index.
    @property
    def seq_event(self) -> list[ConceptNode]:
        return self.streams[NodeKind.EVENT].nodes

    @property
    def seq_thought(self) -> list[ConceptNode]:
        return self.streams[NodeKind.THOUGHT].nodes

    @property
    def seq_chat(self) -> list[ConceptNode]:
        return self.streams[NodeKind.CHAT].nodes

    @property
    def kw_to_event(self) -> dict[str, list[ConceptNode]]:
        return self.streams[NodeKind.EVENT].by_keyword

    @property
    def kw_to_thought(self) -> dict[str, list[ConceptNode]]:
        return self.streams[NodeKind.THOUGHT].by_keyword

    @property
    def kw_to_chat(self) -> dict[str, list[ConceptNode]]:
        return self.streams[NodeKind.CHAT].by_keyword

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
            [{"type": n.type.value, "node_count": n.node_count, "poignancy": n.poignancy} for n in nodes],
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
    def add(self, memory: NewMemory) -> ConceptNode:
        """A new node of ``memory.kind``, numbered after the last one. An event's description is
        shortened (:func:`_event_description`); a thought lies one deeper than its deepest evidence."""
        subject, predicate, obj = memory.event
        if subject is None or predicate is None or obj is None:
            # Perception fills a tile's empty event as "is idle"; thoughts and plans are whole triples.
            raise ValueError(f"a new memory needs a whole triple, got {tuple(memory.event)} for {memory.description!r}")
        kind = memory.kind
        count = self._last_count + 1
        if memory.embedding is not None:
            self.embeddings[memory.embedding_key] = list(memory.embedding)
        self.vector(memory.embedding_key)
        node = ConceptNode(
            node_id=f"node_{count}",
            node_count=count,
            type_count=len(self.streams[kind].nodes) + 1,
            type=kind,
            depth=self._depth(memory.filling) if kind is NodeKind.THOUGHT else 0,
            created=memory.created,
            expiration=memory.expiration,
            subject=subject,
            predicate=predicate,
            object=obj,
            description=_event_description(memory.description) if kind is NodeKind.EVENT else memory.description,
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

    def _depth(self, evidence_ids: list[Any] | None) -> int:
        """1 + the depth of the deepest node among ``evidence_ids`` (those this memory holds)."""
        evidence = [self.id_to_node[i] for i in (evidence_ids or []) if isinstance(i, str) and i in self.id_to_node]
        return 1 + max((n.depth for n in evidence), default=0)

    def _register(self, node: ConceptNode) -> None:
        """Put a node into the id map, its stream and its keyword index (newest first)."""
        stream = self.streams[node.type]
        stream.nodes.insert(0, node)
        # Keys lower-cased here and at lookup (docs/FIDELITY.md).
        for kw in {k.lower() for k in node.keywords}:
            stream.by_keyword.setdefault(kw, []).insert(0, node)
        self.id_to_node[node.node_id] = node
        self._last_count = max(self._last_count, node_number(node.node_id))

    def _strengthen(self, node: ConceptNode) -> None:
        strength = self.strengths.get(node.type)
        if strength is None or node.spo().is_idle:
            return
        # Sorted, so that the saved key order does not follow the process's string hashing.
        for kw in sorted({k.lower() for k in node.keywords}):
            strength[kw] = strength.get(kw, 0) + 1

    def set_poignancy(self, node: ConceptNode, poignancy: int) -> None:
        """A node's score, asked after it was stored; a node already in Chroma is written there
        again at the next flush, so the collection's metadata holds the score too."""
        node.poignancy = int(poignancy)
        if self.vectors is not None and all(pending is not node for pending in self._unindexed):
            self._unindexed.append(node)

    # -- reading ---------------------------------------------------------------------
    def get_summarized_latest_events(self, retention: int) -> set[Event]:
        """Triples of the ``retention`` newest events (perception skips these)."""
        return {node.spo() for node in self.seq_event[:retention]}

    def get_last_chat(self, name: str) -> ConceptNode | None:
        """The newest chat with ``name`` (docs/FIDELITY.md)."""
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

    def retrieve_events_thoughts(self, perceived: Iterable[ConceptNode]) -> dict[str, Relevant]:
        """Keyword retrieval for newly perceived events (no scoring), by their descriptions."""
        out: dict[str, Relevant] = {}
        for event in perceived:
            triple = (event.subject, event.predicate, event.object)
            out[event.description] = Relevant(
                curr_event=event,
                events=self.retrieve_relevant_events(*triple),
                thoughts=self.retrieve_relevant_thoughts(*triple),
            )
        return out

    def nodes(self) -> list[ConceptNode]:
        """All nodes, oldest first."""
        return sorted(self.id_to_node.values(), key=lambda n: node_number(n.node_id))

    # -- files -----------------------------------------------------------------------
    @classmethod
    def load(
        cls, folder: str | Path, *, embedder: Embedder | None = None, vectors: PersonaVectors | None = None
    ) -> AssociativeMemory:
        """Read ``folder`` (…/bootstrap_memory/associative_memory); missing files = empty."""
        folder = Path(folder)
        mem = cls(embedder=embedder, vectors=vectors)
        nodes = read_json(folder / NODES_FILE) if (folder / NODES_FILE).is_file() else {}
        for node_id in sorted(nodes, key=node_number):
            mem._register(ConceptNode.from_json(node_id, nodes[node_id]))
        if (folder / KW_STRENGTH_FILE).is_file():
            strength = read_json(folder / KW_STRENGTH_FILE) or {}
            for kind in mem.strengths:
                mem.strengths[kind] = dict(strength.get(f"kw_strength_{kind}") or {})
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
            {f"kw_strength_{kind}": strength for kind, strength in self.strengths.items()},
        )
        write_text_atomic(folder / EMBEDDINGS_FILE, self._vectors_text.text(self.embeddings))
