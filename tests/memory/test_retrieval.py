"""Scored retrieval (recency x importance x relevance) on nodes with chosen vectors."""

from __future__ import annotations

from datetime import timedelta

import pytest

from reverie.memory import AssociativeMemory
from reverie.memory.retrieval import (
    RetrievalWeights,
    candidates,
    normalise,
    recency_scores,
    relevance_scores,
    retrieve_by_vectors,
)

from memory_helpers import T0, add

NOW = T0 + timedelta(hours=5)


@pytest.fixture(params=["numpy", "chroma"])
def memory(request, index) -> AssociativeMemory:
    """An empty memory, with or without its Chroma collection (both must rank the same)."""
    vectors = index.persona("Isabella Rodriguez") if request.param == "chroma" else None
    return AssociativeMemory(vectors=vectors)


def ids(nodes):
    return [n.description for n in nodes]


def test_relevance_orders_by_cosine(memory):
    add(memory, "far away thing", [0, 1, 0])
    add(memory, "very close thing", [1, 0.05, 0])
    add(memory, "half way thing", [1, 1, 0])
    got = retrieve_by_vectors(memory, {"q": [1, 0, 0]}, 3, now=NOW, weights=RetrievalWeights(0, 1, 0))
    assert ids(got["q"]) == ["very close thing", "half way thing", "far away thing"]


def test_importance_orders_by_poignancy(memory):
    for p in (2, 9, 5):
        add(memory, f"event of {p}", [1, 0, 0], poignancy=p)
    got = retrieve_by_vectors(memory, {"q": [1, 0, 0]}, 3, now=NOW)
    assert ids(got["q"]) == ["event of 9", "event of 5", "event of 2"]


def test_most_recently_accessed_scores_highest(memory):
    """The original ranked ascending and favoured the least recently accessed node."""
    old = add(memory, "old thing here", [1, 0, 0], minutes=0)
    new = add(memory, "new thing here", [1, 0, 0], minutes=60)
    mid = add(memory, "mid thing here", [1, 0, 0], minutes=30)
    old.last_accessed = T0 + timedelta(minutes=90)  # accessed last, though created first
    assert recency_scores(candidates(memory), 0.5) == [0.5, 0.25, 0.125]
    got = retrieve_by_vectors(memory, {"q": [1, 0, 0]}, 3, now=NOW)
    assert ids(got["q"]) == ["old thing here", "new thing here", "mid thing here"]
    assert {n.last_accessed for n in (old, new, mid)} == {NOW}


def test_combined_score_and_weights(memory):
    """Hand-computed: 0.5*recency + 3*relevance + 2*importance, each normalised."""
    a = add(memory, "a relevant one", [1, 0, 0], poignancy=1, minutes=0)  # rel 1, imp 0, rec 0
    b = add(memory, "b important one", [0, 1, 0], poignancy=10, minutes=10)  # rel 0, imp 1, rec 1/3
    c = add(memory, "c recent one", [0, 1, 0], poignancy=1, minutes=20)  # rel 0, imp 0, rec 1
    got = retrieve_by_vectors(memory, {"q": [1, 0, 0]}, 3, now=NOW, weights=RetrievalWeights(recency_decay=0.5))
    assert got["q"] == [a, b, c]  # 3.0 > 2.17 > 0.5
    # Scratch weights scale the components: a heavy recency weight puts the newest first.
    for node in (a, b, c):
        node.last_accessed = node.created
    got = retrieve_by_vectors(
        memory, {"q": [1, 0, 0]}, 1, now=NOW, weights=RetrievalWeights(recency_w=10, recency_decay=0.5)
    )
    assert got["q"] == [c]


def test_candidates_skip_idle_and_chats_and_limit_n(memory):
    add(memory, "bed is idle", [1, 0, 0], poignancy=10)
    add(memory, "a chat about coffee", [1, 0, 0], kind="chat")
    thought = add(memory, "a thought on coffee", [1, 0, 0], kind="thought")
    event = add(memory, "an event with coffee", [0.9, 0.1, 0], minutes=-5)
    got = retrieve_by_vectors(memory, {"q": [1, 0, 0]}, 1, now=NOW)
    assert got["q"] == [thought]
    assert event.last_accessed != NOW  # only the returned nodes are touched
    assert {n.description for n in candidates(memory)} == {"a thought on coffee", "an event with coffee"}


def test_each_focal_point_sees_the_previous_access(memory):
    first = add(memory, "first thing here", [1, 0, 0], minutes=0)
    second = add(memory, "second thing here", [1, 0, 0], minutes=10)
    got = retrieve_by_vectors(memory, {"one": [1, 0, 0], "two": [1, 0, 0]}, 1, now=NOW)
    assert got["one"] == [second]
    # 'second' now has the newest access time; it wins again for the next focal point.
    assert got["two"] == [second] and first.last_accessed == first.created


def test_chroma_similarities_match_numpy(index):
    """Relevance asked of Chroma equals the exact cosine of the stored vectors."""
    with_chroma = AssociativeMemory(vectors=index.persona("Klaus Mueller"))
    plain = AssociativeMemory()
    vectors = [[1, 2, 3], [-1, 0.5, 2], [0, 0, 1], [3, 1, 0]]
    for k, v in enumerate(vectors):
        add(with_chroma, f"node number {k}", v)
        add(plain, f"node number {k}", v)
    query = [0.3, -0.2, 1.0]
    got = relevance_scores(with_chroma, candidates(with_chroma), query)
    want = relevance_scores(plain, candidates(plain), query)
    assert got == pytest.approx(want, abs=1e-5)
    # Chroma itself answered for every candidate (no fallback to numpy needed).
    ranked = with_chroma.vectors.query(query, n=10, ids=[n.node_id for n in candidates(with_chroma)])
    assert len(ranked) == 4 and list(ranked.values()) == sorted(ranked.values(), reverse=True)
    assert len(set(round(x, 4) for x in got)) == 4


def test_normalise():
    assert normalise([2, 4, 3]) == [0, 1, 0.5]
    assert normalise([7, 7]) == [0.5, 0.5]
    assert normalise([]) == []


def test_index_is_synced_with_the_memory_files_on_load(index, tmp_path):
    """A store left by a killed run (extra or changed nodes, another vector size) is repaired."""
    mem = AssociativeMemory(vectors=index.persona("Maria Lopez"))
    add(mem, "studying physics today", [1, 0, 0])
    add(mem, "streaming a game tonight", [0, 1, 0])
    mem.save(tmp_path / "am")
    col = index.persona("Maria Lopez")
    col.upsert("node_9", [0, 0, 1], None, "a node the files never saw")
    col.upsert("node_1", [0, 0, 1], None, "changed after the save")
    again = AssociativeMemory.load(tmp_path / "am", vectors=col)
    assert sorted(col.ids()) == ["node_1", "node_2"]
    assert col.query([1, 0, 0], n=1) == {"node_1": pytest.approx(1.0, abs=1e-6)}
    # Files written with vectors of another size replace the collection.
    emb = tmp_path / "am" / "embeddings.json"
    emb.write_text(emb.read_text().replace("]", ", 0.0]"))
    again = AssociativeMemory.load(tmp_path / "am", vectors=col)
    assert col.dimension() == 4 and len(again.embeddings["studying physics today"]) == 4


@pytest.mark.slow
def test_persona_memory_retrieves_by_meaning(base_personas, tmp_path, index):
    """Real embeddings and Chroma: the memory about coffee answers a question about coffee."""
    from reverie.memory import Embedder, PersonaMemory
    from reverie.memory.associative import NewMemory
    from reverie.memory.concept_node import NodeKind
    from reverie.memory.event import Event

    memory = PersonaMemory.load(base_personas["Isabella Rodriguez"], embedder=Embedder(), index=index)
    memory.scratch.curr_time = NOW
    a_mem = memory.associative
    for k, text in enumerate(
        [
            "Isabella is brewing coffee for customers",
            "Isabella is cleaning the piano",
            "Isabella is sleeping in her bed",
            "Klaus is writing a research paper",
        ]
    ):
        a_mem.add(
            NewMemory(
                kind=NodeKind.EVENT,
                created=T0 + timedelta(minutes=k),
                event=Event("Isabella Rodriguez", "is", "busy"),
                description=text,
                keywords=["Isabella Rodriguez"],
                poignancy=5,
                embedding_key=text,
            )
        )
    got = memory.retrieve(["Who makes the espresso drinks?", "Which academic work is going on?"], n=1)
    assert ids(got["Who makes the espresso drinks?"]) == ["Isabella is brewing coffee for customers"]
    assert ids(got["Which academic work is going on?"]) == ["Klaus is writing a research paper"]
    assert a_mem.vectors.count() == 4
