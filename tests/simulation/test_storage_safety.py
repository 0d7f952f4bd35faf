"""Storage refuses what could lose a simulation: names outside the storage folder, writing
into a base, two processes on one simulation, damaged files, a fork left by a failed start;
and a resumed run's ledger counts only what the run did.

Runs use our own 3-agent town `base_willow_creek` (linked, never written) in a temp folder.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.errors import UserError
from reverie.simulation.ledger_rollback import rollback_ledger
from reverie.simulation.lock import SimLock, SimulationInUse
from reverie.simulation.storage import SimStorage, fork

BASE = "base_willow_creek"
SHIPPED = PROJECT_ROOT / "environment" / "frontend_server" / "storage" / BASE


@pytest.fixture
def town(tmp_path) -> Path:
    """A config whose storage holds the base (linked) and nothing else."""
    storage = tmp_path / "storage"
    storage.mkdir()
    (storage / BASE).symlink_to(SHIPPED, target_is_directory=True)
    config = tmp_path / "config.toml"
    config.write_text(f'[paths]\nstorage = "{storage}"\ntemp_storage = "{tmp_path / "temp"}"\n', encoding="utf-8")
    return config


def reverie(config: Path, *args: str, timeout: int = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reverie", "--config", str(config), *args], cwd=PROJECT_ROOT,
                          capture_output=True, text=True, timeout=timeout)


def one_line_error(run: subprocess.CompletedProcess) -> str:
    assert run.returncode == 2, run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), run.stderr
    return lines[0]


def the_error(run: subprocess.CompletedProcess) -> str:
    """The one error line of a run that started (its disclaimer and progress come first)."""
    assert run.returncode == 2, run.stderr
    errors = [line for line in run.stderr.splitlines() if line.startswith("error")]
    assert len(errors) == 1, run.stderr
    return errors[0]


def snapshot(folder: Path) -> dict:
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# -- names -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["../storage/base_willow_creek", "/tmp", "a/b", "..", ".hidden", "new\nline", " x"])
def test_resume_and_fork_take_only_a_name_inside_storage(town, tmp_path, name):
    before = snapshot(SHIPPED)
    assert "not a usable simulation name" in one_line_error(reverie(town, "run", "--resume", name, "--steps", "1"))
    assert "not a usable simulation name" in one_line_error(reverie(town, "run", "--fork", name, "--sim", "x", "--steps", "1"))
    assert snapshot(SHIPPED) == before and not (tmp_path / "storage" / "x").exists()


def test_resuming_a_base_says_to_fork_it(town):
    line = one_line_error(reverie(town, "run", "--resume", BASE, "--steps", "1"))
    assert "base simulation" in line and f"--fork {BASE}" in line


def test_a_base_is_never_overwritten(town, tmp_path):
    storage = tmp_path / "storage"
    flagged = storage / "town_start"  # a base by its meta.json flag
    shutil.copytree(SHIPPED, flagged)
    meta = json.loads((flagged / "reverie" / "meta.json").read_text())
    (flagged / "reverie" / "meta.json").write_text(json.dumps({**meta, "base": True}))
    before = snapshot(flagged)
    line = one_line_error(reverie(town, "run", "--fork", BASE, "--sim", "town_start", "--overwrite", "--steps", "1"))
    assert "base simulation" in line and snapshot(flagged) == before
    assert "kept for base simulations" in one_line_error(
        reverie(town, "run", "--fork", "town_start", "--sim", "base_mine", "--steps", "1"))
    # A fork of a flagged base is an ordinary simulation.
    assert "base" not in fork(storage, "town_start", "mine").read_meta()


def test_interactive_names_follow_the_same_rule(town):
    run = subprocess.run([sys.executable, "-m", "reverie", "--config", str(town)], cwd=PROJECT_ROOT,
                         input="../storage/base_willow_creek\nnew\n", capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "not a usable simulation name" in run.stderr


# -- one process per simulation ----------------------------------------------------------------

HOLDER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from reverie.simulation.lock import SimLock
    from reverie.simulation.storage import SimStorage
    SimLock(SimStorage(Path(sys.argv[1]), sys.argv[2])).acquire()
    print("held", flush=True)
    time.sleep(60)
""")


def test_a_second_process_is_refused_and_a_dead_holders_lock_is_taken_over(tmp_path):
    storage = fork_town(tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(storage.root), storage.sim_code],
                              cwd=PROJECT_ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(SimulationInUse) as refused:
            SimLock(storage).acquire()
        message = str(refused.value)
        assert f"process {holder.pid}" in message and "\n" not in message
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    lock_file = storage.dir / "reverie" / ".lock"
    assert lock_file.read_text().strip() == str(holder.pid)  # the killed holder's PID is still written
    lock = SimLock(storage).acquire()  # ... but its lock died with it
    assert lock_file.read_text().strip() == str(os.getpid())
    lock.release()


def test_the_cli_refuses_a_simulation_in_use(town, tmp_path):
    fork(tmp_path / "storage", BASE, "busy")
    lock = SimLock(SimStorage(tmp_path / "storage", "busy")).acquire()
    try:
        line = one_line_error(reverie(town, "run", "--resume", "busy", "--steps", "1"))
    finally:
        lock.release()
    assert f"in use by process {os.getpid()}" in line


def fork_town(tmp_path: Path) -> SimStorage:
    storage = tmp_path / "storage"
    storage.mkdir(exist_ok=True)
    if not (storage / BASE).exists():
        (storage / BASE).symlink_to(SHIPPED, target_is_directory=True)
    return fork(storage, BASE, "mine")


# -- damaged files, full disks -------------------------------------------------------------------

@pytest.mark.parametrize("damage", ["meta", "meta-keys", "scratch"])
def test_a_damaged_file_is_named_in_one_line(town, tmp_path, damage):
    sim = fork(tmp_path / "storage", BASE, "hurt")
    if damage == "meta":
        target = sim.meta_path
        target.write_text(target.read_text()[:40])
    elif damage == "meta-keys":
        target = sim.meta_path
        target.write_text('{"step": 0}')
    else:
        target = sim.persona_dir("Nora Bennett") / "scratch.json"
        target.write_text(target.read_text()[:100])
    line = one_line_error(reverie(town, "run", "--resume", "hurt", "--steps", "1", timeout=300))
    assert str(target if damage != "meta-keys" else sim.meta_path) in line


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
def test_a_full_or_read_only_disk_is_one_line_and_keeps_the_checkpoint(tmp_path, capsys, monkeypatch, code):
    """The disk is made to fail by replacing os.replace (a fake: root ignores read-only folders)."""
    from reverie import cli
    from reverie.simulation import storage as storage_module

    sim = fork_town(tmp_path)
    before = snapshot(sim.dir)
    config = tmp_path / "config.toml"
    config.write_text(f'[paths]\nstorage = "{tmp_path / "storage"}"\n', encoding="utf-8")

    def failing(src, dst):
        raise OSError(code, os.strerror(code), str(dst))

    monkeypatch.setattr(storage_module.os, "replace", failing)
    assert cli.main(["--config", str(config), "run", "--fork", BASE, "--sim", "other", "--steps", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and os.strerror(code) in err[0]
    assert snapshot(sim.dir) == before
    assert sorted(p.name for p in (tmp_path / "storage").iterdir()) == [BASE, "mine"]  # no half-made fork


# -- the ledger follows the checkpoint ---------------------------------------------------------

def test_the_ledger_drops_the_calls_of_steps_that_run_again(tmp_path):
    path = tmp_path / "llm_calls.jsonl"
    lines = [json.dumps({"prompt": "p", "step": step}) for step in [None, 0, 0, 1, 2, 2, 3, 4, None]]
    path.write_text("\n".join(lines) + "\n" + '{"prompt": "p", "st')  # a line cut short by a kill
    assert rollback_ledger(path, 2) == (10, 5)
    kept = [json.loads(line)["step"] for line in path.read_text().splitlines()]
    assert kept == [None, 0, 0, 1, None]


@pytest.mark.slow  # two runs of the command line: a few seconds
def test_a_model_that_fails_to_load_leaves_no_fork_behind(town, tmp_path):
    fake = tmp_path / "broken.gguf"
    fake.write_bytes(b"GGUF" + b"\0" * 64)  # the right magic, nothing loadable after it
    with town.open("a", encoding="utf-8") as fh:
        fh.write(f'[models.strong]\npath = "{fake}"\n[models.cheap]\npath = "{fake}"\n')
    run = reverie(town, "run", "--fork", BASE, "--sim", "first", "--steps", "1", "--no-progress", timeout=300)
    line = the_error(run)
    assert "cannot load the model" in line
    # The model is loaded before the first step, so nothing of a step ran: no memory was
    # embedded (the embedding model, whose loader prints this, never loaded).
    assert "Loading weights" not in run.stderr
    assert not (tmp_path / "storage" / "first").exists()
    # The same command again needs no --overwrite (it fails the same way, not on the name).
    assert "cannot load the model" in the_error(
        reverie(town, "run", "--fork", BASE, "--sim", "first", "--steps", "1", "--no-progress", timeout=300))


def test_overwrite_never_replaces_a_simulation_in_use(town, tmp_path):
    fork(tmp_path / "storage", BASE, "busy")
    before = snapshot(tmp_path / "storage" / "busy")
    lock = SimLock(SimStorage(tmp_path / "storage", "busy")).acquire()
    try:
        line = one_line_error(reverie(town, "run", "--fork", BASE, "--sim", "busy", "--overwrite", "--steps", "1"))
    finally:
        lock.release()
    assert "in use by process" in line
    after = snapshot(tmp_path / "storage" / "busy")
    assert {k: v for k, v in after.items() if k.name != ".lock"} == {k: v for k, v in before.items() if k.name != ".lock"}
