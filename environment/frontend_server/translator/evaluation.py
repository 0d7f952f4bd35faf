"""The evaluation section of `/runs/<sim>/`: what `python -m reverie evaluate` measured
(<sim>/evaluation.json, read as the typed figures of ``reverie.evaluation.evaluation_report``), as a
table and charts over its checkpoints (a column for every metric registered for the page),
the who-knows-whom graph of the latest one, and the paper's own figures to read them against."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from reverie.evaluation.evaluation_metrics import METRICS
from reverie.evaluation.evaluation_report import EVALUATION_FILE, Checkpoint, EvaluationFile, paper_line
from reverie.evaluation.metrics import Cell, Metric, Shown, Unit
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


def _table(checkpoints: list[Checkpoint]) -> tuple[list[str], list[dict]]:
    """The headers of the registered metrics' columns, and a row of cells per checkpoint."""
    metrics = METRICS.shown_in(Shown.RUN_PAGE)
    values = [[METRICS.value(m, c) for m in metrics] for c in checkpoints]
    columns: list[tuple[int, str | None, str]] = []  # (metric, its column or None, header)
    for i, m in enumerate(metrics):
        if m.unit is Unit.COLUMNS:  # a column per key, in the order the checkpoints name them
            keys = dict.fromkeys(k for row in values for k in (row[i] or {}))
            columns += [(i, k, f"{m.label}{k}") for k in keys]
        else:
            columns.append((i, None, m.label))

    def cell(m: Metric, value) -> Cell:
        if value is None:
            return Cell(m.missing)
        return value if isinstance(value, Cell) else Cell(m.unit.format(value))

    rows = [
        {
            "step": c.step,
            "time": c.time,
            "cells": [cell(metrics[i], row[i] if k is None else (row[i] or {}).get(k)) for i, k, _ in columns],
        }
        for c, row in zip(checkpoints, values)
    ]
    return [header for _, _, header in columns], rows


def section(sim_path: Path) -> dict | None:
    """None when the run was never evaluated; else the table, charts and the graph."""
    path = sim_path / EVALUATION_FILE
    if not path.is_file():
        return None
    try:
        checkpoints = _checkpoints(read_json(path))
    except BrokenFile as exc:
        return {"error": str(exc)}
    if not checkpoints:
        return {"error": f"{EVALUATION_FILE} has no checkpoints."}
    columns, rows = _table(checkpoints)
    facts = list(dict.fromkeys(d.fact for c in checkpoints for d in c.diffusion))
    label = [f"step {c.step}" for c in checkpoints]
    over = [
        charts.columns(
            "Relationship network density (both know of each other)",
            [(lab, [c.relationships.density]) for lab, c in zip(label, checkpoints)],
            ["density"],
        ),
    ]
    if facts:
        shares = [{d.fact: d.share for d in c.diffusion} for c in checkpoints]
        over.append(
            charts.columns(
                "Information diffusion (share of residents who know)",
                [(lab, [s.get(f, 0) for f in facts]) for lab, s in zip(label, shares)],
                facts,
                side_by_side=True,
                peak=1.0,
            )
        )
    last = checkpoints[-1]
    rel = last.relationships
    edges = [tuple(e) for e in rel.edges if len(e) == 2]
    graph = charts.graph(f"Who knows whom at step {last.step} ({rel.known_pairs} pairs)", last.personas, edges)
    return {"columns": columns, "rows": rows, "charts": over, "graph": graph, "paper": paper_line().strip()}
