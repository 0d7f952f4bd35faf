"""`python -m reverie compress SIM`: write compressed_storage/SIM in the original demo format.

master_movement.json keeps, for every step from 0 to the last movement file, only the
personas whose movement, pronunciatio, description or chat changed since their last
recorded entry (step 0 lists everyone; steps without changes are ``{}``). A run whose
clock was moved forward before its first step (``bench``, a morning start) lists everyone
at step 0 as they were at that first step; the steps in between are ``{}``. meta.json is a
copy of reverie/meta.json and personas/ a copy of the persona folders. The output is
built in a temporary folder and moved into place, so a reader never sees half of it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from reverie.config import Settings
from reverie.errors import UserError
from reverie.jsonio import read_json_or, write_json_atomic
from reverie.sim_layout import META, PERSONAS, SimLayout

FIELDS = ("movement", "pronunciatio", "description", "chat")
STEP_FILE = re.compile(r"[0-9]+\.json")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sim_code", metavar="SIM", help="simulation folder name in the storage folder")


def main(args: argparse.Namespace, settings: Settings) -> int:
    out = compress(settings, args.sim_code)
    print(f"wrote {out}")
    return 0


def _read_json(path: Path, what: str) -> Any:
    return read_json_or(
        path,
        missing=lambda: UserError(f"{what} is missing: {path}"),
        unreadable=lambda why: UserError(f"{what} cannot be read ({why}): {path}"),
    )


def _sim_folder(settings: Settings, sim_code: str) -> Path:
    storage = settings.paths.storage
    names = {p.name for p in storage.iterdir() if p.is_dir()} if storage.is_dir() else set()
    if sim_code not in names or sim_code.startswith("."):
        raise UserError(f"no simulation '{sim_code}' in {storage} — give the name of a folder there")
    return storage / sim_code


def persona_names(sim: Path, meta: dict) -> list[str]:
    """Folders under personas/ (like the original), else the names in meta.json."""
    folder = SimLayout(sim).personas_dir
    if folder.is_dir():
        names = sorted(p.name for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
        if names:
            return names
    listed = meta.get("persona_names")
    if isinstance(listed, list) and listed and all(isinstance(n, str) for n in listed):
        return listed
    raise UserError(f"{sim.name} has neither persona folders nor persona_names in its meta.json")


def master_movement(movement_dir: Path, names: list[str]) -> dict[str, dict]:
    """{"<step>": {name: {4 fields}}} with only the changes, for steps 0..last."""
    steps = sorted(int(p.stem) for p in movement_dir.glob("*.json") if STEP_FILE.fullmatch(p.name))
    if not steps:
        raise UserError(f"{movement_dir.parent.name} has no movement files — run the simulation first")
    first = steps[0]
    last_seen: dict[str, dict] = {}
    master: dict[str, dict] = {}
    for step in range(first):  # a run whose clock was moved forward: everyone as at its first step
        master[str(step)] = {}
    for step in range(first, steps[-1] + 1):
        path = movement_dir / f"{step}.json"
        if not path.is_file():
            raise UserError(f"movement/{step}.json is missing in {movement_dir.parent.name} — the run has a gap")
        data = _read_json(path, f"movement file of step {step}")
        personas = data.get("persona") if isinstance(data, dict) else None
        if not isinstance(personas, dict):
            raise UserError(f"movement/{step}.json of {movement_dir.parent.name} has no 'persona' object")
        changed = {}
        for name in names:
            rec = personas.get(name)
            if not isinstance(rec, dict):
                if step == first:
                    raise UserError(f"movement/{step}.json of {movement_dir.parent.name} has no entry for {name}")
                continue
            entry = {k: rec.get(k) for k in FIELDS}
            if last_seen.get(name) != entry:
                changed[name] = entry
                last_seen[name] = entry
        master[str(step)] = changed
    if first:  # the demo format lists everyone at step 0
        master["0"], master[str(first)] = master[str(first)], {}
    return master


def first_step(sim: Path) -> int:
    """The first step with a movement file (0 unless the clock was moved forward before the run)."""
    steps = [int(p.stem) for p in SimLayout(sim).movement_dir.glob("*.json") if STEP_FILE.fullmatch(p.name)]
    return min(steps, default=0)


def compress(settings: Settings, sim_code: str) -> Path:
    """Write compressed_storage/<sim_code>/ and return its path (an existing one is replaced)."""
    sim = _sim_folder(settings, sim_code)
    layout = SimLayout(sim)
    meta_path = layout.meta_path
    meta = _read_json(meta_path, META)
    if not isinstance(meta, dict):
        raise UserError(f"{meta_path} is not a JSON object")
    names = persona_names(sim, meta)
    master = master_movement(layout.movement_dir, names)

    root = settings.paths.compressed_storage
    root.mkdir(parents=True, exist_ok=True)
    target = root / sim_code
    work = Path(tempfile.mkdtemp(dir=root, prefix=f".{sim_code}.", suffix=".tmp"))
    try:
        write_json_atomic(work / "master_movement.json", master)
        shutil.copyfile(meta_path, work / "meta.json")
        if layout.personas_dir.is_dir():
            shutil.copytree(layout.personas_dir, work / PERSONAS)
        old = None
        if target.exists():
            old = root / f".{sim_code}.old-{os.getpid()}"
            os.replace(target, old)
        os.replace(work, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return target
