"""Loading a persona's saved state (scratch, spatial memory, associative memory) for display."""

from __future__ import annotations

from pathlib import Path

from reverie.sim_layout import BOOTSTRAP_MEMORY, SCRATCH
from translator.simfiles import read_json, read_meta

NODE_TYPES = ("event", "chat", "thought")


def hhmm(minutes: int) -> str:
    return f"{(minutes // 60) % 24:02d}:{minutes % 60:02d}"


def schedule(entries) -> list[dict]:
    """f_daily_schedule [[activity, minutes], ...] -> rows with start time and duration."""
    rows, clock = [], 0
    for item in entries or []:
        if not (isinstance(item, (list, tuple)) and len(item) == 2):
            continue
        activity, minutes = item
        if not isinstance(minutes, (int, float)):
            continue
        rows.append({"start": hhmm(int(clock)), "activity": str(activity), "minutes": int(minutes)})
        clock += minutes
    return rows


def nodes_by_type(nodes) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {t: [] for t in NODE_TYPES}
    if not isinstance(nodes, dict):
        return out
    for node_id, node in nodes.items():
        if not isinstance(node, dict) or node.get("type") not in out:
            continue
        filling = node.get("filling")
        if isinstance(filling, str):
            filling = [filling]
        row = dict(node, id=node_id, filling=filling if isinstance(filling, list) else [])
        if node.get("type") == "chat":
            row["lines"] = [f for f in row["filling"] if isinstance(f, list) and len(f) == 2]
        out[node["type"]].append(row)
    for rows in out.values():
        rows.sort(key=lambda r: r.get("node_count") if isinstance(r.get("node_count"), int) else 0, reverse=True)
    return out


def load(persona_dir: Path) -> dict:
    memory = persona_dir / BOOTSTRAP_MEMORY
    scratch = read_json(memory / SCRATCH)
    if not isinstance(scratch, dict):
        scratch = {}
    nodes_file = memory / "associative_memory" / "nodes.json"
    nodes = read_json(nodes_file) if nodes_file.is_file() else {}
    spatial_file = memory / "spatial_memory.json"
    spatial = read_json(spatial_file) if spatial_file.is_file() else {}
    req = scratch.get("daily_req")
    return {
        "scratch": scratch,
        "daily_req": req if isinstance(req, list) else [],
        "schedule": schedule(scratch.get("f_daily_schedule")),
        "hourly": schedule(scratch.get("f_daily_schedule_hourly_org")),
        "memory": nodes_by_type(nodes),
        "spatial": spatial if isinstance(spatial, dict) else {},
    }


def sim_time(sim_path: Path) -> str | None:
    try:
        return read_meta(sim_path).get("curr_time")
    except Exception:  # meta is optional for this page
        return None
