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
from tests.the_ville_run import reverie_argv, reverie_cmd

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
    return reverie_cmd(config, *args, timeout=timeout)


def scripted_run(config: Path, *args: str, steps: int) -> subprocess.CompletedProcess:
    """``run ARGS`` for ``steps`` steps on the scripted model, without a progress bar."""
    return reverie(config, "run", *args, "--steps", str(steps), "--model", "scripted", "--no-progress", timeout=300)


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
    assert "not a usable simulation name" in one_line_error(
        reverie(town, "run", "--fork", name, "--sim", "x", "--steps", "1")
    )
    assert snapshot(SHIPPED) == before and not (tmp_path / "storage" / "x").exists()


def test_a_leading_dash_is_refused_by_the_rule_the_error_states(town, tmp_path):
    line = one_line_error(reverie(town, "run", "--fork", BASE, "--sim=-x", "--steps", "1"))
    assert "starting with a letter or digit" in line and not (tmp_path / "storage" / "-x").exists()
    from reverie.simulation.storage import check_sim_name

    assert check_sim_name("x-1") == "x-1"  # '-' inside a name stays allowed


@pytest.mark.parametrize("name", ["CON", "nul", "Com1", "lpt9.txt", "aux.tar.gz"])
def test_names_windows_keeps_for_devices_are_refused(town, tmp_path, name):
    line = one_line_error(reverie(town, "run", "--fork", BASE, "--sim", name, "--steps", "1"))
    assert "device" in line and name in line and not (tmp_path / "storage" / name).exists()


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
        reverie(town, "run", "--fork", "town_start", "--sim", "base_mine", "--steps", "1")
    )
    # A fork of a flagged base is an ordinary simulation.
    assert "base" not in fork(storage, "town_start", "mine").read_meta()


def test_interactive_names_follow_the_same_rule(town):
    run = subprocess.run(
        [sys.executable, "-m", "reverie", "--config", str(town)],
        cwd=PROJECT_ROOT,
        input="../storage/base_willow_creek\nnew\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
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
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(storage.root), storage.sim_code],
        cwd=PROJECT_ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
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
        reverie(town, "run", "--fork", BASE, "--sim", "first", "--steps", "1", "--no-progress", timeout=300)
    )


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
    assert {k: v for k, v in after.items() if k.name != ".lock"} == {
        k: v for k, v in before.items() if k.name != ".lock"
    }


# -- stop signals: SIGTERM (docker stop, systemd, timeout) and SIGHUP save like Ctrl-C ------------
# The runs answer from the scripted town model (rules, not a real model): what is tested is
# what the process does with a signal.


def saved_step(sim_dir: Path) -> int:
    return json.loads((sim_dir / "reverie" / "meta.json").read_text(encoding="utf-8"))["step"]


def moved_steps(sim_dir: Path) -> list[int]:
    return sorted(int(p.stem) for p in (sim_dir / "movement").glob("*.json"))


def wait_for(path: Path, proc: subprocess.Popen, seconds: float = 240) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert proc.poll() is None, proc.stderr.read()[-2000:]
        assert time.monotonic() < deadline, f"no {path} after {seconds} s"
        time.sleep(0.02)


@pytest.mark.slow  # a minute each: a run of the command line (its embedding model), stopped, then resumed
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
@pytest.mark.timeout(400)
def test_a_stop_signal_saves_the_steps_run(town, tmp_path, signum):
    """Ctrl-C did this already (test_bundled_run.py); SIGTERM killed the run, losing its steps."""
    sim = tmp_path / "storage" / "stopped"
    proc = subprocess.Popen(
        reverie_argv(
            town, "run", "--fork", BASE, "--sim", "stopped", "--steps", "100000", "--model", "scripted", "--no-progress"
        ),
        cwd=PROJECT_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_hangup_as_default,
    )
    try:
        wait_for(sim / "movement" / "2.json", proc)
        proc.send_signal(signum)
        assert proc.wait(timeout=240) == 130, proc.stderr.read()[-2000:]
    finally:
        if proc.poll() is None:
            proc.kill()
    step = saved_step(sim)
    assert step >= 3 and moved_steps(sim) == list(range(step))  # every step run is in the checkpoint
    assert (sim / "environment" / f"{step}.json").is_file()
    leftovers = [p.name for p in (sim / "reverie").iterdir() if p.name.startswith(".")]
    assert not leftovers and not (sim / ".personas.saving").exists()  # no lock, no half save
    resumed = scripted_run(town, "--resume", "stopped", steps=1)
    assert resumed.returncode == 0 and "damaged" not in resumed.stderr, resumed.stderr[-2000:]
    assert saved_step(sim) == step + 1


@pytest.mark.slow  # the interactive server on the scripted model: half a minute
@pytest.mark.timeout(400)
def test_sigterm_at_the_interactive_prompt_saves_and_finishes(town, tmp_path):
    """Nobody is at the prompt to type `fin` when a service manager stops the server."""
    sim = tmp_path / "storage" / "served"
    with town.open("a", encoding="utf-8") as fh:
        fh.write(
            '[models.strong]\npath = "scripted"\nn_ctx = 65536\n[models.cheap]\npath = "scripted"\nn_ctx = 65536\n'
        )
    proc = subprocess.Popen(
        reverie_argv(town, "--fork", BASE, "--sim", "served", "--headless", "--command", "run 2"),
        cwd=PROJECT_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for(sim / "movement" / "1.json", proc)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-2000:]
    assert "saved served at step 2" in out
    assert saved_step(sim) == 2 and not (sim / "reverie" / ".lock").exists()


def _hangup_as_default() -> None:
    """A suite started under ``nohup`` ignores SIGHUP, and a run rightly leaves an ignored signal
    alone: the runs these tests hang up get SIGHUP's default back."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def test_a_second_stop_signal_stops_at_once():
    from reverie.simulation.stop_signals import stop_after_step

    hangup = signal.signal(signal.SIGHUP, signal.SIG_DFL)  # as in a terminal, even under nohup
    try:
        _second_signal_stops_at_once(stop_after_step)
    finally:
        signal.signal(signal.SIGHUP, hangup)


def _second_signal_stops_at_once(stop_after_step) -> None:
    with stop_after_step() as should_stop:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.05)  # the handler runs between two bytecodes of this thread
        assert should_stop()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGHUP)
            time.sleep(1)
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # put back as it was


@pytest.mark.slow  # a run in this process: the embedding model and two steps
def test_ctrl_c_during_the_final_save_does_not_cut_it(town, tmp_path, monkeypatch, capsys):
    """Ctrl-C arrives while the last checkpoint is being written (its personas are staged, its
    meta.json not yet in place): the save completes and the steps run are kept."""
    from reverie import cli
    from reverie.simulation import checkpoint

    write = checkpoint.write_json_atomic

    def interrupted(path, data, **kw):
        if isinstance(data, dict) and data.get("step") == 2:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
        return write(path, data, **kw)

    monkeypatch.setattr(checkpoint, "write_json_atomic", interrupted)
    code = cli.main(
        [
            "--config",
            str(town),
            "run",
            "--fork",
            BASE,
            "--sim",
            "last",
            "--steps",
            "2",
            "--model",
            "scripted",
            "--no-progress",
        ]
    )
    sim = tmp_path / "storage" / "last"
    assert code == 130, capsys.readouterr().err[-2000:]
    assert saved_step(sim) == 2 and moved_steps(sim) == [0, 1]
    assert not (sim / ".personas.saving").exists() and not (sim / "reverie" / ".meta.pending.json").exists()


# -- a live run (the browser reports positions) resumes where it stopped, in both modes -----------


def feed_positions(sim: Path, stop) -> None:
    """The browser's part: once movement/<k>.json is written, report environment/<k+1>.json."""
    while not stop.is_set():
        for k in moved_steps(sim) if (sim / "movement").is_dir() else []:
            target = sim / "environment" / f"{k + 1}.json"
            if target.exists():
                continue
            meta = json.loads((sim / "reverie" / "meta.json").read_text(encoding="utf-8"))
            moves = json.loads((sim / "movement" / f"{k}.json").read_text(encoding="utf-8"))["persona"]
            env = {
                n: {"maze": meta["maze_name"], "x": m["movement"][0], "y": m["movement"][1]} for n, m in moves.items()
            }
            tmp = target.with_name(f".{target.name}.tmp")
            tmp.write_text(json.dumps(env), encoding="utf-8")
            os.replace(tmp, target)
        stop.wait(0.02)


@pytest.mark.slow  # three runs of the command line: about a minute and a half
@pytest.mark.timeout(600)
def test_a_finished_live_run_resumes_at_its_last_step(town, tmp_path):
    import threading

    sim = tmp_path / "storage" / "live"
    stop = threading.Event()
    feeder = threading.Thread(target=feed_positions, args=(sim, stop), daemon=True)
    feeder.start()
    try:
        live = scripted_run(town, "--live", "--fork", BASE, "--sim", "live", steps=2)
        assert live.returncode == 0, live.stderr[-2000:]
        assert saved_step(sim) == 2
        stop.set()
        feeder.join()
        # The browser has not reported the positions after the last step: the checkpoint is whole anyway.
        (sim / "environment" / "2.json").unlink(missing_ok=True)
        headless = scripted_run(town, "--resume", "live", steps=1)
        assert headless.returncode == 0 and "damaged" not in headless.stderr, headless.stderr[-2000:]
        assert "at step 2" in headless.stderr and saved_step(sim) == 3
        stop.clear()
        feeder = threading.Thread(target=feed_positions, args=(sim, stop), daemon=True)
        feeder.start()
        again = scripted_run(town, "--resume", "live", "--live", steps=2)
        assert again.returncode == 0 and "damaged" not in again.stderr, again.stderr[-2000:]
        assert "at step 3" in again.stderr and saved_step(sim) == 5 and moved_steps(sim) == list(range(5))
    finally:
        stop.set()
