"""The paper's information-diffusion experiment as a table: its figures beside this run's.

The paper's figures (§7.1) are :data:`reverie.evaluation_report.PAPER`: over two game days
the candidacy went from 1 to 8 of 25 residents, the party from 1 to 13, the density of mutual
knowledge from 0.167 to 0.74; 12 were invited and 5 came; 6 of 453 answers were
hallucinated. This module reads an ``evaluation.json`` checkpoint into those figures (the
interviews by the paper's method, and beside them the same read from the memories) and lays
the two side by side.
"""

from __future__ import annotations

from reverie.evaluation_report import PAPER, Checkpoint

PAPER_HOURS = 48


def paper_figures() -> dict:
    n = PAPER.residents
    return {"candidacy": [PAPER.candidacy[0] / n, PAPER.candidacy[1] / n], "party": [PAPER.party[0] / n, PAPER.party[1] / n],
            "density": list(PAPER.density), "invited": PAPER.invited, "came": PAPER.came,
            "hallucinated": list(PAPER.hallucinated), "game_hours": PAPER_HOURS}


def figures(checkpoint: dict | Checkpoint) -> dict:
    """One checkpoint -> the paper's figures: the interviews' and the memories' side by side."""
    cp = checkpoint if isinstance(checkpoint, Checkpoint) else Checkpoint.model_validate(checkpoint)
    events = {c.fact for c in cp.coordination}
    party = next((d for d in cp.diffusion if d.fact in events), None)
    candidacy = next((d for d in cp.diffusion if d is not party), None)
    event = cp.coordination[0] if cp.coordination else None
    rel = cp.relationships
    hall = cp.hallucinations
    return {
        "step": cp.step, "time": cp.time,
        "candidacy": candidacy.share if candidacy else None,
        "candidacy_in_memory": candidacy.in_memory.share if candidacy and candidacy.in_memory else None,
        "party": party.share if party else None,
        "party_in_memory": party.in_memory.share if party and party.in_memory else None,
        "density": rel.density, "density_in_memory": rel.in_memory.density if rel.in_memory else None,
        "invited": len(event.invited) if event else None,
        "came": len(event.attended_invited) if event else None,          # the invited who came (the paper's 5)
        "at_party": len(event.attended) if event else None,              # everyone in the place in the window
        "window_reached": event.reached if event else None,
        "hallucinations": hall.rate if hall else None,
        "hallucinated_answers": f"{hall.unsupported} of {hall.answers}" if hall else None,
    }


def _pct(value) -> str:
    return "n/a" if value is None else f"{value:.0%}"


def _num(value, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def table_lines(start: dict | None, end: dict | None, *, hours_run: float, hours_asked: int, model: str) -> list[str]:
    """The side-by-side table: the paper's before -> after, this run's start -> end (the
    interviews by the paper's method, and in brackets the memories)."""
    start, end, paper = start or {}, end or {}, paper_figures()
    short = hours_run < PAPER_HOURS
    head = f"this run ({model}, {hours_run:g} game hours{' — SHORTER than the paper' + chr(39) + 's 48' if short else ''})"
    rows = [("", "paper (2 game days)", head)]

    def fact(key: str, label: str) -> tuple[str, str, str]:
        return (label, f"{_pct(paper[key][0])} -> {_pct(paper[key][1])}",
                f"{_pct(start.get(key))} -> {_pct(end.get(key))}  (in memory {_pct(start.get(key + '_in_memory'))} "
                f"-> {_pct(end.get(key + '_in_memory'))})")

    rows.append(fact("candidacy", "candidacy known"))
    rows.append(fact("party", "party known"))
    rows.append(("density (mutual)", f"{paper['density'][0]:.3f} -> {paper['density'][1]:.2f}",
                 f"{_num(start.get('density'))} -> {_num(end.get('density'))}  (in memory "
                 f"{_num(start.get('density_in_memory'))} -> {_num(end.get('density_in_memory'))})"))
    came = end.get("came")
    if end.get("window_reached") is False:
        came = "window not reached"
    elif end.get("at_party") is not None:
        came = f"{came}  ({end['at_party']} in the place during the party)"
    rows.append(("party: invited / came", f"{paper['invited']} / {paper['came']}", f"{end.get('invited', 'n/a')} / {came}"))
    bad, of = paper["hallucinated"]
    rows.append(("hallucinated answers", f"{bad / of:.1%} ({bad} of {of})",
                 "n/a" if end.get("hallucinations") is None else
                 f"{end['hallucinations']:.1%} ({end.get('hallucinated_answers')})"))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    if hours_run < hours_asked:
        lines.append(f"(the run reached {hours_run:g} of the {hours_asked} game hours asked)")
    return lines


def meets(end: dict) -> dict[str, bool]:
    """The paper's after-figures reached by this run's end: from memory and from movement."""
    paper = paper_figures()

    def at_least(value, floor) -> bool:
        return value is not None and value >= floor - 1e-9
    return {
        "candidacy": at_least(end.get("candidacy_in_memory"), paper["candidacy"][1]),
        "party": at_least(end.get("party_in_memory"), paper["party"][1]),
        "density": at_least(end.get("density_in_memory"), paper["density"][1]),
        "came": at_least(end.get("at_party"), paper["came"]),
    }
