"""A careless or hostile user against the commands: nothing is written where it was not asked,
a damaged checkpoint is never resumed from, bad history files and names get one line.

The runs here answer from fakes for failure paths (the fuzzing chat model in process, the
failing fake OpenAI-compatible server for command-line runs), not real models: what is
checked is our code's handling of files and names. The default town's steps are ten game
minutes, as in test_fuzz_runs.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.errors import UserError
from reverie.llm import LLM
from reverie.simulation.history import load_history
from reverie.simulation.simulation import Simulation
from reverie.simulation.storage import SimStorage, fork
from reverie.tasks.registry import product_tasks
from tests.fuzz.fake_server import FakeServer
from tests.fuzz.fuzz_model import FuzzChat
from tests.the_ville_run import reverie_cmd

BASE = "base_willow_creek"
SHIPPED = PROJECT_ROOT / "environment" / "frontend_server" / "storage" / BASE
SEC_PER_STEP = 600


def storage_with_base(root: Path, **simulation) -> tuple[Path, Path]:
    """A storage folder holding a real (writable) copy of the default base, and its config."""
    storage = root / "storage"
    shutil.copytree(SHIPPED, storage / BASE)
    config = root / "config.toml"
    config.write_text(
        f'[paths]\nstorage = "{storage}"\ntemp_storage = "{root / "temp"}"\n'
        f'compressed_storage = "{root / "compressed"}"\n'
        "[simulation]\nschedule_passes = 1\n" + "".join(f"{k} = {v}\n" for k, v in simulation.items()),
        encoding="utf-8",
    )
    return config, storage


def snapshot(folder: Path) -> dict[str, str]:
    """Every file and folder under ``folder`` (hidden ones too), with a hash of each file."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        out[rel] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
    return out


def reverie(config: Path, *args: str, timeout: float = 300, limit_file_bytes: int | None = None):
    def limits():
        if limit_file_bytes is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_bytes, limit_file_bytes))

    return reverie_cmd(config, *args, timeout=timeout, preexec_fn=limits)


def error_lines(run) -> list[str]:
    return [line for line in run.stderr.splitlines() if line.startswith("error:")]


def fuzz_llm(settings, storage: SimStorage, seed: int) -> LLM:
    model = FuzzChat(seed=seed)
    return LLM(
        settings, tasks=product_tasks(), chat_models={"strong": model, "cheap": model}, ledger_path=storage.ledger_path
    )


def town_fork(config: Path, storage: Path, name: str) -> SimStorage:
    sim = fork(storage, BASE, name)
    sim.write_meta({**sim.read_meta(), "sec_per_step": SEC_PER_STEP})
    return sim


def open_fork(config: Path, storage: Path, name: str, seed: int) -> tuple[Simulation, SimStorage]:
    """A new fork of the base named ``name``, opened on a fuzzing model of ``seed``."""
    settings = load_settings(config)
    sim_storage = town_fork(config, storage, name)
    return Simulation.open(settings, name, llm=fuzz_llm(settings, sim_storage, seed)), sim_storage


# -- 1. a base is read-only for every command --------------------------------------------------
@pytest.mark.slow  # about 40 s: two command-line evaluations against the fake server
@pytest.mark.timeout(600)
def test_evaluate_never_writes_a_base_and_evaluates_a_fork_it_names(tmp_path):
    config, storage = storage_with_base(tmp_path)
    server = FakeServer(seed=3, failures={}).up()
    with config.open("a", encoding="utf-8") as fh:
        fh.write(f'[backend]\nkind = "openai"\nbase_url = "{server.base_url}"\ntimeout_s = 5\n')
    before = snapshot(storage / BASE)
    try:
        refused = reverie(config, "evaluate", BASE)
        into = reverie(config, "evaluate", BASE, "--into", "evaluated")
        again = reverie(config, "evaluate", BASE, "--into", "evaluated")
        replaced = reverie(config, "evaluate", BASE, "--into", "evaluated", "--overwrite")
        compressed = reverie(config, "compress", BASE)
    finally:
        server.down()
    assert snapshot(storage / BASE) == before, "a command wrote into the base"
    assert refused.returncode == 2 and len(error_lines(refused)) == 1, refused.stderr[-1500:]
    assert "--into" in error_lines(refused)[0]
    assert into.returncode == 0, into.stderr[-1500:]
    figures = json.loads((storage / "evaluated" / "evaluation.json").read_text(encoding="utf-8"))
    assert figures["sim_code"] == "evaluated" and figures["checkpoints"]
    # --into an existing name is refused in one line naming the switch evaluate really has
    assert again.returncode == 2 and len(error_lines(again)) == 1 and "--overwrite" in error_lines(again)[0], (
        again.stderr[-1500:]
    )
    assert replaced.returncode == 0, replaced.stderr[-1500:]
    assert compressed.returncode in (0, 2) and len(error_lines(compressed)) <= 1, compressed.stderr[-1500:]


# -- 2. a fork starts with none of its parent's per-run files ---------------------------------
def test_a_fork_starts_without_its_parents_run_files(tmp_path):
    config, storage = storage_with_base(tmp_path)
    parent = fork(storage, BASE, "parent")
    run_files = {
        "evaluation.json": "{}",
        "game_day.json": "{}",
        "timeline.md": "# Timeline\n",
        "reverie/chat_templates.json": "{}",
        "reverie/llm_calls.jsonl": "{}\n",
        "reverie/.lock": "123\n",
        "chroma/chroma.sqlite3": "x",
        ".checkpoint.prev/meta.json": "{}",
    }
    for rel, text in run_files.items():
        (parent.dir / rel).parent.mkdir(parents=True, exist_ok=True)
        (parent.dir / rel).write_text(text, encoding="utf-8")
    child = fork(storage, "parent", "child")
    assert [rel for rel in run_files if (child.dir / rel).exists()] == []
    assert child.read_meta()["fork_sim_code"] == "parent" and child.persona_dir("Nora Bennett").is_dir()


# -- 3. a checkpoint is one only when every file parses ---------------------------------------
@pytest.mark.slow  # about 30 s: the embedding model and a few steps
@pytest.mark.timeout(300)
def test_resume_falls_back_past_a_damaged_movement_file(tmp_path, capsys):
    config, storage = storage_with_base(tmp_path, autosave_every=2)
    settings = load_settings(config)
    sim, sim_storage = open_fork(config, storage, "damaged", 5)
    assert sim.run(6) == 6
    sim.save()
    sim.close()

    # Cut short a movement file after the previous checkpoint (step 4): resume goes back there.
    movement = sim_storage.movement_path(5)
    movement.write_text(movement.read_text(encoding="utf-8")[:40], encoding="utf-8")
    capsys.readouterr()
    resumed = Simulation.open(settings, "damaged", resume=True, llm=fuzz_llm(settings, sim_storage, 6))
    said = capsys.readouterr().err
    assert resumed.step_no == 4, said
    assert "movement/5.json" in said and "step 4" in said
    assert resumed.run(3) == 3
    resumed.save()
    resumed.close()
    for path in sim_storage.movement_dir.glob("*.json"):
        json.loads(path.read_text(encoding="utf-8"))
    run = reverie(config, "compress", "damaged")
    assert run.returncode == 0, run.stderr[-1500:]

    # Damage before every checkpoint kept: one line naming the file, nothing resumed.
    early = sim_storage.movement_path(1)
    early.write_text('{"persona": {', encoding="utf-8")
    with pytest.raises(UserError) as refused:
        Simulation.open(settings, "damaged", resume=True, llm=fuzz_llm(settings, sim_storage, 7))
    assert str(early) in str(refused.value) and "\n" not in str(refused.value)
    assert not sim_storage.lock_path.exists()


# A file that parses but has the wrong shape: the run goes back to the checkpoint before, in one line.
def _replace(path: Path, text: str) -> None:
    """A new file in place of ``path`` (an unchanged persona file is a hard link shared with the
    checkpoint before: writing into it would damage both)."""
    path.unlink()
    path.write_text(text, encoding="utf-8")


def _edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    _replace(path, json.dumps(change(data)))


NORA = "personas/Nora Bennett/bootstrap_memory"
SHAPES = {
    "nodes-a-list": (f"{NORA}/associative_memory/nodes.json", lambda data: [1, 2, 3]),
    "node-not-a-node": (f"{NORA}/associative_memory/nodes.json", lambda data: {**data, "node_999": "text"}),
    "embeddings-not-numbers": (f"{NORA}/associative_memory/embeddings.json", lambda data: {"tea": ["a", "b"]}),
    "scratch-off-the-map": (f"{NORA}/scratch.json", lambda data: {**data, "curr_tile": [5000, 3]}),
    "scratch-negative": (f"{NORA}/scratch.json", lambda data: {**data, "curr_tile": [-1, 3]}),
    "scratch-a-list": (f"{NORA}/scratch.json", lambda data: [data]),
    "spatial-wrong-tree": ("personas/Theo Alvarez/bootstrap_memory/spatial_memory.json", lambda data: {"w": 1}),
    "environment-off-the-map": (
        "environment/4.json",
        lambda env: {**env, "Iris Novak": {**env["Iris Novak"], "x": 10_000}},
    ),
    "environment-negative": ("environment/4.json", lambda env: {**env, "Iris Novak": {**env["Iris Novak"], "y": -2}}),
    "environment-someone-missing": (
        "environment/4.json",
        lambda env: {k: v for k, v in env.items() if k != "Iris Novak"},
    ),
    "movement-negative": (
        "movement/3.json",
        lambda m: {**m, "persona": {**m["persona"], "Theo Alvarez": {"movement": [-3, 4]}}},
    ),
    "meta-seconds-a-string": ("reverie/meta.json", lambda meta: {**meta, "sec_per_step": "ten"}),
}


@pytest.fixture(scope="module")
def two_checkpoints(tmp_path_factory):
    """A run saved at step 2 (autosave) and at step 4: the newest checkpoint and the one before."""
    root = tmp_path_factory.mktemp("shapes")
    config, storage = storage_with_base(root, autosave_every=2)
    sim, _ = open_fork(config, storage, "shaped", 11)
    assert sim.run(4) == 4
    sim.save()
    sim.close()
    return config, storage


@pytest.mark.slow  # about 30 s: the embedding model, a few steps, then a resume per case
@pytest.mark.timeout(600)
@pytest.mark.parametrize("case", list(SHAPES))
def test_a_file_of_the_wrong_shape_sends_resume_to_the_checkpoint_before(two_checkpoints, tmp_path, capsys, case):
    config, storage = two_checkpoints
    mine = tmp_path / "storage"
    shutil.copytree(storage, mine)  # each file its own copy (the run's files are links shared by checkpoints)
    config_text = config.read_text(encoding="utf-8").replace(str(storage), str(mine))
    (tmp_path / "config.toml").write_text(config_text, encoding="utf-8")
    settings = load_settings(tmp_path / "config.toml")
    sim_storage = SimStorage(mine, "shaped")
    rel, change = SHAPES[case]
    damaged = sim_storage.dir / rel
    _edit_json(damaged, change)
    capsys.readouterr()
    resumed = Simulation.open(settings, "shaped", resume=True, llm=fuzz_llm(settings, sim_storage, 12))
    try:
        said = capsys.readouterr().err
        assert resumed.step_no == 2, said
        lines = [line for line in said.splitlines() if "damaged" in line]
        assert len(lines) == 1 and damaged.name in lines[0] and "step 2" in lines[0], said
        assert "Traceback" not in said
        assert all(resumed.maze.in_bounds(p.scratch.curr_tile) for p in resumed.personas.values())
        assert resumed.run(1) == 1
    finally:
        resumed.close()


@pytest.mark.slow  # the embedding model and two steps
@pytest.mark.timeout(300)
def test_a_position_off_the_map_is_one_line_not_a_wrap(tmp_path):
    """Python would read tile (-1, 5) as the last column: a position is checked before use."""
    config, storage = storage_with_base(tmp_path)
    settings = load_settings(config)
    sim_storage = town_fork(config, storage, "offmap")
    env = json.loads(sim_storage.environment_path(0).read_text(encoding="utf-8"))
    env["Nora Bennett"]["x"] = -1
    sim_storage.write_environment(0, env)
    with pytest.raises(UserError) as refused:
        Simulation.open(settings, "offmap", llm=fuzz_llm(settings, sim_storage, 13))
    assert "environment/0.json" in str(refused.value) and "Nora Bennett" in str(refused.value)
    assert "\n" not in str(refused.value) and not sim_storage.lock_path.exists()


# -- 4 (the pages) is in test_fuzz_pages_guard.py ----------------------------------------------
# -- 5. history CSVs -------------------------------------------------------------------------------
BAD_HISTORIES = {
    "swapped": "Whisper,Name\nYou like tea,Nora Bennett\n",
    "lower_case": "Name,Whisper\nnora bennett,You like tea\ntheo alvarez,You like maps\n",
    "unknown": "Name,Whisper\nMaria Lopez,You like tea\n",
    "no_header": "Nora Bennett,You like tea\nTheo Alvarez,You like maps\n",
}


def test_a_history_that_matches_no_persona_loads_nothing_and_says_why(tmp_path):
    config, storage = storage_with_base(tmp_path)
    sim, _ = open_fork(config, storage, "history", 9)
    try:
        memories = {name: len(p.a_mem.nodes()) for name, p in sim.personas.items()}
        for kind, text in BAD_HISTORIES.items():
            path = tmp_path / f"{kind}.csv"
            path.write_text(text, encoding="utf-8")
            with pytest.raises(UserError) as refused:
                load_history(sim, path)
            line = str(refused.value)
            assert str(path) in line and "\n" not in line, kind
            if kind == "lower_case":
                assert "line 2" in line and "Nora Bennett" in line and "(and 1 more)" in line
        assert {name: len(p.a_mem.nodes()) for name, p in sim.personas.items()} == memories

        mixed = tmp_path / "mixed.csv"
        mixed.write_text("Name,Whisper\nMaria Lopez,You like tea\nNora Bennett,You like tea\n", encoding="utf-8")
        warned = []
        counts = load_history(sim, mixed, warn=warned.append)
        assert counts == {"Nora Bennett": 1}
        assert len(warned) == 1 and "line 2" in warned[0] and "Maria Lopez" in warned[0]
    finally:
        sim.close()


class StoppedChat(FuzzChat):
    """The fuzzing model, and Ctrl-C at its first call about ``stop_on`` (a user stopping a load
    half-way, after the personas before it have had their whispers asked)."""

    stop_on: str = ""

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        if any(self.stop_on in str(message.content) for message in messages):
            raise KeyboardInterrupt
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


@pytest.fixture
def history_sim(tmp_path):
    config, storage = storage_with_base(tmp_path)
    sim, _ = open_fork(config, storage, "history", 9)
    try:
        yield sim
    finally:
        sim.close()


def memories(sim) -> dict[str, int]:
    return {name: len(p.a_mem.nodes()) for name, p in sim.personas.items()}


def test_a_history_with_a_byte_order_mark_loads(history_sim, tmp_path):
    path = tmp_path / "bom.csv"
    path.write_bytes("Name,Whisper\nNora Bennett,You like tea\n".encode("utf-8-sig"))  # as spreadsheets save it
    assert load_history(history_sim, path) == {"Nora Bennett": 1}


def test_rows_for_unknown_names_are_one_line_with_a_count(history_sim, tmp_path):
    path = tmp_path / "many.csv"
    unknown = "".join(f"Visitor {i},You like tea\n" for i in range(500))
    path.write_text("Name,Whisper\n" + unknown + "Nora Bennett,You like tea\n", encoding="utf-8")
    warned = []
    assert load_history(history_sim, path, warn=warned.append) == {"Nora Bennett": 1}
    assert len(warned) == 1 and "500 rows skipped" in warned[0] and "Visitor 0" in warned[0], warned[:3]
    assert "(and 499 more)" in warned[0]


def test_a_history_past_the_bounds_needs_the_flag(history_sim, tmp_path):
    from reverie.console.commands import parse_command
    from reverie.simulation.history import MAX_BYTES, MAX_ROWS

    before = memories(history_sim)
    rows = tmp_path / "rows.csv"
    rows.write_text(
        "Name,Whisper\n" + "".join(f"Visitor {i},hi\n" for i in range(MAX_ROWS)) + "Nora Bennett,You like tea\n",
        encoding="utf-8",
    )
    big = tmp_path / "big.csv"
    big.write_text("Name,Whisper\n" + "Visitor,hi\n" * (MAX_BYTES // 10), encoding="utf-8")
    whispers = tmp_path / "whispers.csv"
    whispers.write_text("Name,Whisper\nNora Bennett," + ";".join(["tea"] * (MAX_ROWS + 1)) + "\n", encoding="utf-8")
    for path in (rows, big, whispers):
        with pytest.raises(UserError) as refused:
            load_history(history_sim, path)
        line = str(refused.value)
        assert str(path) in line and "--large" in line and "\n" not in line
    assert memories(history_sim) == before
    assert load_history(history_sim, rows, large=True) == {"Nora Bennett": 1}
    command = parse_command(f"call -- load history {rows.name} --large")
    assert (command.path, command.extra) == (rows.name, {"large": True})


def test_a_long_history_load_shows_its_progress(history_sim, tmp_path, capsys):
    path = tmp_path / "long.csv"
    path.write_text(
        "Name,Whisper\nNora Bennett," + ";".join(f"You like tea number {i}" for i in range(25)) + "\n", encoding="utf-8"
    )
    assert load_history(history_sim, path) == {"Nora Bennett": 25}
    assert "25/25" in capsys.readouterr().err


@pytest.mark.parametrize("stop_on", ["Theo Alvarez", "Iris Novak"])  # the second persona's rows, the third's
def test_a_history_load_stopped_half_way_keeps_nothing(history_sim, tmp_path, stop_on):
    sim = history_sim
    path = tmp_path / "three.csv"
    path.write_text(
        "Name,Whisper\nNora Bennett,You like tea;You lost a key\nTheo Alvarez,You like maps;"
        "You owe Iris a book\nIris Novak,You sing\n",
        encoding="utf-8",
    )
    before, waiting = memories(sim), {n: dict(p.memory.unrated.texts) for n, p in sim.personas.items()}
    model = StoppedChat(seed=4, stop_on=stop_on)
    sim.llm = LLM(
        sim.settings,
        tasks=product_tasks(),
        chat_models={"strong": model, "cheap": model},
        ledger_path=sim.storage.ledger_path,
    )
    with pytest.raises(KeyboardInterrupt):
        load_history(sim, path)
    assert memories(sim) == before
    assert {n: dict(p.memory.unrated.texts) for n, p in sim.personas.items()} == waiting
    sim.save()  # what a `fin` after the stop keeps
    saved = {
        n: json.loads((sim.storage.persona_dir(n) / "associative_memory" / "nodes.json").read_text(encoding="utf-8"))
        for n in sim.personas
    }
    assert {n: len(nodes) for n, nodes in saved.items()} == before


# -- 5. every I/O error names the file and says what to do --------------------------------------
def test_a_name_too_long_is_said_to_be_the_name(tmp_path):
    config, storage = storage_with_base(tmp_path)
    run = reverie(config, "run", "--fork", BASE, "--sim", "x" * 300, "--steps", "1", "--no-progress")
    lines = error_lines(run)
    assert run.returncode == 2 and len(lines) == 1, run.stderr[-1500:]
    assert "too long" in lines[0] and "name" in lines[0]
    assert "resume" not in lines[0] and "disk" not in lines[0]
    assert sorted(p.name for p in storage.iterdir()) == [BASE]


def test_a_fork_onto_a_full_disk_names_the_file(tmp_path):
    """The file-size limit makes writes past 1 kB fail as a full disk would (EFBIG instead of ENOSPC)."""
    config, storage = storage_with_base(tmp_path)
    run = reverie(
        config, "run", "--fork", BASE, "--sim", "full", "--steps", "1", "--no-progress", limit_file_bytes=1024
    )
    lines = error_lines(run)
    assert run.returncode == 2 and len(lines) == 1, run.stderr[-1500:]
    assert "a file" not in lines[0] and str(storage) in lines[0] and ".json" in lines[0], lines[0]
    assert sorted(p.name for p in storage.iterdir()) == [BASE]  # no half copy


def test_a_full_disk_during_a_run_names_the_file(tmp_path):
    config, storage = storage_with_base(tmp_path)
    town_fork(config, storage, "fulldisk")
    timeline = storage / "fulldisk" / "timeline.md"
    timeline.symlink_to("/dev/full")  # every write to it fails with "No space left on device"
    run = reverie(config, "run", "--resume", "fulldisk", "--steps", "1", "--no-progress")
    lines = error_lines(run)
    assert run.returncode == 2 and len(lines) == 1, run.stderr[-1500:]
    assert str(timeline) in lines[0] and "disk is full" in lines[0], lines[0]


# -- 9. smaller ------------------------------------------------------------------------------------
def test_the_lock_file_goes_after_a_clean_exit(tmp_path):
    from reverie.simulation.lock import SimLock, SimulationInUse

    config, storage = storage_with_base(tmp_path)
    sim = fork(storage, BASE, "locked")
    first = SimLock(sim).acquire()
    with pytest.raises(SimulationInUse):
        SimLock(sim).acquire()
    first.release()
    assert not sim.lock_path.exists()
    again = SimLock(sim).acquire()  # and the next process locks it as before
    assert sim.lock_path.read_text().strip() == str(os.getpid())
    again.release()


def test_absurd_steps_are_refused(tmp_path):
    from reverie.console.commands import parse_command

    config, storage = storage_with_base(tmp_path)
    run = reverie(config, "run", "--resume", "nothing_here", "--steps", "9" * 20, "--no-progress")
    lines = error_lines(run)
    assert run.returncode == 2 and len(lines) == 1 and "--steps" in lines[0], run.stderr[-1500:]
    with pytest.raises(UserError):
        parse_command("run " + "9" * 20)
    assert parse_command("run 8640").number == 8640
