"""One entry of a persona's associative memory: an event, a thought or a chat.

The fields and the ``nodes.json`` layout are the original's, so saved memories carry
over in both directions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from reverie.memory.event import Event

NODE_TIME_FMT = "%Y-%m-%d %H:%M:%S"  # "created" / "expiration" in nodes.json


class NodeKind(StrEnum):
    """What a node remembers; its value is the ``type`` field of ``nodes.json``."""

    EVENT = "event"  # something perceived
    THOUGHT = "thought"  # a reflection or a plan
    CHAT = "chat"  # a conversation, its transcript kept


def node_number(node_id: str) -> int:
    """'node_12' -> 12."""
    return int(str(node_id).rsplit("_", 1)[-1])


NodeJson = dict[str, Any]  # one node of nodes.json, keyed as the original writes it


def _parse(text: str | None) -> datetime | None:
    return datetime.strptime(text, NODE_TIME_FMT) if text else None


def _created(node_id: str, text: str | None) -> datetime:
    """A node's creation time, which every node has (recency and the day's memories read it)."""
    when = _parse(text)
    if when is None:
        raise ValueError(f"{node_id}: no 'created' time")
    return when


def _format(when: datetime | None) -> str | None:
    return when.strftime(NODE_TIME_FMT) if when else None


def normalise_filling(filling: Any) -> list[Any]:
    """The list a node's ``filling`` means; the original files also hold null and bare ids.

    One thought in a shipped file has the bare string ``"node_1"`` instead of ``["node_1"]``.
    """
    if filling is None:
        return []
    if isinstance(filling, str):
        return [filling] if filling else []
    return list(filling)


@dataclass(eq=False)
class ConceptNode:
    node_id: str
    node_count: int
    type_count: int
    type: NodeKind
    depth: int
    created: datetime
    expiration: datetime | None
    subject: str
    predicate: str
    object: str
    description: str
    embedding_key: str
    poignancy: int
    keywords: set[str]
    filling: list[Any] = field(default_factory=list)
    last_accessed: datetime | None = None

    def __post_init__(self) -> None:
        if self.last_accessed is None:
            self.last_accessed = self.created

    def spo(self) -> Event:
        """The (subject, predicate, object) triple."""
        return Event(self.subject, self.predicate, self.object)

    def evidence_ids(self) -> list[str]:
        """Node ids a thought rests on, or the chat node an event points to."""
        return [f for f in self.filling if isinstance(f, str)]

    # -- nodes.json ------------------------------------------------------------------
    def to_json(self) -> NodeJson:
        return {
            "node_count": self.node_count,
            "type_count": self.type_count,
            "type": self.type.value,
            "depth": self.depth,
            "created": _format(self.created),
            "expiration": _format(self.expiration),
            "subject": self.subject,
            "predicate": self.predicate,
            "object": self.object,
            "description": self.description,
            "embedding_key": self.embedding_key,
            "poignancy": self.poignancy,
            "keywords": sorted(self.keywords),
            "filling": list(self.filling),  # a copy: a saved value is compared with the next one
        }

    @classmethod
    def from_json(cls, node_id: str, data: NodeJson) -> ConceptNode:
        node_type = data.get("type", NodeKind.EVENT.value)
        if node_type not in tuple(NodeKind):
            raise ValueError(f"{node_id}: unknown node type {node_type!r}")
        return cls(
            node_id=node_id,
            node_count=int(data.get("node_count", node_number(node_id))),
            type_count=int(data.get("type_count", 0)),
            type=NodeKind(node_type),
            depth=int(data.get("depth") or 0),
            created=_created(node_id, data.get("created")),
            expiration=_parse(data.get("expiration")),
            subject=data.get("subject") or "",
            predicate=data.get("predicate") or "",
            object=data.get("object") or "",
            description=data.get("description") or "",
            embedding_key=data.get("embedding_key") or data.get("description") or "",
            poignancy=int(data["poignancy"]) if data.get("poignancy") is not None else 1,
            keywords=set(data.get("keywords") or []),
            # Chats keep the transcript [[speaker, utterance], ...]; the rest are id lists.
            filling=(data.get("filling") or [])
            if node_type == NodeKind.CHAT
            else normalise_filling(data.get("filling")),
        )
