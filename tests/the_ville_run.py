"""The original release's 3-agent base in a temporary village, and one real recorded run of it.

`make_village` links the original data (never copied) into a folder with its own config;
`start_recording_the_ville` runs it with the bundled model and records every reply to a
cassette, once per test session (fixture `the_ville_recording` in tests/conftest.py, started
in the background when the session begins). Tests that need
whole runs of the_ville but are about something else (resume, replay, the live page)
replay that cassette: the same decisions, without paying for the model again.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from reverie import PROJECT_ROOT
from tests.background_run import BackgroundRun

BASE = "base_the_ville_isabella_maria_klaus"
NAMES = ["Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"]
STEPS = 30
# To re-run only the replaying tests, point this at the folder of an earlier recording
# (the one holding village/ and calls.cassette.jsonl).
REUSE = "REVERIE_TEST_RECORDING"
CASSETTE = "calls.cassette.jsonl"


def make_village(root: Path, smallville: Path, *, autosave_every: int = 5) -> Path:
    """assets/ and storage/ that link to the original data (never copied), and a config.toml."""
    assets, storage = root / "assets", root / "storage"
    assets.mkdir(parents=True)
    storage.mkdir()
    for item in (smallville / "static_dirs" / "assets").iterdir():
        (assets / item.name).symlink_to(item)
    (storage / BASE).symlink_to(smallville / "storage" / BASE)
    config = root / "config.toml"
    config.write_text(
        "[paths]\n"
        f'assets = "{assets}"\nstorage = "{storage}"\n'
        f'temp_storage = "{root / "temp_storage"}"\ncompressed_storage = "{root / "compressed"}"\n'
        f'prompts = "{PROJECT_ROOT / "prompts"}"\n'
        "[simulation]\n"
        f'default_fork = "{BASE}"\nautosave_every = {autosave_every}\n'
        "schedule_passes = 1\n",  # one planning pass keeps the real-model runs short
        encoding="utf-8",
    )
    return config


def reverie_argv(config: Path, *args: str) -> list[str]:
    """The command line ``python -m reverie --config CONFIG ARGS...``."""
    return [sys.executable, "-m", "reverie", "--config", str(config), *args]


def replayed_server(base: str, sim: str, cassette: Path, *commands: str) -> list[str]:
    """The arguments ``server --fork BASE --sim SIM --replay CASSETTE``, then ``--command C`` for
    each of ``commands`` (what the server's prompt reads, in order)."""
    typed = [arg for command in commands for arg in ("--command", command)]
    return ["server", "--fork", base, "--sim", sim, "--replay", str(cassette), *typed]


def reverie_cmd(config: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    """``python -m reverie --config CONFIG ARGS...`` in a child process."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.run(
        reverie_argv(config, *args),
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        **kwargs,
    )


def start_recording_the_ville(root: Path, smallville: Path) -> BackgroundRun | None:
    """``STEPS`` headless steps (simulation ``rec``) with the bundled model, recorded, started
    under ``root`` (None when ``$REVERIE_TEST_RECORDING`` names an earlier recording)."""
    if os.environ.get(REUSE):
        return None
    config = make_village(root / "village", smallville)
    return BackgroundRun(
        reverie_argv(
            config, "run", "--sim", "rec", "--steps", str(STEPS), "--record", str(root / CASSETTE), "--no-progress"
        ),
        root / "output",
        timeout=5000,
        cwd=PROJECT_ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def finish_recording_the_ville(root: Path, started: BackgroundRun | None) -> tuple[Path, Path, Path, float | None]:
    """The recording ``start_recording_the_ville(root, ...)`` started, once it has ended:
    (config, storage, cassette, seconds)."""
    if started is None:
        reuse = Path(os.environ[REUSE])
        return reuse / "village" / "config.toml", reuse / "village" / "storage", reuse / CASSETTE, None
    proc = started.result()
    assert proc.returncode == 0, proc.stderr[-3000:]
    seconds = started.seconds
    assert seconds is not None
    print(f"\n{STEPS} steps with the bundled model: {seconds:.0f} s ({seconds / STEPS:.1f} s/step)")
    return root / "village" / "config.toml", root / "village" / "storage", root / CASSETTE, seconds
