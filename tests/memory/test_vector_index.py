"""The Chroma store of a simulation: real persistent folders, reopened from another process."""

from __future__ import annotations

import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.config import Settings
from reverie.errors import UserError
from reverie.memory import VectorIndex
from reverie.memory.vector_index import collection_name


def test_store_reopens_with_its_data(tmp_path):
    """Vectors written by one process are found by the next one (real files on disk)."""
    sim = tmp_path / "my_sim"
    script = textwrap.dedent(f"""
        from reverie.config import Settings
        from reverie.memory import VectorIndex
        index = VectorIndex(Settings(), {str(sim)!r})
        col = index.persona("Isabella Rodriguez")
        col.upsert("node_1", [1.0, 0.0, 0.0], {{"type": "event", "poignancy": 3, "none": None}}, "making coffee")
        col.upsert_many(["node_2", "node_3"], [[0.0, 1.0, 0.0], [0.7, 0.7, 0.0]])
        index.persona("Klaus Mueller").upsert("node_1", [0.0, 0.0, 1.0])
    """)
    subprocess.run([sys.executable, "-c", script], check=True, cwd=PROJECT_ROOT, timeout=300)
    assert (sim / "chroma").is_dir()

    index = VectorIndex(Settings(), sim)
    col = index.persona("Isabella Rodriguez")
    assert sorted(col.ids()) == ["node_1", "node_2", "node_3"]
    assert col.documents()["node_1"] == "making coffee"
    assert col.dimension() == 3
    sims = col.query([1.0, 0.1, 0.0], n=3)
    assert list(sims) == ["node_1", "node_3", "node_2"]
    assert sims["node_1"] == pytest.approx(0.995, abs=1e-3)
    # Restricted to a subset of ids.
    assert list(col.query([1.0, 0.0, 0.0], n=5, ids=["node_2", "node_3"])) == ["node_3", "node_2"]
    assert index.persona("Klaus Mueller").count() == 1


def test_collection_has_no_embedding_function_and_cosine_space(index):
    col = index.persona("Maria Lopez")
    assert col.collection.metadata["hnsw:space"] == "cosine"
    with pytest.raises(Exception):
        col.collection.add(ids=["x"], documents=["text without a vector"])  # Chroma must not embed


def test_reset_accepts_another_dimension(index):
    col = index.persona("Maria Lopez")
    col.upsert("node_1", [1.0, 0.0])
    col.reset()
    col.upsert("node_1", [1.0, 0.0, 0.0, 0.0])
    assert col.dimension() == 4


def test_collection_names_are_valid_and_distinct():
    names = {collection_name(n) for n in ("Isabella Rodriguez", "isabella rodriguez", "Ã©", "A" * 200)}
    assert len(names) == 4
    for name in names:
        assert 3 <= len(name) <= 63 and name[0].isalnum() and name[-1].isalnum()


def test_unwritable_folder_is_one_line_user_error(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    settings = Settings()
    settings.chroma.persistent = str(blocker / "chroma")
    with pytest.raises(UserError) as err:
        VectorIndex(settings, tmp_path / "sim")
    assert "not writable" in str(err.value) and "\n" not in str(err.value)


def test_unreachable_server_is_one_line_user_error():
    settings = Settings()
    settings.chroma.mode = "server"
    settings.chroma.port = 9  # discard port: nothing listens
    with pytest.raises(UserError, match="Chroma server"):
        VectorIndex(settings, sim_code="x")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_chroma_server_mode(tmp_path):
    """A real `chroma run` server on loopback; collection names carry the simulation name."""
    port = _free_port()
    chroma_cli = Path(sys.executable).with_name("chroma")
    server = subprocess.Popen(
        [str(chroma_cli), "run", "--path", str(tmp_path / "db"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        settings = Settings()
        settings.chroma.mode = "server"
        settings.chroma.port = port
        deadline = time.monotonic() + 60
        while True:
            try:
                first = VectorIndex(settings, tmp_path / "sim_a")
                break
            except UserError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.5)
        second = VectorIndex(settings, tmp_path / "sim_b")
        first.persona("Isabella Rodriguez").upsert("node_1", [1.0, 0.0], {"type": "event"}, "making coffee")
        assert second.persona("Isabella Rodriguez").count() == 0  # another simulation, another collection
        got = first.persona("Isabella Rodriguez").query([1.0, 0.0], n=1)
        assert got == {"node_1": pytest.approx(1.0, abs=1e-6)}
        assert first.persona("Isabella Rodriguez").name.startswith("sim_a_isabella_rodriguez-")
        assert first.path is None
    finally:
        server.terminate()
        server.wait(timeout=30)
