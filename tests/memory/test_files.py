"""The original bootstrap_memory files load and save back in the same format."""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from reverie.memory import AssociativeMemory, PersonaMemory, Scratch
from reverie.memory.associative import NewMemory
from reverie.memory.concept_node import ConceptNode, NodeKind
from reverie.memory.event import Event

from memory_helpers import PERSONAS

FILES = (
    "scratch.json",
    "spatial_memory.json",
    "associative_memory/nodes.json",
    "associative_memory/kw_strength.json",
    "associative_memory/embeddings.json",
)


def read(path):
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", PERSONAS)
def test_base_persona_round_trip(base_personas, tmp_path, index, name):
    src = base_personas[name]
    memory = PersonaMemory.load(src, index=index)
    assert memory.scratch.name == name
    original = read(src / "scratch.json")
    assert memory.scratch.vision_r == 8 and memory.scratch.recency_decay == original["recency_decay"]
    assert memory.scratch.curr_time is None and memory.scratch.act_address is None
    assert memory.spatial.sectors("the Ville")
    memory.save(tmp_path / "out")
    for rel in FILES:
        assert read(tmp_path / "out" / rel) == read(src / rel), rel
    # Key order of scratch.json is the original's, 47 keys.
    saved = read(tmp_path / "out" / "scratch.json")
    assert list(saved) == list(read(src / "scratch.json")) and len(saved) == 47


def test_scratch_keeps_curr_time_when_no_action(base_personas):
    """The original reset curr_time to null whenever act_start_time was null."""
    data = read(base_personas["Maria Lopez"] / "scratch.json")
    data["curr_time"] = "February 14, 2023, 00:02:20"
    data["curr_tile"] = [72, 14]
    scratch = Scratch.from_json(data)
    assert scratch.curr_time == datetime(2023, 2, 14, 0, 2, 20)
    assert scratch.act_start_time is None
    assert scratch.to_json() == data


def quirky_nodes() -> dict:
    """A nodes.json with what the shipped runs contain, newest first."""

    def node(n, type_count, kind, desc, filling, keywords, expiration=None, depth=0):
        return {
            "node_count": n,
            "type_count": type_count,
            "type": kind,
            "depth": depth,
            "created": f"2023-02-13 0{n}:00:00",
            "expiration": expiration,
            "subject": "Isabella Rodriguez",
            "predicate": "is",
            "object": desc.split()[-1],
            "description": desc,
            "embedding_key": desc,
            "poignancy": n,
            "keywords": keywords,
            "filling": filling,
        }

    nodes = [
        node(1, 1, "event", "Isabella Rodriguez is sleeping", [], ["Isabella Rodriguez", "sleeping"]),
        node(
            2,
            1,
            "chat",
            "conversing about the party",
            [["Isabella Rodriguez", "Hi"], ["Klaus Mueller", "Hello"]],
            ["Isabella Rodriguez", "Klaus Mueller"],
        ),
        node(3, 2, "event", "Isabella Rodriguez is chatting", ["node_2"], ["Isabella Rodriguez", "chatting"]),
        node(4, 1, "thought", "Isabella likes the cafe", "node_1", ["cafe"], "2023-03-15 04:00:00", 1),
        node(5, 2, "thought", "Isabella plans a party", None, ["party"], "2023-03-15 05:00:00", 1),
        node(6, 2, "chat", "conversing about coffee", [["Klaus Mueller", "Coffee?"]], ["Klaus Mueller"]),
    ]
    return {f"node_{n['node_count']}": n for n in reversed(nodes)}


@pytest.mark.slow
def test_original_quirks_load(tmp_path, index):
    """Bare-string and null filling, capitalised keywords, 1536-d vectors (re-embedded), missing vectors."""
    folder = tmp_path / "associative_memory"
    folder.mkdir()
    nodes = quirky_nodes()
    (folder / "nodes.json").write_text(json.dumps(nodes))
    (folder / "kw_strength.json").write_text(
        json.dumps({"kw_strength_event": {"sleeping": 1}, "kw_strength_thought": {}})
    )
    old = {n["embedding_key"]: [0.01] * 1536 for n in nodes.values() if n["node_count"] != 5}
    (folder / "embeddings.json").write_text(json.dumps(old))

    from reverie.memory import Embedder

    embedder = Embedder()
    mem = AssociativeMemory.load(folder, embedder=embedder, vectors=index.persona("Isabella Rodriguez"))
    assert [n.node_id for n in mem.seq_event] == ["node_3", "node_1"]
    assert [n.node_id for n in mem.seq_thought] == ["node_5", "node_4"]
    assert mem.id_to_node["node_4"].filling == ["node_1"]
    assert mem.id_to_node["node_5"].filling == []
    assert {len(v) for v in mem.embeddings.values()} == {384}
    assert set(mem.embeddings) == {n["embedding_key"] for n in nodes.values()}
    assert mem.strengths[NodeKind.EVENT] == {"sleeping": 1}  # taken from the file, not recounted
    # Keyword lookup is case-insensitive: a persona name finds her events.
    assert [n.node_id for n in mem.retrieve_relevant_events("Isabella Rodriguez", "is", "x")] == ["node_3", "node_1"]
    # The newest chat with Klaus, not the oldest.
    assert mem.get_last_chat("Klaus Mueller").node_id == "node_6"
    assert mem.get_last_chat("Nobody") is None
    # Every node is in Chroma with our vectors.
    assert sorted(mem.vectors.ids()) == sorted(nodes)
    assert mem.vectors.dimension() == 384

    mem.save(tmp_path / "out")
    saved = read(tmp_path / "out" / "nodes.json")
    assert list(saved) == list(nodes)  # newest first
    assert saved["node_4"]["filling"] == ["node_1"]
    again = AssociativeMemory.load(tmp_path / "out", embedder=embedder)
    assert again.embeddings == mem.embeddings
    assert {k: v.to_json() for k, v in again.id_to_node.items()} == {k: v.to_json() for k, v in mem.id_to_node.items()}


def _remember(
    mem: AssociativeMemory, kind: NodeKind, spo: tuple[str, str, str], description: str, **fields
) -> ConceptNode:
    """A node of ``kind`` at 9 am with the event ``spo``; its keywords, poignancy, embedding key,
    vector and filling in ``fields`` (the embedding key is the description unless given)."""
    fields.setdefault("embedding_key", description)
    return mem.add(
        NewMemory(kind=kind, created=datetime(2023, 2, 13, 9), event=Event(*spo), description=description, **fields)
    )


def test_add_nodes_like_the_original(index):
    mem = AssociativeMemory(vectors=index.persona("Klaus Mueller"))
    e1 = _remember(
        mem,
        NodeKind.EVENT,
        ("Klaus Mueller", "is", "reading"),
        "Klaus Mueller is reading (a paper on gentrification)",
        keywords=["Klaus Mueller", "reading"],
        poignancy=4,
        embedding_key="a paper on gentrification",
        embedding=[1.0, 0.0],
    )
    assert e1.node_id == "node_1" and e1.type_count == 1
    assert e1.description == "Klaus Mueller is a paper on gentrification"
    desk = ("the Ville:library:desk", "is", "idle")
    idle = _remember(
        mem, NodeKind.EVENT, desk, "desk is idle", keywords=["desk", "idle"], poignancy=1, embedding=[0.0, 1.0]
    )
    chat = _remember(
        mem,
        NodeKind.CHAT,
        ("Klaus Mueller", "chat with", "Maria Lopez"),
        "conversing about research",
        keywords=["Klaus Mueller", "Maria Lopez"],
        poignancy=6,
        filling=[["Klaus Mueller", "Hi"]],
        embedding=[0.5, 0.5],
    )
    thought = _remember(
        mem,
        NodeKind.THOUGHT,
        ("Klaus Mueller", "likes", "research"),
        "Klaus likes research",
        keywords=["Klaus Mueller", "likes", "research"],
        poignancy=7,
        filling=[e1.node_id, chat.node_id],
        embedding=[0.7, 0.7],
    )
    deeper = _remember(
        mem,
        NodeKind.THOUGHT,
        ("Klaus Mueller", "is", "curious"),
        "Klaus is curious",
        keywords=["Klaus Mueller"],
        poignancy=5,
        filling=[thought.node_id],
        embedding=[0.1, 0.9],
    )
    assert [n.node_id for n in (idle, chat, thought, deeper)] == ["node_2", "node_3", "node_4", "node_5"]
    assert (thought.depth, deeper.depth, chat.type_count, deeper.type_count) == (1, 2, 1, 2)
    assert mem.seq_event == [idle, e1] and mem.seq_thought == [deeper, thought]
    assert mem.kw_to_event["klaus mueller"] == [e1] and "Klaus Mueller" not in mem.kw_to_event
    # "is idle" events do not strengthen keywords.
    assert mem.strengths[NodeKind.EVENT] == {"klaus mueller": 1, "reading": 1}
    assert mem.get_summarized_latest_events(1) == {("the Ville:library:desk", "is", "idle")}
    assert mem.vectors.count() == 0  # new vectors go to Chroma in one batch, before a query or on save
    mem.flush_index()
    assert mem.vectors.count() == 5 and mem.vectors.documents()["node_1"] == "a paper on gentrification"
    # Keyword retrieval for perceived events: the object's last address segment matches too.
    got = mem.retrieve_events_thoughts([idle])
    assert got["desk is idle"]["events"] == [idle]
    got = mem.retrieve_events_thoughts([e1])[e1.description]
    assert got["events"] == [e1] and got["thoughts"] == [deeper, thought]


def _klaus_is(mem: AssociativeMemory, doing: str, vector: list[float], *, poignancy: int) -> ConceptNode:
    """The event "Klaus is <doing>" at 9 am, with a chosen vector."""
    return _remember(
        mem,
        NodeKind.EVENT,
        ("Klaus Mueller", "is", doing),
        f"Klaus is {doing}",
        keywords=["Klaus Mueller"],
        poignancy=poignancy,
        embedding=vector,
    )


def _stored_poignancy(mem: AssociativeMemory, node_id: str):
    return mem.vectors.collection.get(ids=[node_id], include=["metadatas"])["metadatas"][0]["poignancy"]


def test_a_score_asked_after_the_node_was_indexed_reaches_chroma_at_the_next_flush(index):
    mem = AssociativeMemory(vectors=index.persona("Klaus Mueller"))
    waiting = _klaus_is(mem, "reading", [1.0, 0.0], poignancy=4)
    mem.set_poignancy(waiting, 7)  # not in Chroma yet: written once, with its score
    mem.flush_index()
    assert _stored_poignancy(mem, waiting.node_id) == 7
    mem.set_poignancy(waiting, 2)  # already in Chroma (a save came first): written again
    assert waiting.poignancy == 2 and _stored_poignancy(mem, waiting.node_id) == 7
    mem.flush_index()
    assert _stored_poignancy(mem, waiting.node_id) == 2 and mem.vectors.count() == 1


def test_a_score_asked_after_a_save_is_in_the_next_save(index, tmp_path):
    """Saves encode only what changed since the last one: a rating that comes after a save
    (a deferred poignancy) must still reach the file, beside a node added since."""
    mem = AssociativeMemory(vectors=index.persona("Klaus Mueller"))
    waiting = _klaus_is(mem, "reading", [1.0, 0.0], poignancy=4)
    mem.save(tmp_path)
    mem.set_poignancy(waiting, 8)
    _klaus_is(mem, "writing", [0.0, 1.0], poignancy=3)
    mem.save(tmp_path)
    nodes = read(tmp_path / "nodes.json")
    assert [nodes[n]["poignancy"] for n in ("node_1", "node_2")] == [8, 3]
    assert read(tmp_path / "embeddings.json") == {"Klaus is reading": [1.0, 0.0], "Klaus is writing": [0.0, 1.0]}
    loaded = AssociativeMemory.load(tmp_path, vectors=index.persona("Klaus Mueller"))
    assert loaded.id_to_node["node_1"].poignancy == 8


def test_missing_scratch_is_a_user_error(tmp_path):
    from reverie.errors import UserError

    with pytest.raises(UserError, match="has no scratch.json"):
        PersonaMemory.load(tmp_path)


def test_a_node_without_its_created_time_is_named(tmp_path):
    """Every node has a creation time (recency reads it): a file without one fails at load, naming the node."""
    nodes = quirky_nodes()
    nodes["node_3"]["created"] = None
    (tmp_path / "nodes.json").write_text(json.dumps(nodes))
    with pytest.raises(ValueError) as failed:
        AssociativeMemory.load(tmp_path)
    assert str(failed.value) == "node_3: no 'created' time"


def test_a_scratch_without_a_name_is_a_user_error_when_its_vectors_are_kept(tmp_path, index):
    from reverie.errors import UserError

    (tmp_path / "scratch.json").write_text("{}")
    with pytest.raises(UserError) as failed:
        PersonaMemory.load(tmp_path, index=index)
    assert "scratch.json' has no name" in str(failed.value)


def test_a_new_memory_without_a_whole_triple_is_refused_and_nothing_is_stored():
    """A node's subject, predicate and object are texts (retrieval looks them up as keywords): a
    memory missing one fails at ``add``, naming the memory, and the stream stays as it was."""
    mem = AssociativeMemory()
    with pytest.raises(ValueError) as failed:
        _remember(
            mem,
            NodeKind.EVENT,
            ("Klaus Mueller", None, None),
            "Klaus Mueller",
            keywords=[],
            poignancy=1,
            embedding=[1.0],
        )
    assert "'Klaus Mueller'" in str(failed.value) and "whole triple" in str(failed.value)
    assert mem.nodes() == [] and mem.embeddings == {}


def test_a_scratch_without_its_time_says_so_when_the_schedule_is_read(base_personas):
    """The schedule's index is read at the persona's own time: a scratch that has none fails
    with a line naming the persona, not with an attribute error from inside."""
    scratch = Scratch.from_json(read(base_personas["Maria Lopez"] / "scratch.json"))
    assert scratch.curr_time is None
    with pytest.raises(ValueError) as failed:
        scratch.get_f_daily_schedule_index()
    assert str(failed.value) == "scratch of Maria Lopez: no curr_time to read the day's schedule at"


def test_a_scratch_names_the_persona_and_the_field_cognition_finds_unset():
    """Cognition reads the name, clock, tile and chat partner through the scratch: one that is
    unset fails with a line naming the persona and the field, not with an error from deeper in."""
    scratch = Scratch(name="Maria Lopez")
    for read, key in (
        (scratch.now, "curr_time"),
        (scratch.here, "curr_tile"),
        (scratch.next_tile, "curr_tile"),
        (scratch.chat_partner, "chatting_with"),
    ):
        with pytest.raises(ValueError) as failed:
            read()
        assert str(failed.value) == f"scratch of Maria Lopez: no {key}"
    with pytest.raises(ValueError) as failed:
        Scratch(curr_time=datetime(2023, 2, 13, 9, 0)).persona_name()
    assert str(failed.value) == "scratch of an unnamed persona: no name"
    now = datetime(2023, 2, 13, 9, 0)
    placed = Scratch(name="Maria Lopez", curr_time=now, curr_tile=[3, 4], chatting_with="Klaus Mueller")
    assert (placed.persona_name(), placed.now(), placed.here(), placed.chat_partner()) == (
        "Maria Lopez",
        now,
        (3, 4),
        "Klaus Mueller",
    )
    placed.set_path([(3, 5)])
    assert placed.next_tile() == (3, 5) and placed.next_tile() == (3, 4)  # the path, then where it stands
