"""Save persona state and meta.json as one unit, and repair a save cut short by kill -9.

Order: every persona into ``.personas.saving/``, meta into ``reverie/.meta.pending.json``,
then swap folders and rename the meta into place. :func:`recover` finishes or rolls back
whatever a kill left, so a simulation folder always holds one consistent checkpoint. The
checkpoint before it is kept in ``.checkpoint.prev/`` (its personas and meta.json), for a
resume that finds a file of the newest one damaged (:mod:`reverie.simulation.checkpoint_check`).
A persona file that has not changed since the last checkpoint is a hard link to that one's
file instead of a new copy (files are only replaced, never changed in place). Residents who run
ahead (:mod:`reverie.simulation.run_ahead`) :func:`stage` their files as each passes a checkpoint's
step, in ``.personas.saving.<step>/``; the last one to pass it lets :func:`commit` swap it in.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from reverie.jsonio import read_json, reusing_unchanged, write_json_atomic
from reverie.sim_layout import BOOTSTRAP_MEMORY, PREVIOUS_CHECKPOINT
from reverie.simulation.storage import SimStorage

SAVING = ".personas.saving"
OLD = ".personas.old"
PENDING = ".meta.pending.json"
PREVIOUS_META = "meta.json"  # .checkpoint.prev/meta.json beside .checkpoint.prev/personas/


def save(storage: SimStorage, personas: dict, meta: dict) -> None:
    recover(storage)
    staging = storage.dir / SAVING
    shutil.rmtree(staging, ignore_errors=True)
    stage(storage, personas, staging)
    commit(storage, staging, meta)


def stage(storage: SimStorage, personas: dict, staging: Path) -> None:
    """Write ``personas`` into ``staging``, the personas folder of a checkpoint to come."""
    with reusing_unchanged(staging, storage.personas_dir):  # unchanged files are linked, not written again
        for name, persona in personas.items():
            persona.save(staging / name / BOOTSTRAP_MEMORY)


def staging_for(storage: SimStorage, step: int) -> Path:
    """Where the residents running ahead leave their files as each passes ``step``'s checkpoint."""
    return storage.dir / f"{SAVING}.{step}"


def drop_stages(storage: SimStorage) -> None:
    """Remove the staged personas of checkpoints a run never reached (it stopped first)."""
    for staged in storage.dir.glob(f"{SAVING}.*"):
        shutil.rmtree(staged, ignore_errors=True)


def commit(storage: SimStorage, staged: Path, meta: dict) -> None:
    """Make ``staged`` (every persona's folder) and ``meta`` the checkpoint."""
    staging = storage.dir / SAVING
    if staged != staging:  # staged by residents running ahead: an earlier save cut short goes first
        _finish(storage)
        os.replace(staged, staging)
    pending = storage.meta_path.with_name(PENDING)
    write_json_atomic(pending, meta)
    old = storage.dir / OLD
    previous = storage.dir / PREVIOUS_CHECKPOINT
    if storage.personas_dir.exists():
        os.replace(storage.personas_dir, old)
    os.replace(staging, storage.personas_dir)
    if old.is_dir() and _step(storage.meta_path) not in (None, meta.get("step")):  # not a save of the same step
        shutil.copyfile(storage.meta_path, old / PREVIOUS_META)
    os.replace(pending, storage.meta_path)
    if (old / PREVIOUS_META).is_file():  # the checkpoint just replaced becomes the previous one
        shutil.rmtree(previous, ignore_errors=True)
        previous.mkdir()
        os.replace(old / PREVIOUS_META, previous / PREVIOUS_META)
        os.replace(old, previous / "personas")
    shutil.rmtree(old, ignore_errors=True)


def _step(meta_path) -> int | None:
    try:
        return read_json(meta_path).get("step")
    except (OSError, ValueError, AttributeError):
        return None


def recover(storage: SimStorage) -> None:
    """Complete or undo an interrupted :func:`save`; drop the stages of checkpoints never reached."""
    _finish(storage)
    drop_stages(storage)


def _finish(storage: SimStorage) -> None:
    staging, old = storage.dir / SAVING, storage.dir / OLD
    pending = storage.meta_path.with_name(PENDING)
    if not storage.personas_dir.exists() and old.exists():
        if staging.exists():  # killed between the two folder renames: finish the swap
            os.replace(staging, storage.personas_dir)
        else:
            os.replace(old, storage.personas_dir)
            pending.unlink(missing_ok=True)
    if staging.exists():  # killed before the swap: keep the previous checkpoint
        shutil.rmtree(staging, ignore_errors=True)
        pending.unlink(missing_ok=True)
    if pending.exists():  # killed after the swap, before the meta rename
        os.replace(pending, storage.meta_path)
    shutil.rmtree(old, ignore_errors=True)
