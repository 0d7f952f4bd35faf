"""A storage folder that links the shipped Willow Creek base (never copied) and a config for it;
and the README's first command run there once per test session (fixture ``readme_first_run``
in tests/conftest.py, started in the background when the session begins): the morning the
first-run test checks and the real trace the capture test reads."""

from __future__ import annotations

import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from reverie import PROJECT_ROOT
from tests.background_run import BackgroundRun

BASE = "base_willow_creek"
SHIPPED = PROJECT_ROOT / "environment" / "frontend_server" / "storage" / BASE


def willow_config(root: Path, extra: str = "") -> Path:
    """``root/storage`` with the base linked in, and ``root/config.toml`` (plus ``extra`` TOML) using it."""
    storage = root / "storage"
    storage.mkdir()
    (storage / BASE).symlink_to(SHIPPED, target_is_directory=True)
    config = root / "config.toml"
    config.write_text(
        f'[paths]\nstorage = "{storage}"\ntemp_storage = "{root / "temp"}"\n'
        f'compressed_storage = "{root / "compressed"}"\n{extra}',
        encoding="utf-8",
    )
    return config


def readme_run_args() -> list[str]:
    """The arguments after `python -m reverie` in the README's first command."""
    text = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("bash .ci/setup && ") and " reverie run " in line)
    command = line.split("&&", 1)[1]
    words = shlex.split(command)
    return words[words.index("reverie") + 1 :]


@dataclass(frozen=True)
class FirstRun:
    """The README's first command, run on the bundled model: its config, storage, simulation and run."""

    config: Path
    storage: Path
    sim: Path
    run: subprocess.CompletedProcess


def start_the_readme_first_command(root: Path) -> BackgroundRun:
    """The README's `run` part exactly as written there, started in a Willow Creek village under ``root``."""
    config = willow_config(root)
    return BackgroundRun(
        [sys.executable, "-m", "reverie", "--config", str(config), *readme_run_args()],
        root / "output",
        timeout=3500,
        cwd=PROJECT_ROOT,
    )


def finish_the_readme_first_command(root: Path, started: BackgroundRun) -> FirstRun:
    """The run ``start_the_readme_first_command(root)`` started, once it has ended."""
    run = started.result()
    storage = root / "storage"
    sims = [p for p in storage.iterdir() if p.name != BASE]
    return FirstRun(
        root / "config.toml", storage, sims[0] if len(sims) == 1 else storage / "(no single simulation)", run
    )
