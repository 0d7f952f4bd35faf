"""The evaluation section of `/runs/<sim>/`: what `python -m reverie evaluate` measured
(<sim>/evaluation.json), as a table and charts over its checkpoints and the who-knows-whom
graph of the latest one."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from translator import charts
from translator.simfiles import BrokenFile, read_json

EVALUATION_FILE = "evaluation.json"


def _checkpoints(data) -> list[dict]:
    if not isinstance(data, dict) or not isinstance(data.get("checkpoints"), list):
        raise BrokenFile(f"{EVALUATION_FILE} has no list of checkpoints.")
    rows = [c for c in data["checkpoints"] if isinstance(c, dict) and isinstance(c.get("step"), int)]
    return sorted(rows, key=lambda c: c["step"])


def _with_reached(row: dict, time: str) -> dict:
    """An event row with ``reached``: whether the checkpoint's time is past the window's start
    (files written before ``evaluate`` recorded it carry only the two times)."""
    if not isinstance(row, dict) or "reached" in row:
        return row
    try:
        at = datetime.strptime(time, "%B %d, %Y, %H:%M:%S")
        opens = datetime.strptime(row["window"][0], "%B %d, %Y, %H:%M")
    except (KeyError, IndexError, TypeError, ValueError):
        return row
    return {**row, "reached": at >= opens}


def section(sim_path: Path) -> dict | None:
    """None when the run was never evaluated; else rows, charts and the graph."""
    path = sim_path / EVALUATION_FILE
    if not path.is_file():
        return None
    try:
        checkpoints = _checkpoints(read_json(path))
    except BrokenFile as exc:
        return {"error": str(exc)}
    if not checkpoints:
        return {"error": f"{EVALUATION_FILE} has no checkpoints."}
    facts = list(dict.fromkeys(d.get("fact", "?") for c in checkpoints for d in c.get("diffusion", [])))
    rows = []
    for c in checkpoints:
        rel = c.get("relationships") or {}
        shares = {d.get("fact"): d for d in c.get("diffusion", [])}
        rows.append({
            "step": c["step"], "time": c.get("time", ""), "personas": len(c.get("personas", [])),
            "density": rel.get("density"), "known_pairs": rel.get("known_pairs"),
            # a sampled evaluation: the known pairs are out of the pairs asked, the density an estimate
            "pairs": rel.get("pairs_asked") or rel.get("pairs"), "sampled": bool(rel.get("sampled")),
            "all_pairs": rel.get("pairs"), "interval": rel.get("interval"),
            # the same read from the memories, no model (files written before it lack it)
            "memory": rel.get("in_memory") if isinstance(rel.get("in_memory"), dict) else None,
            "diffusion": [shares.get(f, {}) for f in facts],
            "coordination": [_with_reached(row, c.get("time", "")) for row in c.get("coordination", [])],
        })
    label = [f"step {c['step']}" for c in checkpoints]
    over = [
        charts.columns("Relationship network density", [(lab, [r["density"] or 0]) for lab, r in zip(label, rows)],
                       ["density"]),
    ]
    if facts:
        over.append(charts.columns(
            "Information diffusion (share of residents who know)",
            [(lab, [(d.get("share") or 0) for d in r["diffusion"]]) for lab, r in zip(label, rows)], facts,
            side_by_side=True, peak=1.0))
    last = checkpoints[-1]
    rel = last.get("relationships") or {}
    edges = [tuple(e) for e in rel.get("edges", []) if isinstance(e, list) and len(e) == 2]
    graph = charts.graph(f"Who knows whom at step {last['step']} ({rel.get('known_pairs', 0)} pairs)",
                         [n for n in last.get("personas", []) if isinstance(n, str)], edges)
    return {"facts": facts, "rows": rows, "charts": over, "graph": graph, "last": last}
