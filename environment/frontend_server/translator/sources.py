"""Where the files are, and which names exist.

Every name that comes from a URL or a request body is looked up in a listing of what is
on disk; a path is only ever built from a listed name, never from user text. Anything
not listed raises :class:`NotFound` (the views turn it into a friendly 404 page).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from reverie.config import Settings, config_path, load_settings
from reverie.sim_layout import SimLayout, is_sim_name

STEP_RE = re.compile(r"[0-9]{1,9}")  # ASCII digits only


class NotFound(Exception):
    """A simulation, step, persona or file that does not exist; the message says what to do."""


def reverie_settings() -> Settings:
    """The project settings, re-read when the config file changes."""
    path = config_path()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = 0
    return _load(str(path), stamp)


@lru_cache(maxsize=4)
def _load(path: str, stamp: int) -> Settings:
    return load_settings(path, check_files=False)


def paths():
    return reverie_settings().paths


def _listed_dirs(root: Path) -> list[str]:
    try:
        return sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:
        return []


def storage_sims() -> list[str]:
    return _listed_dirs(paths().storage)


def compressed_sims() -> list[str]:
    return _listed_dirs(paths().compressed_storage)


def sim_dir(sim_code: str) -> Path:
    """storage/<sim_code>, if that simulation exists."""
    if not is_sim_name(sim_code) or sim_code not in storage_sims():  # the same rule as run --sim
        raise NotFound("There is no simulation with that name in the storage folder. Pick one from the runs page.")
    return paths().storage / sim_code


def compressed_dir(sim_code: str) -> Path:
    """compressed_storage/<sim_code>, if it exists."""
    if not is_sim_name(sim_code) or sim_code not in compressed_sims():
        raise NotFound(
            "There is no compressed run with that name. Compress a finished simulation first: "
            "python -m reverie compress SIM"
        )
    return paths().compressed_storage / sim_code


def parse_step(step) -> int:
    """A step from a URL: plain decimal digits only."""
    if isinstance(step, str) and STEP_RE.fullmatch(step):
        return int(step)
    raise NotFound("A step is a whole number, such as 0 or 120.")


def numbered_files(folder: Path) -> dict[int, Path]:
    """{step: path} for the files named <int>.json in `folder`."""
    out: dict[int, Path] = {}
    try:
        entries = list(folder.iterdir())
    except OSError:
        return out
    for p in entries:
        if p.suffix == ".json" and STEP_RE.fullmatch(p.stem) and p.is_file():
            out[int(p.stem)] = p
    return out


def step_file(folder: Path, step: int) -> Path:
    path = numbered_files(folder).get(step)
    if path is None:
        raise NotFound(f"Step {step} has not been recorded in {folder.parent.name}/{folder.name}.")
    return path


def persona_folders(sim_path: Path) -> list[str]:
    """Persona names ("First Last") with a folder under <sim>/personas."""
    return _listed_dirs(SimLayout(sim_path).personas_dir)


def underscore(name: str) -> str:
    return name.replace(" ", "_")


def initials(name: str) -> str:
    words = name.split()
    if not words:
        return "?"
    return (words[0][0] + (words[-1][0] if len(words) > 1 else "")).upper()


def persona_by_underscore(names: list[str], wanted: str) -> str:
    """The listed name whose underscore form is `wanted`."""
    for name in names:
        if underscore(name) == wanted:
            return name
    raise NotFound("There is no persona with that name in this simulation. Names are written First_Last.")


def maze_names() -> list[str]:
    """Mazes in the assets folder (a folder with visuals/)."""
    root = paths().assets
    return [n for n in _listed_dirs(root) if (root / n / "visuals").is_dir()]
