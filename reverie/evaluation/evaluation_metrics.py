"""The evaluation's figures as metrics, registered once in :data:`METRICS`: what
``experiment.json`` and ``game_day.json`` carry for each checkpoint, the columns of the run
page's evaluation table, the rows ``evaluate`` prints (``reverie/evaluation/metrics.py`` says how).

A new figure is one more ``METRICS.register(metric(...))`` here: its key, label, unit, how
it is computed from a checkpoint of ``evaluation.json``, and where it is shown.

The paper's experiment (§7.1) seeds two facts: the candidacy and the party. The party is the
fact with an event (a place and a time window); the candidacy is the other one.
"""

from __future__ import annotations

from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal

from reverie.evaluation.evaluation_report import Checkpoint, Coordination, Diffusion
from reverie.evaluation.metrics import Cell, MetricRegistry, Shown, Unit, metric
from reverie.evaluation.metrics import MetricKey as K

METRICS = MetricRegistry()
EXPERIMENT, GAME_DAY, RUN_PAGE = Shown.EXPERIMENT, Shown.GAME_DAY, Shown.RUN_PAGE


def party(cp: Checkpoint) -> Diffusion | None:
    """The seeded fact that has an event."""
    events = {c.fact for c in cp.coordination}
    return next((d for d in cp.diffusion if d.fact in events), None)


def candidacy(cp: Checkpoint) -> Diffusion | None:
    """The first seeded fact that is not the party."""
    p = party(cp)
    return next((d for d in cp.diffusion if d is not p), None)


def event(cp: Checkpoint) -> Coordination | None:
    return cp.coordination[0] if cp.coordination else None


def with_reached(row: Coordination, time: str) -> Coordination:
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


def _share(d: Diffusion | None) -> float | None:
    return d.share if d else None


def _in_memory(d: Diffusion | None) -> float | None:
    return d.in_memory.share if d and d.in_memory else None


def _came(cp: Checkpoint) -> int | None:
    e = event(cp)
    return len(e.attended_invited) if e else None


def _came_once_reached(cp: Checkpoint) -> int | None:
    """The invited who came; None when there is no event or the run has not reached its window."""
    e = event(cp)
    return len(e.attended_invited) if e is not None and e.reached is not False else None


def fixed3(value: float) -> str:
    """Three decimals, halves rounded up (0.0625 -> 0.063), as the page has always written them."""
    return str(Decimal(str(value)).quantize(Decimal("0.001"), ROUND_HALF_UP))


def _density_cell(cp: Checkpoint) -> Cell:
    rel = cp.relationships
    text = fixed3(rel.density)
    if rel.sampled and rel.interval:
        text += f" (95 % interval {fixed3(rel.interval[0])}–{fixed3(rel.interval[1])})"
    notes = [f"both said yes: {fixed3(rel.said_yes.density)}"] if rel.said_yes else []
    notes += [f"in memory: {fixed3(rel.in_memory.density)}"] if rel.in_memory else []
    return Cell(text, tuple(notes))


def _pairs_cell(cp: Checkpoint) -> Cell:
    rel = cp.relationships
    asked = rel.pairs_asked or rel.pairs  # a sampled evaluation: out of the pairs asked
    text = f"{rel.known_pairs} / {asked}" + (f" asked, a sample of {rel.pairs}" if rel.sampled else "")
    notes = [f"both said yes: {rel.said_yes.known_pairs} / {asked}"] if rel.said_yes else []
    notes += [f"in memory: {rel.in_memory.known_pairs} / {rel.in_memory.pairs}"] if rel.in_memory else []
    return Cell(text, tuple(notes))


def _knowing_cells(cp: Checkpoint) -> dict[str, Cell]:
    cells = {}
    for d in cp.diffusion:
        notes = [f"said yes: {d.said_yes.count}, {len(d.unsupported)} with no memory of it"] if d.said_yes else []
        notes += [f"in memory: {d.in_memory.count} / {d.in_memory.total}"] if d.in_memory else []
        cells[d.fact] = Cell(f"{d.count} / {d.total}", tuple(notes))
    return cells


def _events_text(cp: Checkpoint) -> str | None:
    parts = []
    for row in (with_reached(r, cp.time) for r in cp.coordination):
        if row.reached is False:
            parts.append(f"not reached yet ({len(row.invited)} invited)")
            continue
        came = f"{len(row.invited)} invited, {len(row.attended)} came ({len(row.attended_invited)} of those invited)"
        parts.append(came + (f": {', '.join(row.attended)}" if row.attended else ""))
    return "; ".join(parts) or None


def _unsupported_text(cp: Checkpoint) -> str | None:
    h = cp.hallucinations
    return f"{h.unsupported} of {h.answers} answers ({h.percent})" if h else None


# The order of registration is the order of the files' keys and of the page's columns.
METRICS.register(
    metric(
        K.FACTS,
        "knowing each seeded fact",
        Unit.DATA,
        lambda cp: {d.fact: {"count": d.count, "total": d.total, "share": d.share} for d in cp.diffusion},
        GAME_DAY,
    )
)
METRICS.register(metric(K.CANDIDACY, "candidacy known", Unit.SHARE, lambda cp: _share(candidacy(cp)), EXPERIMENT))
METRICS.register(
    metric(
        K.CANDIDACY_IN_MEMORY, "candidacy held in memory", Unit.SHARE, lambda cp: _in_memory(candidacy(cp)), EXPERIMENT
    )
)
METRICS.register(metric(K.PARTY, "party known", Unit.SHARE, lambda cp: _share(party(cp)), EXPERIMENT))
METRICS.register(
    metric(K.PARTY_IN_MEMORY, "party held in memory", Unit.SHARE, lambda cp: _in_memory(party(cp)), EXPERIMENT)
)
METRICS.register(
    metric(K.DENSITY, "density (mutual)", Unit.RATIO, lambda cp: cp.relationships.density, EXPERIMENT, GAME_DAY)
)
METRICS.register(
    metric(
        K.DENSITY_IN_MEMORY,
        "density in memory",
        Unit.RATIO,
        lambda cp: cp.relationships.in_memory.density if cp.relationships.in_memory else None,
        EXPERIMENT,
    )
)
METRICS.register(
    metric(
        K.INVITED,
        "party: invited",
        Unit.COUNT,
        lambda cp: len(e.invited) if (e := event(cp)) else None,
        EXPERIMENT,
        GAME_DAY,
    )
)
METRICS.register(metric(K.CAME, "party: the invited who came", Unit.COUNT, _came, EXPERIMENT))
METRICS.register(
    metric(K.CAME, "party: the invited who came, once its window is reached", Unit.COUNT, _came_once_reached, GAME_DAY)
)
METRICS.register(
    metric(
        K.AT_PARTY,
        "party: in the place during its window",
        Unit.COUNT,
        lambda cp: len(e.attended) if (e := event(cp)) else None,
        EXPERIMENT,
    )
)
METRICS.register(
    metric(
        K.WINDOW_REACHED,
        "party: window reached",
        Unit.FLAG,
        lambda cp: e.reached if (e := event(cp)) else None,
        EXPERIMENT,
    )
)
METRICS.register(
    metric(
        K.HALLUCINATIONS,
        "hallucinations",
        Unit.RATE,
        lambda cp: cp.hallucinations.rate if cp.hallucinations else None,
        EXPERIMENT,
    )
)
METRICS.register(
    metric(
        K.HALLUCINATIONS,
        "answers said yes with no memory of it",
        Unit.DATA,
        lambda cp: cp.hallucinations.model_dump(mode="json") if cp.hallucinations else None,
        GAME_DAY,
    )
)
METRICS.register(
    metric(
        K.HALLUCINATED_ANSWERS,
        "hallucinated answers",
        Unit.TEXT,
        lambda cp: f"{h.unsupported} of {h.answers}" if (h := cp.hallucinations) else None,
        EXPERIMENT,
    )
)
# The columns of the run page's evaluation table, after its step and game time.
METRICS.register(metric(K.DENSITY, "Density", Unit.CELL, _density_cell, RUN_PAGE))
METRICS.register(metric(K.KNOWN_PAIRS, "Pairs who know each other", Unit.CELL, _pairs_cell, RUN_PAGE))
METRICS.register(metric(K.FACTS, "Know: ", Unit.COLUMNS, _knowing_cells, RUN_PAGE, missing="– / –"))
METRICS.register(metric(K.EVENTS, "Invited and came", Unit.TEXT, _events_text, RUN_PAGE))
METRICS.register(metric(K.UNSUPPORTED, "Yes with no memory of it", Unit.TEXT, _unsupported_text, RUN_PAGE))
