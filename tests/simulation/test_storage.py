"""Storage: atomic writes, forking in the original layout, checkpoints that survive a kill."""

import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from reverie.errors import UserError
from reverie.simulation import checkpoint
from reverie.jsonio import write_json_atomic
from reverie.simulation.storage import SimStorage, fork

BASE = "base_the_ville_isabella_maria_klaus"


@pytest.fixture
def storage_root(tmp_path, smallville_dir):
    root = tmp_path / "storage"
    root.mkdir()
    shutil.copytree(smallville_dir / "storage" / BASE, root / BASE)
    return root


def test_write_json_atomic_formats_like_the_original(tmp_path):
    path = tmp_path / "a" / "b.json"
    write_json_atomic(path, {"emoji": "\U0001f634", "n": [1, 2]})
    text = path.read_text()
    assert '"\\ud83d\\ude34"' in text and text.startswith("{\n  ")
    assert not [p for p in path.parent.iterdir() if p.name != "b.json"]


def test_a_killed_writer_leaves_the_old_file_whole(tmp_path):
    path = tmp_path / "state.json"
    write_json_atomic(path, {"version": 1})
    # A child process writes a large file and is killed with SIGKILL while writing.
    script = textwrap.dedent(f"""
        import os, signal
        from reverie.simulation import storage
        real = os.replace
        def die(*a):
            os.kill(os.getpid(), signal.SIGKILL)
        storage.os.replace = die
        storage.write_json_atomic({str(path)!r}, {{"version": 2, "pad": "x" * 1000000}})
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True)
    assert proc.returncode == -9
    assert json.loads(path.read_text()) == {"version": 1}


def test_fork_copies_and_never_touches_the_source(storage_root):
    before = {p: p.read_bytes() for p in (storage_root / BASE).rglob("*") if p.is_file()}
    dst = fork(storage_root, BASE, "copy1")
    assert dst.read_meta()["fork_sim_code"] == BASE
    assert (dst.dir / "personas" / "Maria Lopez" / "bootstrap_memory" / "scratch.json").is_file()
    after = {p: p.read_bytes() for p in (storage_root / BASE).rglob("*") if p.is_file()}
    assert before == after


def test_a_fork_of_a_read_only_base_is_writable(storage_root):
    src = storage_root / BASE
    for path in [src, *src.rglob("*")]:
        path.chmod(path.stat().st_mode & ~0o222)
    try:
        dst = fork(storage_root, BASE, "copy_ro")
        assert all(p.stat().st_mode & 0o200 for p in [dst.dir, *dst.dir.rglob("*")])
    finally:
        for path in [src, *src.rglob("*")]:
            path.chmod(path.stat().st_mode | 0o200)


def test_fork_refuses_an_existing_name_unless_overwrite(storage_root):
    fork(storage_root, BASE, "copy1")
    (storage_root / "copy1" / "marker").write_text("x")
    with pytest.raises(UserError, match="already exists.*--overwrite"):
        fork(storage_root, BASE, "copy1")
    fork(storage_root, BASE, "copy1", overwrite=True)
    assert not (storage_root / "copy1" / "marker").exists()


@pytest.mark.parametrize("bad", ["", "a b", "../x", "x/y"])
def test_fork_rejects_bad_names(storage_root, bad):
    with pytest.raises(UserError):
        fork(storage_root, BASE, bad)


def test_fork_of_unknown_simulation_names_the_known_ones(storage_root):
    with pytest.raises(UserError, match=f"known: {BASE}"):
        fork(storage_root, "nope", "x")


class FilePersona:
    """A persona whose saved state is one file (stands in for the memory files)."""

    def __init__(self, value):
        self.value = value

    def save(self, folder):
        write_json_atomic(folder / "scratch.json", {"value": self.value})


def test_checkpoint_recovers_from_every_interrupted_phase(storage_root):
    sim = fork(storage_root, BASE, "cp")
    checkpoint.save(sim, {"A": FilePersona(1)}, {"step": 1})
    scratch = sim.personas_dir / "A" / "bootstrap_memory" / "scratch.json"
    assert json.loads(scratch.read_text()) == {"value": 1}

    # Killed while staging: the old checkpoint stays.
    (sim.dir / checkpoint.SAVING / "A" / "bootstrap_memory").mkdir(parents=True)
    write_json_atomic(sim.meta_path.with_name(checkpoint.PENDING), {"step": 2})
    checkpoint.recover(sim)
    assert json.loads(scratch.read_text()) == {"value": 1} and sim.read_meta() == {"step": 1}

    # Killed between the folder renames: the new checkpoint is completed.
    staging = sim.dir / checkpoint.SAVING / "A" / "bootstrap_memory"
    staging.mkdir(parents=True)
    write_json_atomic(staging / "scratch.json", {"value": 3})
    write_json_atomic(sim.meta_path.with_name(checkpoint.PENDING), {"step": 3})
    os.replace(sim.personas_dir, sim.dir / checkpoint.OLD)
    checkpoint.recover(sim)
    assert json.loads(scratch.read_text()) == {"value": 3} and sim.read_meta() == {"step": 3}
    assert not (sim.dir / checkpoint.OLD).exists()


def test_drop_steps_from_keeps_the_resume_point(storage_root):
    sim = SimStorage(storage_root, BASE)
    for step in range(1, 5):
        sim.write_environment(step, {})
        sim.write_movement(step, {})
    sim.drop_steps_from(2)
    assert sim.steps_in("movement") == [1]
    assert sim.steps_in("environment") == [0, 1, 2]
