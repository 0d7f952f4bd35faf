"""Before a resume: a checkpoint is only one when every file of it parses and has its shape.

A checkpoint at step N is ``reverie/meta.json``, every JSON file under ``personas/``,
``environment/<N>.json`` and ``movement/<k>.json`` for each k < N (the steps it has played;
later files are made again). Each must parse and hold what a resume reads
(:mod:`reverie.simulation.checkpoint_shapes`: memories, scratch, positions on the map). A
missing ``environment/<N>.json`` is made from ``movement/<N-1>.json``, where the step's moves
put everyone (a live run stopped before the browser reported them). When a file fails, the run
goes back to the checkpoint before it (``.checkpoint.prev/``, kept by
:func:`reverie.simulation.checkpoint.save`) if that one is whole, and says so in one line;
otherwise it stops with one line naming the file.
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
from reverie.simulation.checkpoint_shapes import (
    PERSONA_FILES,
    MapSize,
    environment_problem,
    meta_problem,
    movement_problem,
)
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


def map_size(assets: Path | None, meta) -> MapSize | None:
    """(width, height) of the checkpoint's map, None when it cannot be read (opening the
    world says so later, in its own line)."""
    from reverie.world import blocks

    if assets is None or not isinstance(meta, dict) or not isinstance(meta.get("maze_name"), str):
        return None
    try:
        info = blocks.read_meta(Path(assets) / meta["maze_name"] / "matrix")
        return int(info["maze_width"]), int(info["maze_height"])
    except (OSError, UserError, ValueError, KeyError, TypeError):
        return None


def environment_from_movement(storage: SimStorage, step: int, meta: dict) -> dict | None:
    """The positions at ``step`` that ``movement/<step-1>.json`` moved everyone to, or None."""
    movement = _parse(storage.movement_path(step - 1)) if step > 0 else None
    moves = movement.get("persona") if isinstance(movement, dict) else None
    if not isinstance(moves, dict) or movement_problem(movement, None):
        return None
    if not all(name in moves for name in meta["persona_names"]):
        return None
    return {
        name: {"maze": meta["maze_name"], "x": moves[name]["movement"][0], "y": moves[name]["movement"][1]}
        for name in meta["persona_names"]
    }


def first_damage(
    storage: SimStorage, meta_path: Path, personas_dir: Path, assets: Path | None = None
) -> tuple[Path, str] | None:
    """(file, what is wrong) for the first file of this checkpoint that does not parse or has
    the wrong shape, or None. ``assets``: where the map is, to check positions against it."""
    meta = _parse(meta_path)
    if isinstance(meta, str):
        return meta_path, meta
    step = _step_of(meta)
    if step is None:
        return meta_path, "no step number"
    problem = meta_problem(meta)
    if problem:
        return meta_path, problem
    size = map_size(assets, meta)
    if not personas_dir.is_dir():
        return personas_dir, "missing"
    for path in sorted(personas_dir.rglob("*.json")):
        data = _parse(path)
        if isinstance(data, str):
            return path, data
        check = PERSONA_FILES.get(path.name)
        problem = check(data, size) if check else None
        if problem:
            return path, problem
    env_path = storage.environment_path(step)
    env = _parse(env_path)
    if env == "missing":
        env = environment_from_movement(storage, step, meta) or env
    if isinstance(env, str):
        return env_path, env
    problem = environment_problem(env, meta["persona_names"], size)
    if problem:
        return env_path, problem
    for k in storage.steps_in("movement"):
        if k < step:
            movement = _parse(storage.movement_path(k))
            problem = movement if isinstance(movement, str) else movement_problem(movement, size)
            if problem:
                return storage.movement_path(k), problem
    return None


def _complete_environment(storage: SimStorage) -> None:
    """Write the current checkpoint's ``environment/<N>.json`` when its movement implies it."""
    meta = _parse(storage.meta_path)
    step = _step_of(meta)
    if step is None or storage.environment_path(step).exists():
        return
    env = environment_from_movement(storage, step, meta)
    if env is not None:
        storage.write_environment(step, env)


def usable_checkpoint(storage: SimStorage, assets: Path | None = None) -> str | None:
    """Make the newest whole checkpoint the current one; a line saying which one when it is not
    the newest, None when the newest is whole. One line (UserError) when none is."""
    damage = first_damage(storage, storage.meta_path, storage.personas_dir, assets)
    if damage is None:
        _complete_environment(storage)
        return None
    path, problem = damage
    previous = storage.dir / PREVIOUS_CHECKPOINT
    earlier = None
    if previous.is_dir():
        earlier = first_damage(storage, previous / PREVIOUS_META, previous / "personas", assets)
    if not previous.is_dir() or earlier is not None:
        raise UserError(
            f"{path} is damaged ({problem}) and no earlier checkpoint is whole — restore the file "
            "from a copy, or fork the simulation's base again"
        )
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
    _complete_environment(storage)
    was = f"step {_step_of(newest)}" if _step_of(newest) is not None else "the newest one"
    return (
        f"the checkpoint at {was} is damaged ({path.relative_to(storage.dir)}: {problem}); "
        f"resuming from the previous checkpoint, at step {_step_of(meta)}"
    )
