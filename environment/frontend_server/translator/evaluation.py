"""The evaluation section of `/runs/<sim>/`: what `python -m reverie evaluate` measured
(<sim>/evaluation.json, read as the typed figures of ``reverie.evaluation_report``), as a
table and charts over its checkpoints, the who-knows-whom graph of the latest one, and the
paper's own figures to read them against."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from pydantic import ValidationError

from reverie.evaluation_report import EVALUATION_FILE, Checkpoint, Coordination, EvaluationFile, paper_line
from translator import charts
from translator.simfiles import BrokenFile, read_json


def _checkpoints(data) -> list[Checkpoint]:
    if not isinstance(data, dict) or not isinstance(data.get("checkpoints"), list):
        raise BrokenFile(f"{EVALUATION_FILE} has no list of checkpoints.")
    try:
        parsed = EvaluationFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BrokenFile(f"{EVALUATION_FILE} cannot be read: {where}: {first['msg']}.") from None
    return sorted(parsed.checkpoints, key=lambda c: c.step)


def _with_reached(row: Coordination, time: str) -> Coordination:
    """An event row with ``reached``: whether the checkpoint's time is past the window's start
    (files written before ``evaluate`` recorded it carry only the two times)."""
    if row.reached is not None:
        return row
    try:
        at = datetime.strptime(time, "%B %d, %Y, %H:%M:%S")
        opens = datetime.strptime(row.window[0], "%B %d, %Y, %H:%M")
    except (IndexError, ValueError):
        return row
    return row.model_copy(update={"reached": at >= opens})


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
    facts = list(dict.fromkeys(d.fact for c in checkpoints for d in c.diffusion))
    rows = []
    for c in checkpoints:
        shares = {d.fact: d for d in c.diffusion}
        rows.append({
            "step": c.step, "time": c.time, "personas": len(c.personas), "rel": c.relationships,
            # a sampled evaluation: the known pairs are out of the pairs asked, the density an estimate
            "pairs": c.relationships.pairs_asked or c.relationships.pairs,
            "diffusion": [shares.get(f) for f in facts],
            "coordination": [_with_reached(row, c.time) for row in c.coordination],
            "hallucinations": c.hallucinations,
        })
    label = [f"step {c.step}" for c in checkpoints]
    over = [
        charts.columns("Relationship network density (both know of each other)",
                       [(lab, [r["rel"].density]) for lab, r in zip(label, rows)], ["density"]),
    ]
    if facts:
        over.append(charts.columns(
            "Information diffusion (share of residents who know)",
            [(lab, [(d.share if d else 0) for d in r["diffusion"]]) for lab, r in zip(label, rows)], facts,
            side_by_side=True, peak=1.0))
    last = checkpoints[-1]
    rel = last.relationships
    edges = [tuple(e) for e in rel.edges if len(e) == 2]
    graph = charts.graph(f"Who knows whom at step {last.step} ({rel.known_pairs} pairs)", last.personas, edges)
    return {"facts": facts, "rows": rows, "charts": over, "graph": graph, "last": last,
            "paper": paper_line().strip()}
