"""The memory vectors of one simulation in Chroma: one collection per persona.

Chroma never embeds anything here: every vector comes from our :class:`Embedder`
(``embedding_function=None``), telemetry is off, and collections use cosine distance.
The store is a folder inside the simulation (``[chroma] persistent``) or a Chroma
server (``[chroma] mode = "server"``), where collection names carry the simulation name.

A Chroma server that goes away mid-run is :class:`ChromaLost`: the index remembers it
(``VectorIndex.lost``), memory falls back to its own vectors until the step ends, and the run
saves and stops (the collections are rebuilt from the memory files when it resumes).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from reverie.engine_time import timed
from reverie.errors import UserError

if TYPE_CHECKING:
    from chromadb.config import Settings as ChromaSettings

    from reverie.config import Settings

_P = ParamSpec("_P")
_R = TypeVar("_R")
# Chroma's metadata: a node's scalar fields (str/int/float/bool) by name.
Metadata = dict[str, Any]

_SLUG = re.compile(r"[^a-z0-9]+")
_UPSERT_BATCH = 1000


def collection_name(persona: str, prefix: str = "") -> str:
    """A valid Chroma collection name for a persona (3-63 chars, stable, unique per name)."""
    slug = _SLUG.sub("_", f"{prefix} {persona}".lower()).strip("_")[:45] or "persona"
    digest = hashlib.sha1(f"{prefix}\0{persona}".encode()).hexdigest()[:8]
    return f"{slug}-{digest}"


def _chroma_settings() -> ChromaSettings:
    from chromadb.config import Settings as ChromaSettings

    return ChromaSettings(anonymized_telemetry=False, allow_reset=False)


def _clean_metadata(metadata: Metadata | None) -> Metadata:
    """Chroma metadata values must be str/int/float/bool; drop the rest."""
    out: Metadata = {}
    for key, value in (metadata or {}).items():
        if isinstance(value, (str, int, float, bool)):
            out[key] = value
    return out


class ChromaLost(UserError):
    """The Chroma server stopped answering during a run."""


def _connection_failure(exc: BaseException) -> bool:
    import httpx

    return isinstance(exc, (httpx.TransportError, ConnectionError, TimeoutError))


class PersonaVectors:
    """One persona's collection: node id -> vector (+ metadata, document = embedding key)."""

    # The Chroma client and collection are typed Any: chromadb's request types are not carried into the engine.
    def __init__(self, client: Any, name: str, metadata: Metadata, index: VectorIndex | None = None):
        self._client = client
        self._metadata = metadata
        self._index = index
        self.collection: Any = self._guarded(self._open, name)

    def _guarded(self, call: Callable[_P, _R], *args: _P.args, **kwargs: _P.kwargs) -> _R:
        """``call(...)``; a Chroma server that does not answer becomes :class:`ChromaLost`."""
        try:
            with timed("chroma"):
                return call(*args, **kwargs)
        except Exception as exc:
            if self._index is None or self._index.mode != "server" or not _connection_failure(exc):
                raise
            raise self._index.went_away(exc) from None

    def _open(self, name: str) -> Any:
        return self._client.get_or_create_collection(name=name, embedding_function=None, metadata=self._metadata)

    def reset(self) -> None:
        """Empty the collection (dropping it, so vectors of another size fit afterwards)."""
        name = self.collection.name
        self._guarded(self._client.delete_collection, name)
        self.collection = self._guarded(self._open, name)

    @property
    def name(self) -> str:
        return str(self.collection.name)

    def count(self) -> int:
        return int(self._guarded(self.collection.count))

    def upsert(
        self, node_id: str, vector: Sequence[float], metadata: Metadata | None = None, document: str | None = None
    ) -> None:
        self.upsert_many([node_id], [vector], [metadata], [document])

    def upsert_many(
        self,
        ids: list[str],
        vectors: Sequence[Sequence[float]],
        metadatas: Sequence[Metadata | None] | None = None,
        documents: Sequence[str | None] | None = None,
    ) -> None:
        metadatas = metadatas or [None] * len(ids)
        documents = documents or [None] * len(ids)
        for start in range(0, len(ids), _UPSERT_BATCH):
            end = start + _UPSERT_BATCH
            kwargs: dict[str, Any] = {
                "ids": list(ids[start:end]),
                "embeddings": [list(map(float, v)) for v in vectors[start:end]],
            }
            metas = [_clean_metadata(m) for m in metadatas[start:end]]
            if any(metas):
                kwargs["metadatas"] = [m or {"_": 0} for m in metas]
            docs = documents[start:end]
            if all(d is not None for d in docs):
                kwargs["documents"] = list(docs)
            self._guarded(self.collection.upsert, **kwargs)

    def ids(self) -> list[str]:
        return list(self._guarded(self.collection.get, include=[])["ids"])

    def documents(self) -> dict[str, str | None]:
        """node id -> stored document (the embedding key)."""
        got = self._guarded(self.collection.get, include=["documents"])
        return dict(zip(got["ids"], got["documents"] or [None] * len(got["ids"])))

    def delete(self, ids: Iterable[str]) -> None:
        ids = list(ids)
        if ids:
            self._guarded(self.collection.delete, ids=ids)

    def dimension(self) -> int | None:
        """The length of the stored vectors (None when empty)."""
        got = self._guarded(self.collection.get, limit=1, include=["embeddings"])
        embeddings = got.get("embeddings")
        if embeddings is None or len(embeddings) == 0:
            return None
        return len(embeddings[0])

    def query(self, vector: Sequence[float], n: int, ids: Sequence[str] | None = None) -> dict[str, float]:
        """The ``n`` nearest nodes (optionally among ``ids``) -> cosine similarity, best first."""
        if ids is not None:
            ids = list(ids)
            if not ids:
                return {}
        n = min(n, len(ids) if ids is not None else self.count())
        if n <= 0:
            return {}
        kwargs: dict[str, Any] = {
            "query_embeddings": [list(map(float, vector))],
            "n_results": n,
            "include": ["distances"],
        }
        if ids is not None:
            kwargs["ids"] = ids
        result = self._guarded(self.collection.query, **kwargs)
        # Cosine space: distance = 1 - cosine similarity.
        return {node_id: 1.0 - float(dist) for node_id, dist in zip(result["ids"][0], result["distances"][0])}


class VectorIndex:
    """Chroma store of one simulation; ``persona(name)`` gives that persona's collection."""

    def __init__(self, settings: Settings, sim_dir: str | Path | None = None, *, sim_code: str | None = None):
        chroma = settings.chroma
        self.mode = chroma.mode
        self.sim_code = sim_code or (Path(sim_dir).name if sim_dir else "")
        self._collections: dict[str, PersonaVectors] = {}
        self.lost: ChromaLost | None = None  # set once the server stopped answering
        self._where = f"{chroma.host}:{chroma.port}"
        if self.mode == "server":
            self.path: Path | None = None
            self._prefix = self.sim_code
            self.client = self._connect_server(chroma.host, chroma.port)
        else:
            path = Path(chroma.persistent)
            if not path.is_absolute():
                if sim_dir is None:
                    raise ValueError("a persistent Chroma store with a relative path needs the simulation folder")
                path = Path(sim_dir) / path
            self.path = path
            self._prefix = ""
            self.client = self._open_persistent(path)

    @staticmethod
    def _open_persistent(path: Path) -> Any:
        import chromadb

        hint = "set [chroma] persistent to a writable folder"
        try:
            path.mkdir(parents=True, exist_ok=True)
            probe = path / ".write-test"
            probe.write_text("ok", encoding="utf-8")
            probe.unlink()
        except OSError as exc:
            raise UserError(f"Chroma folder '{path}' is not writable ({exc.strerror or exc}) — {hint}") from None
        try:
            return chromadb.PersistentClient(path=str(path), settings=_chroma_settings())
        except Exception as exc:  # chromadb raises its own types for a broken folder
            raise UserError(
                f"cannot open the Chroma store in '{path}' ({exc.__class__.__name__}) — delete that folder "
                "(it is rebuilt from the memory files) or set [chroma] persistent elsewhere"
            ) from None

    @staticmethod
    def _connect_server(host: str, port: int) -> Any:
        import chromadb

        try:
            client = chromadb.HttpClient(host=host, port=port, settings=_chroma_settings())
            client.heartbeat()
            return client
        except Exception as exc:
            raise UserError(
                f"cannot reach the Chroma server at {host}:{port} ({exc.__class__.__name__}) — "
                'start it (chroma run --path DIR) or set [chroma] mode = "persistent"'
            ) from None

    def persona(self, name: str) -> PersonaVectors:
        """The persona's collection (created on first use, cosine space, no embedding function)."""
        if name not in self._collections:
            self._collections[name] = PersonaVectors(
                self.client, collection_name(name, self._prefix), {"hnsw:space": "cosine", "persona": name}, self
            )
        return self._collections[name]

    def went_away(self, exc: BaseException) -> ChromaLost:
        """The error for a server that stopped answering (remembered in ``lost``)."""
        if self.lost is None:
            self.lost = ChromaLost(
                f"[chroma] the Chroma server at {self._where} stopped answering ({exc.__class__.__name__}) — "
                "the run was saved; start the server again (chroma run --path DIR), then continue with run --resume"
            )
        return self.lost

    def check(self) -> ChromaLost | None:
        """A server that no longer answers (None: fine, or a folder store)."""
        if self.mode == "server" and self.lost is None:
            try:
                self.client.heartbeat()
            except Exception as exc:
                if not _connection_failure(exc):
                    raise
                self.went_away(exc)
        return self.lost
