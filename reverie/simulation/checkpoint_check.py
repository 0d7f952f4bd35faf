"""Before a resume: a checkpoint is only one when every file of it parses.

A checkpoint at step N is ``reverie/meta.json``, every JSON file under ``personas/``,
``environment/<N>.json`` and ``movement/<k>.json`` for each k < N (the steps it has played;
later files are made again). When one of them does not parse, the run goes back to the
checkpoint before it (``.checkpoint.prev/``, kept by :func:`reverie.simulation.checkpoint.save`)
if that one is whole, and says so; otherwise it stops with one line naming the file.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from reverie.errors import UserError
from reverie.jsonio import write_json_atomic
from reverie.sim_layout import PREVIOUS_CHECKPOINT
from reverie.simulation.checkpoint import PREVIOUS_META
from reverie.simulation.storage import SimStorage


def _parse(path: Path):
    """The JSON in ``path``, or a string saying why it is not usable."""
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        return "missing"
    except json.JSONDecodeError as exc:
        return f"not valid JSON: {exc.msg} at line {exc.lineno}"
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return getattr(exc, "strerror", None) or type(exc).__name__


def _step_of(meta) -> int | None:
    step = meta.get("step") if isinstance(meta, dict) else None
    return step if isinstance(step, int) and not isinstance(step, bool) and step >= 0 else None


def first_damage(storage: SimStorage, meta_path: Path, personas_dir: Path) -> tuple[Path, str] | None:
    """(file, what is wrong) for the first file of this checkpoint that does not parse, or None."""
    meta = _parse(meta_path)
    if isinstance(meta, str):
        return meta_path, meta
    step = _step_of(meta)
    if step is None:
        return meta_path, "no step number"
    if not personas_dir.is_dir():
        return personas_dir, "missing"
    for path in sorted(personas_dir.rglob("*.json")):
        problem = _parse(path)
        if isinstance(problem, str):
            return path, problem
    env = _parse(storage.environment_path(step))
    if not isinstance(env, dict):
        return storage.environment_path(step), env if isinstance(env, str) else "not a JSON object"
    for k in storage.steps_in("movement"):
        if k < step:
            movement = _parse(storage.movement_path(k))
            if not isinstance(movement, dict):
                return storage.movement_path(k), movement if isinstance(movement, str) else "not a JSON object"
    return None


def usable_checkpoint(storage: SimStorage) -> str | None:
    """Make the newest whole checkpoint the current one; a line saying which one when it is not
    the newest, None when the newest is whole. One line (UserError) when none is."""
    damage = first_damage(storage, storage.meta_path, storage.personas_dir)
    if damage is None:
        return None
    path, problem = damage
    previous = storage.dir / PREVIOUS_CHECKPOINT
    earlier = None
    if previous.is_dir():
        earlier = first_damage(storage, previous / PREVIOUS_META, previous / "personas")
    if not previous.is_dir() or earlier is not None:
        raise UserError(f"{path} is damaged ({problem}) and no earlier checkpoint is whole — restore the file "
                        "from a copy, or fork the simulation's base again")
    meta = _parse(previous / PREVIOUS_META)
    newest = _parse(storage.meta_path)
    trash = storage.dir / ".personas.damaged"
    shutil.rmtree(trash, ignore_errors=True)
    if storage.personas_dir.exists():
        os.replace(storage.personas_dir, trash)
    os.replace(previous / "personas", storage.personas_dir)
    write_json_atomic(storage.meta_path, meta)
    shutil.rmtree(previous, ignore_errors=True)
    shutil.rmtree(trash, ignore_errors=True)
    was = f"step {_step_of(newest)}" if _step_of(newest) is not None else "the newest one"
    return (f"the checkpoint at {was} is damaged ({path.relative_to(storage.dir)}: {problem}); "
            f"resuming from the previous checkpoint, at step {_step_of(meta)}")
