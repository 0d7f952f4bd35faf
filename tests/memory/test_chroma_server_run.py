"""A run whose memory lives on a real `chroma run` server (loopback), and the server going away mid-run.

The model is a scripted fake (not a real model: every ask ends in its fail-safe), because
this is a failure path of the memory store; the personas, their memories, the embeddings
and Chroma are the real ones."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.llm import LLM
from reverie.llm.fake_model import FakeChatModel
from reverie.memory.vector_index import ChromaLost
from reverie.simulation.simulation import Simulation
from reverie.tasks.registry import product_tasks
from tests.loopback_server import free_port, loopback_server

BASE = "base_willow_creek"


def chroma(port_dir: Path, port: int, log: Path):
    cli = Path(sys.executable).with_name("chroma")
    return loopback_server(
        lambda _: [str(cli), "run", "--path", str(port_dir), "--host", "127.0.0.1", "--port", str(port)],
        lambda _: f"http://127.0.0.1:{port}/api/v2/heartbeat",
        log,
        what="chroma run",
        wait_s=90,
    )


def settings_for(root: Path, port: int):
    s = load_settings(PROJECT_ROOT / "config.toml").model_copy(deep=True)
    base = s.paths.storage / BASE
    s.paths.storage, s.paths.temp_storage = root / "storage", root / "temp_storage"
    s.paths.storage.mkdir(parents=True)
    (s.paths.storage / BASE).symlink_to(base, target_is_directory=True)
    s.chroma.mode, s.chroma.port = "server", port
    s.simulation.schedule_passes, s.simulation.autosave_every = 1, 0
    return s


def llm_for(s, sim_dir: Path) -> LLM:
    model = FakeChatModel()  # fail-safe only: each ask ends in its fail-safe
    return LLM(
        s,
        tasks=product_tasks(),
        chat_models={"strong": model, "cheap": model},
        ledger_path=sim_dir.parent.parent / "calls.jsonl",
    )


def nodes_on_disk(sim_dir: Path) -> dict[str, int]:
    out = {}
    for folder in sorted((sim_dir / "personas").iterdir()):
        nodes = json.loads((folder / "bootstrap_memory" / "associative_memory" / "nodes.json").read_text())
        out[folder.name] = len(nodes)
    return out


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_run_whose_chroma_server_goes_away_saves_stops_and_resumes(tmp_path):
    port = free_port()
    s = settings_for(tmp_path, port)
    sim_dir = s.paths.storage / "remote"
    with chroma(tmp_path / "db", port, tmp_path / "chroma1.log"):
        sim = Simulation.fork(s, BASE, "remote", llm=llm_for(s, sim_dir))
        assert sim.vector_index.mode == "server"
        assert sim.run(3) == 3
        sim.save()
        saved = nodes_on_disk(sim_dir)
        first = {name: p.a_mem.vectors.count() for name, p in sim.personas.items()}
        assert first == {name: saved[name] for name in first}, "every memory node is in the server's collections"
    # The server is gone: the next step ends on memory's own vectors, is saved, and the run stops with one line.
    with pytest.raises(ChromaLost) as stop:
        sim.run(5)
    message = str(stop.value)
    assert message.startswith("[chroma]") and "\n" not in message and "--resume" in message
    assert sim.step_no == 4 and json.loads((sim_dir / "reverie" / "meta.json").read_text())["step"] == 4
    kept = nodes_on_disk(sim_dir)
    assert kept == {name: len(p.a_mem.id_to_node) for name, p in sim.personas.items()}, "nothing in memory is lost"
    assert all(kept[name] >= saved[name] for name in saved)
    sim.close()

    # While the server is away, resuming is one line too.
    with pytest.raises(Exception) as refused:
        Simulation.open(s, "remote", resume=True, llm=llm_for(s, sim_dir))
    assert "Chroma server" in str(refused.value) and "\n" not in str(refused.value)

    # The server is back (same folder, same port): the run continues where it stopped.
    with chroma(tmp_path / "db", port, tmp_path / "chroma2.log"):
        resumed = Simulation.open(s, "remote", resume=True, llm=llm_for(s, sim_dir))
        assert resumed.step_no == 4
        assert resumed.run(2) == 2
        resumed.save()
        on_disk = nodes_on_disk(sim_dir)
        assert {name: p.a_mem.vectors.count() for name, p in resumed.personas.items()} == on_disk
        resumed.close()
