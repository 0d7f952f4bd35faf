"""The paper's information-diffusion experiment as a table: its figures beside this run's.

The paper's figures (§7.1) are :data:`reverie.evaluation.evaluation_report.PAPER`: over two game days
the candidacy went from 1 to 8 of 25 residents, the party from 1 to 13, the density of mutual
knowledge from 0.167 to 0.74; 12 were invited and 5 came; 6 of 453 answers were
hallucinated. This module reads an ``evaluation.json`` checkpoint into those figures (the
interviews by the paper's method, and beside them the same read from the memories) and lays
the two side by side.
"""

from __future__ import annotations

from reverie.evaluation.evaluation_metrics import METRICS
from reverie.evaluation.evaluation_report import PAPER, Checkpoint
from reverie.evaluation.metrics import MetricKey as K
from reverie.evaluation.metrics import Shown

PAPER_HOURS = 48


def paper_figures() -> dict:
    n = PAPER.residents
    return {
        K.CANDIDACY: [PAPER.candidacy[0] / n, PAPER.candidacy[1] / n],
        K.PARTY: [PAPER.party[0] / n, PAPER.party[1] / n],
        K.DENSITY: list(PAPER.density),
        K.INVITED: PAPER.invited,
        K.CAME: PAPER.came,
        "hallucinated": list(PAPER.hallucinated),
        "game_hours": PAPER_HOURS,
    }


def figures(checkpoint: dict | Checkpoint) -> dict:
    """One checkpoint -> the paper's figures (the metrics shown in ``experiment.json``): the
    interviews' and the memories' side by side."""
    cp = checkpoint if isinstance(checkpoint, Checkpoint) else Checkpoint.model_validate(checkpoint)
    return METRICS.collect(cp, Shown.EXPERIMENT)


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0%}"


def _num(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def table_lines(start: dict | None, end: dict | None, *, hours_run: float, hours_asked: int, model: str) -> list[str]:
    """The side-by-side table: the paper's before -> after, this run's start -> end (the
    interviews by the paper's method, and in brackets the memories)."""
    start, end, paper = start or {}, end or {}, paper_figures()
    short = hours_run < PAPER_HOURS
    head = (
        f"this run ({model}, {hours_run:g} game hours{' — SHORTER than the paper' + chr(39) + 's 48' if short else ''})"
    )
    rows = [("", "paper (2 game days)", head)]

    def fact(key: K, in_memory: K, label: str) -> tuple[str, str, str]:
        return (
            label,
            f"{_pct(paper[key][0])} -> {_pct(paper[key][1])}",
            f"{_pct(start.get(key))} -> {_pct(end.get(key))}  (in memory {_pct(start.get(in_memory))} "
            f"-> {_pct(end.get(in_memory))})",
        )

    rows.append(fact(K.CANDIDACY, K.CANDIDACY_IN_MEMORY, "candidacy known"))
    rows.append(fact(K.PARTY, K.PARTY_IN_MEMORY, "party known"))
    rows.append(
        (
            "density (mutual)",
            f"{paper[K.DENSITY][0]:.3f} -> {paper[K.DENSITY][1]:.2f}",
            f"{_num(start.get(K.DENSITY))} -> {_num(end.get(K.DENSITY))}  (in memory "
            f"{_num(start.get(K.DENSITY_IN_MEMORY))} -> {_num(end.get(K.DENSITY_IN_MEMORY))})",
        )
    )
    came = end.get(K.CAME)
    if end.get(K.WINDOW_REACHED) is False:
        came = "window not reached"
    elif end.get(K.AT_PARTY) is not None:
        came = f"{came}  ({end[K.AT_PARTY]} in the place during the party)"
    rows.append(
        ("party: invited / came", f"{paper[K.INVITED]} / {paper[K.CAME]}", f"{end.get(K.INVITED, 'n/a')} / {came}")
    )
    bad, of = paper["hallucinated"]
    rows.append(
        (
            "hallucinated answers",
            f"{bad / of:.1%} ({bad} of {of})",
            "n/a"
            if end.get(K.HALLUCINATIONS) is None
            else f"{end[K.HALLUCINATIONS]:.1%} ({end.get(K.HALLUCINATED_ANSWERS)})",
        )
    )
    for m in METRICS.shown_in(Shown.EXPERIMENT_TABLE):  # a figure the paper has not: start -> end
        rows.append((m.label, "", f"{m.unit.format(start.get(str(m.key)))} -> {m.unit.format(end.get(str(m.key)))}"))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    if hours_run < hours_asked:
        lines.append(f"(the run reached {hours_run:g} of the {hours_asked} game hours asked)")
    return lines


def meets(end: dict) -> dict[str, bool]:
    """The paper's after-figures reached by this run's end: from memory and from movement."""
    paper = paper_figures()

    def at_least(value: float | None, floor: float) -> bool:
        return value is not None and value >= floor - 1e-9

    return {
        K.CANDIDACY: at_least(end.get(K.CANDIDACY_IN_MEMORY), paper[K.CANDIDACY][1]),
        K.PARTY: at_least(end.get(K.PARTY_IN_MEMORY), paper[K.PARTY][1]),
        K.DENSITY: at_least(end.get(K.DENSITY_IN_MEMORY), paper[K.DENSITY][1]),
        K.CAME: at_least(end.get(K.AT_PARTY), paper[K.CAME]),
    }
