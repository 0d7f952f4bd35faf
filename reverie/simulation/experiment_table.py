"""The paper's information-diffusion experiment as a table: its figures beside this run's.

The paper (§7.1): over two game days, the candidacy went from 1 to 8 of 25 residents (4 % ->
32 %), the party from 1 to 13 (4 % -> 52 %), the density of mutual knowledge from 0.167 to
0.74; 12 were invited and 5 came; 6 of 453 answers (1.3 %) were hallucinated. This module
reads an ``evaluation.json`` checkpoint into those figures and lays the two side by side.
"""

from __future__ import annotations

PAPER = {
    "candidacy": {"before": 0.04, "after": 0.32},
    "party": {"before": 0.04, "after": 0.52},
    "density": {"before": 0.167, "after": 0.74},
    "invited": 12, "came": 5,
    "hallucinations": {"count": 6, "answers": 453, "share": 0.013},
    "game_hours": 48,
}


def _share(row: dict | None, memory: bool = False) -> float | None:
    if not row:
        return None
    part = row.get("in_memory") if memory else row
    return None if not isinstance(part, dict) or part.get("share") is None else float(part["share"])


def figures(checkpoint: dict) -> dict:
    """One checkpoint -> the paper's figures: the interviews' and the memories' side by side."""
    rows = checkpoint.get("diffusion") or []
    with_event = {row.get("fact") for row in checkpoint.get("coordination") or []}
    party = next((r for r in rows if r.get("fact") in with_event), None)
    candidacy = next((r for r in rows if r is not party), None)
    rel = checkpoint.get("relationships") or {}
    coordination = (checkpoint.get("coordination") or [{}])[0] if checkpoint.get("coordination") else {}
    hallucinated = checkpoint.get("hallucinations") or {}
    return {
        "step": checkpoint.get("step"), "time": checkpoint.get("time"),
        "candidacy": _share(candidacy), "candidacy_in_memory": _share(candidacy, memory=True),
        "party": _share(party), "party_in_memory": _share(party, memory=True),
        "density": rel.get("density"), "density_in_memory": (rel.get("in_memory") or {}).get("density"),
        "invited": len(coordination.get("invited") or []) if coordination else None,
        "came": len(coordination.get("attended") or []) if coordination else None,
        "window_reached": coordination.get("reached") if coordination else None,
        "hallucinations": hallucinated.get("share") if isinstance(hallucinated, dict) else None,
        "hallucinated_answers": hallucinated.get("count") if isinstance(hallucinated, dict) else None,
    }


def _pct(value) -> str:
    return "n/a" if value is None else f"{value:.0%}"


def _num(value, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def table_lines(start: dict | None, end: dict | None, *, hours_run: float, hours_asked: int, model: str) -> list[str]:
    """The side-by-side table: the paper's before -> after, this run's start -> end (interviews,
    and in brackets the memories)."""
    start, end = start or {}, end or {}
    short = hours_run < PAPER["game_hours"]
    head = f"this run ({model}, {hours_run:g} game hours{' — SHORTER than the paper' + chr(39) + 's 48' if short else ''})"
    rows = [("", "paper (2 game days)", head)]

    def fact(key: str, label: str) -> tuple[str, str, str]:
        paper = PAPER[key]
        return (label, f"{_pct(paper['before'])} -> {_pct(paper['after'])}",
                f"{_pct(start.get(key))} -> {_pct(end.get(key))}  (in memory {_pct(start.get(key + '_in_memory'))} "
                f"-> {_pct(end.get(key + '_in_memory'))})")

    rows.append(fact("candidacy", "candidacy known"))
    rows.append(fact("party", "party known"))
    paper = PAPER["density"]
    rows.append(("density (mutual)", f"{paper['before']:.3f} -> {paper['after']:.2f}",
                 f"{_num(start.get('density'))} -> {_num(end.get('density'))}  (in memory "
                 f"{_num(start.get('density_in_memory'))} -> {_num(end.get('density_in_memory'))})"))
    came = end.get("came")
    if end.get("window_reached") is False:
        came = "window not reached"
    rows.append(("party: invited / came", f"{PAPER['invited']} / {PAPER['came']}", f"{end.get('invited', 'n/a')} / {came}"))
    h = PAPER["hallucinations"]
    rows.append(("hallucinated answers", f"{h['share']:.1%} ({h['count']} of {h['answers']})",
                 "n/a" if end.get("hallucinations") is None else
                 f"{end['hallucinations']:.1%} ({end.get('hallucinated_answers')})"))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    if hours_run < hours_asked:
        lines.append(f"(the run reached {hours_run:g} of the {hours_asked} game hours asked)")
    return lines


def meets(end: dict) -> dict[str, bool]:
    """The paper's after-figures reached by this run's end: from memory and from movement."""
    def at_least(value, floor) -> bool:
        return value is not None and value >= floor
    return {
        "candidacy": at_least(end.get("candidacy_in_memory"), PAPER["candidacy"]["after"]),
        "party": at_least(end.get("party_in_memory"), PAPER["party"]["after"]),
        "density": at_least(end.get("density_in_memory"), PAPER["density"]["after"]),
        "came": at_least(end.get("came"), PAPER["came"]),
    }
