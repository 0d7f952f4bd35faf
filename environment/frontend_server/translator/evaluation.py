"""The evaluation section of `/runs/<sim>/`: what `python -m reverie evaluate` measured
(<sim>/evaluation.json, read as the typed figures of ``reverie.evaluation_report``), as a
table and charts over its checkpoints (a column for every metric registered for the page),
the who-knows-whom graph of the latest one, and the paper's own figures to read them against."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from reverie.evaluation_metrics import METRICS
from reverie.evaluation_report import EVALUATION_FILE, Checkpoint, EvaluationFile, paper_line
from reverie.metrics import Metric, Shown
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


def _cell(m: Metric, checkpoint: Checkpoint) -> str:
    value = METRICS.value(m, checkpoint)
    return "–" if value is None else m.unit.format(value)


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
    columns = METRICS.shown_in(Shown.RUN_PAGE)
    rows = []
    for c in checkpoints:
        shares = {d.fact: d for d in c.diffusion}
        rows.append({
            "step": c.step, "time": c.time, "personas": len(c.personas), "rel": c.relationships,
            # a sampled evaluation: the known pairs are out of the pairs asked, the density an estimate
            "pairs": c.relationships.pairs_asked or c.relationships.pairs,
            "diffusion": [shares.get(f) for f in facts],
            "metrics": [_cell(m, c) for m in columns],   # the registered metrics' columns
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
    return {"facts": facts, "columns": [m.label for m in columns], "rows": rows, "charts": over, "graph": graph, "last": last,
            "paper": paper_line().strip()}
