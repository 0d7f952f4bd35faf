"""Reading the simulation's files (the original storage layout) for the pages."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from reverie.clock import TIME_FMT
from reverie.jsonio import read_json_or
from reverie.sim_layout import SimLayout
from translator.sources import NotFound, numbered_files, paths, sim_dir, storage_sims

TIME_FORMATS = (TIME_FMT, "%B %d, %Y %H:%M:%S", "%Y-%m-%d %H:%M:%S")


class BrokenFile(Exception):
    """A file that exists but cannot be read as the JSON we expect."""


def read_json(path: Path):
    return read_json_or(
        path,
        missing=lambda: NotFound(f"{path.name} is missing in {path.parent.name}."),
        unreadable=lambda why: BrokenFile(f"{path.parent.name}/{path.name} cannot be read ({why})."),
    )


def read_meta(sim_path: Path) -> dict:
    """reverie/meta.json of a storage simulation, or meta.json of a compressed one."""
    for candidate in (SimLayout(sim_path).meta_path, sim_path / "meta.json"):
        if candidate.is_file():
            meta = read_json(candidate)
            if not isinstance(meta, dict):
                raise BrokenFile(f"{candidate.name} of {sim_path.name} is not a JSON object.")
            return meta
    raise NotFound(f"{sim_path.name} has no meta.json.")


def parse_time(text) -> datetime | None:
    if not isinstance(text, str):
        return None
    for fmt in TIME_FORMATS:
        try:
            return datetime.strptime(text.strip(), fmt)
        except ValueError:
            continue
    return None


def step_clock(meta: dict, step: int) -> datetime | None:
    """start_date 00:00:00 + step x sec_per_step (how the demo computes the time)."""
    start = parse_time(f"{meta.get('start_date', '')}, 00:00:00")
    sec = meta.get("sec_per_step", 10)
    if start is None or not isinstance(sec, (int, float)):
        return None
    return start + timedelta(seconds=step * sec)


def positions(env: dict, names: list[str]) -> dict[str, list[int]]:
    """{name: [x, y]} from an environment/<step>.json object."""
    out = {}
    for name in names:
        rec = env.get(name) if isinstance(env, dict) else None
        if isinstance(rec, dict) and isinstance(rec.get("x"), int) and isinstance(rec.get("y"), int):
            out[name] = [rec["x"], rec["y"]]
    return out


def current_simulation() -> tuple[str, int] | None:
    """(sim_code, step) announced by a running simulation server in temp_storage, or None."""
    temp = paths().temp_storage
    code_file, step_file = temp / "curr_sim_code.json", temp / "curr_step.json"
    if not code_file.is_file() or not step_file.is_file():
        return None
    try:
        code = read_json(code_file).get("sim_code")
        step = read_json(step_file).get("step")
    except (NotFound, BrokenFile, AttributeError):
        return None
    if not isinstance(code, str) or code not in storage_sims():
        return None
    if not isinstance(step, int) or isinstance(step, bool) or step < 0:
        return None
    return code, step


def live_start(sim_code: str, announced: int) -> int:
    """The step the live page should wait for: the newest environment file (a reload resumes)."""
    envs = numbered_files(SimLayout(sim_dir(sim_code)).environment_dir)
    newest = max(envs) if envs else announced
    return max(announced, newest)


def movement(sim_path: Path, step: int) -> dict | None:
    path = numbered_files(SimLayout(sim_path).movement_dir).get(step)
    if path is None:
        return None
    data = read_json(path)
    if not isinstance(data, dict):
        raise BrokenFile(f"movement/{step}.json of {sim_path.name} is not a JSON object.")
    return data
