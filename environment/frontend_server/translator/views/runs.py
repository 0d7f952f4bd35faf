"""`/runs/` (every simulation) and `/runs/<sim>/` (its timeline, LLM accounting and evaluation as charts)."""

from __future__ import annotations

from django.shortcuts import render

from reverie.sim_layout import SimLayout, is_sim_name
from translator import charts, evaluation, experiment, ledger, markdown_lite
from translator.simfiles import BrokenFile, read_meta
from translator.sources import NotFound, compressed_sims, numbered_files, sim_dir, storage_sims
from translator.views.errors import page

MAX_TIMELINE_BYTES = 2 * 1024 * 1024


def shown_name(name: str) -> str:
    """A folder name as it is, with bytes that are not UTF-8 written as escapes (the page is UTF-8)."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def run_summary(sim_code: str) -> dict:
    """One row of /runs/; a folder the pages cannot open (an odd name) is listed without links."""
    row = {
        "sim_code": shown_name(sim_code),
        "openable": is_sim_name(sim_code),
        "meta": {},
        "personas": [],
        "first_step": None,
        "last_step": None,
        "n_steps": 0,
        "compressed": False,
        "has_ledger": False,
        "has_timeline": False,
    }
    if not row["openable"]:
        return row
    path = sim_dir(sim_code)
    try:
        meta = read_meta(path)
    except (NotFound, BrokenFile):
        meta = {}
    steps = sorted(numbered_files(SimLayout(path).movement_dir))
    return {
        **row,
        "meta": meta,
        "personas": [n for n in meta.get("persona_names", []) if isinstance(n, str)],
        "first_step": steps[0] if steps else None,
        "last_step": steps[-1] if steps else None,
        "n_steps": len(steps),
        "compressed": sim_code in compressed_sims(),
        "has_ledger": SimLayout(path).ledger_path.is_file(),
        "has_timeline": SimLayout(path).timeline_path.is_file(),
    }


@page
def runs_index(request):
    runs = [run_summary(s) for s in storage_sims()]
    only_compressed = [
        {"name": shown_name(s), "openable": is_sim_name(s)} for s in compressed_sims() if s not in storage_sims()
    ]
    return render(request, "runs/index.html", {"runs": runs, "only_compressed": only_compressed})


def ledger_charts(summary: dict) -> list:
    rows = summary["rows"]
    bins = summary["bins"]
    per = [
        charts.hbars("Calls per prompt", [(r["prompt"], [r["calls"]]) for r in rows], ["calls"]),
        charts.hbars(
            "Tokens per prompt",
            [(r["prompt"], [r["prompt_tokens"], r["completion_tokens"]]) for r in rows],
            ["prompt tokens", "completion tokens"],
        ),
        charts.hbars("Mean latency per call (s)", [(r["prompt"], [r["latency_mean"]]) for r in rows], ["seconds"]),
        charts.hbars(
            "Repairs and fallbacks per prompt",
            [(r["prompt"], [r["repairs"], r["fallbacks"]]) for r in rows],
            ["repair attempts", "fallbacks"],
        ),
    ]
    unit = summary["bin_unit"]
    over = [
        charts.columns(f"Calls over time ({unit})", [(b["label"], [b["calls"]]) for b in bins], ["calls"]),
        charts.columns(f"Tokens over time ({unit})", [(b["label"], [b["tokens"]]) for b in bins], ["tokens"]),
        charts.columns(f"Latency over time ({unit})", [(b["label"], [b["latency"]]) for b in bins], ["seconds"]),
        charts.columns(
            f"Repairs and fallbacks over time ({unit})",
            [(b["label"], [b["repairs"], b["fallbacks"]]) for b in bins],
            ["repair attempts", "fallbacks"],
        ),
    ]
    return per + over


@page
def run_detail(request, sim_code: str):
    run = run_summary(sim_code)
    path = sim_dir(sim_code)
    timeline = None
    tl = SimLayout(path).timeline_path
    if tl.is_file():
        with tl.open(encoding="utf-8", errors="replace") as fh:
            text = fh.read(MAX_TIMELINE_BYTES)
        timeline = markdown_lite.render(text)
    summary = ledger.summary(SimLayout(path).ledger_path)
    return render(
        request,
        "runs/detail.html",
        {
            "run": run,
            "timeline": timeline,
            "ledger": summary,
            "charts": ledger_charts(summary) if summary and summary["rows"] else [],
            "evaluation": evaluation.section(path),
            "traced": SimLayout(path).trace_path.is_file(),  # each call kept whole: /runs/<sim>/calls/
            "experiment": experiment.section(path),
        },
    )
