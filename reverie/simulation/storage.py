"""Simulation folders (the layout of :mod:`reverie.sim_layout`): read, fork, and written atomically.

Nothing else in the package writes simulation files.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

from reverie.errors import UserError
from reverie.jsonio import read_json, write_json_atomic
from reverie.sim_layout import BASE_PREFIX, MAX_SIM_NAME, META, PER_RUN_EXTRAS, RESERVED_NAMES, SimLayout, is_sim_name


class DamagedFile(UserError):
    """A simulation file that cannot be read; the message names it and what to do."""

    def __init__(self, path: Path, problem):
        if isinstance(problem, json.JSONDecodeError):
            problem = f"not valid JSON: {problem.msg} at line {problem.lineno}"
        elif isinstance(problem, OSError):
            problem = problem.strerror or str(problem)
        super().__init__(
            f"{path} cannot be read ({problem}) — restore it from a copy, or fork the simulation's base again"
        )


def check_sim_name(name: str) -> str:
    """A simulation name usable as a folder name; one-line error otherwise."""
    if not is_sim_name(name):
        name = name if isinstance(name, str) else ""
        if len(name) > MAX_SIM_NAME:
            raise UserError(
                f"the simulation name {name[:24]!r}... is too long ({len(name)} characters) — "
                f"use a name of at most {MAX_SIM_NAME}"
            )
        if RESERVED_NAMES.fullmatch(name):
            raise UserError(
                f"{name!r} is a name Windows keeps for a device and cannot be a folder there — "
                "choose another simulation name"
            )
        raise UserError(
            f"{name!r} is not a usable simulation name — use letters, digits, '.', '_' or '-', "
            "starting with a letter or digit (no spaces or slashes)"
        )
    return name


def is_base(storage: SimStorage) -> bool:
    """A shipped starting point (``base_*``, or ``"base": true`` in its meta.json): fork it, never write it."""
    if storage.sim_code.startswith(BASE_PREFIX):
        return True
    try:
        meta = read_json(storage.meta_path)
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and meta.get("base") is True


def refuse_base(storage: SimStorage, doing: str, instead: str | None = None) -> None:
    """One line when ``storage`` is a base: a base is never written (no lock, ledger, index or
    figures in it); ``instead`` says how to do the same in a fork."""
    if is_base(storage):
        instead = instead or f"run --fork {storage.sim_code} --sim NEW_NAME"
        raise UserError(f"'{storage.sim_code}' is a base simulation and cannot be {doing} — fork it instead: {instead}")


class SimStorage(SimLayout):
    """The files of one simulation ``<storage>/<sim_code>/``."""

    def __init__(self, storage_root: Path, sim_code: str, temp_storage: Path | None = None):
        super().__init__(Path(storage_root) / sim_code)
        self.root = Path(storage_root)
        self.sim_code = sim_code
        self.temp_storage = Path(temp_storage) if temp_storage else None

    def exists(self) -> bool:
        return self.meta_path.is_file()

    # -- meta ----------------------------------------------------------------------
    def read_meta(self) -> dict:
        if not self.meta_path.is_file():
            raise UserError(f"no simulation '{self.sim_code}' in {self.root} (missing reverie/meta.json)")
        try:
            meta = read_json(self.meta_path)
        except (ValueError, OSError) as exc:
            raise DamagedFile(self.meta_path, exc) from None
        if not isinstance(meta, dict):
            raise DamagedFile(self.meta_path, "not a JSON object")
        return meta

    def write_meta(self, meta: dict) -> None:
        write_json_atomic(self.meta_path, meta)

    # -- per-step files --------------------------------------------------------------
    def read_environment(self, step: int) -> dict | None:
        """The browser's positions for ``step``; None while missing or half-written."""
        try:
            return read_json(self.environment_path(step))
        except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
            return None

    def write_environment(self, step: int, data: dict) -> None:
        write_json_atomic(self.environment_path(step), data)

    def write_movement(self, step: int, data: dict) -> None:
        write_json_atomic(self.movement_path(step), data)

    def read_movement(self, step: int) -> dict | None:
        try:
            return read_json(self.movement_path(step))
        except (FileNotFoundError, json.JSONDecodeError):
            return None

    def steps_in(self, folder: str) -> list[int]:
        d = self.dir / folder
        if not d.is_dir():
            return []
        return sorted(int(p.stem) for p in d.glob("*.json") if p.stem.isdigit())

    def drop_steps_from(self, step: int) -> None:
        """Remove movement files >= step and environment files > step (a resume point)."""
        for s in self.steps_in("movement"):
            if s >= step:
                self.movement_path(s).unlink(missing_ok=True)
        for s in self.steps_in("environment"):
            if s > step:
                self.environment_path(s).unlink(missing_ok=True)
        for leftover in self.dir.rglob(".*.tmp"):
            leftover.unlink(missing_ok=True)

    # -- temp_storage (home page of the frontend) ----------------------------------------
    def announce(self, step: int) -> None:
        """temp_storage/curr_sim_code.json and curr_step.json for the frontend's home view."""
        if self.temp_storage is None:
            return
        write_json_atomic(self.temp_storage / "curr_sim_code.json", {"sim_code": self.sim_code})
        write_json_atomic(self.temp_storage / "curr_step.json", {"step": step})


def fork(storage_root: Path, fork_sim_code: str, sim_code: str, *, overwrite: bool = False) -> SimStorage:
    """Copy ``<fork>`` to ``<sim>`` and stamp ``fork_sim_code``; the source is never modified.

    Both are names of folders in ``storage_root`` (:func:`check_sim_name`); a base
    simulation is never overwritten, and a fork carries no ``base`` flag."""
    check_sim_name(fork_sim_code)
    check_sim_name(sim_code)
    src = SimStorage(storage_root, fork_sim_code)
    dst = SimStorage(storage_root, sim_code)
    if sim_code.startswith(BASE_PREFIX):
        raise UserError(
            f"names starting with '{BASE_PREFIX}' are kept for base simulations — choose another name for '{sim_code}'"
        )
    if not src.exists():
        known = ", ".join(sorted(p.name for p in Path(storage_root).glob("*") if (p / META).is_file()))
        raise UserError(f"no simulation '{fork_sim_code}' to fork in {storage_root} — known: {known or 'none'}")
    if src.dir.resolve() == dst.dir.resolve():
        raise UserError(f"cannot fork '{fork_sim_code}' onto itself — choose another new name")
    if dst.dir.exists():
        if not overwrite:
            raise UserError(f"simulation '{sim_code}' already exists — choose another name or pass --overwrite")
        refuse_base(dst, "overwritten")
        shutil.rmtree(dst.dir)
    staging = dst.dir.with_name(f".{sim_code}.forking")
    if staging.exists():
        shutil.rmtree(staging)
    try:
        # The source run's own files (ledger, timeline, vector index, figures, lock) stay with it.
        shutil.copytree(src.dir, staging, ignore=shutil.ignore_patterns(*PER_RUN_EXTRAS, ".*.tmp"))
        _make_writable(staging)  # a read-only source (e.g. an installed base) must give a writable fork
        os.replace(staging, dst.dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)  # e.g. a full disk: no half copy is left behind
        raise
    meta = dst.read_meta()
    meta["fork_sim_code"] = fork_sim_code
    meta.pop("base", None)
    dst.write_meta(meta)
    return dst


def _make_writable(root: Path) -> None:
    for path in [root, *root.rglob("*")]:
        mode = path.stat().st_mode
        path.chmod(mode | stat.S_IWUSR | (stat.S_IXUSR if path.is_dir() else 0))
