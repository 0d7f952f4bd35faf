"""`/runs/<sim>/calls/` (a run's traced model calls, filtered) and `/runs/<sim>/calls/<n>/` (one call whole)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from django.shortcuts import render

from reverie.sim_layout import SimLayout
from translator import calls
from translator.sources import NotFound, sim_dir
from translator.views.errors import page


@page
def call_list(request, sim_code: str):
    path = SimLayout(sim_dir(sim_code)).trace_path
    filters = calls.Filters.of(request.GET)
    try:
        number = max(int(request.GET.get("page", "1")), 1)
    except ValueError:
        number = 1
    found = calls.listing(path, filters, number)
    kept = {k: v for k, v in request.GET.items() if k != "page" and v}
    return render(
        request,
        "runs/calls.html",
        {
            "sim_code": sim_code,
            "found": found,
            "filters": filters,
            "outcomes": calls.OUTCOMES,
            "query": urlencode(kept),
            "after": request.GET.get("from", ""),
            "before": request.GET.get("to", ""),
        },
    )


@page
def call_detail(request, sim_code: str, number: int):
    call = calls.call_at(SimLayout(sim_dir(sim_code)).trace_path, number)
    if call is None:
        raise NotFound(f"This run has no traced call number {number}. Pick one from its calls page.")
    value = call.get("value")
    return render(
        request,
        "runs/call.html",
        {
            "sim_code": sim_code,
            "number": number,
            "call": call,
            "value": json.dumps(value, indent=2, ensure_ascii=False),
            "inputs": json.dumps(call.get("inputs"), indent=2, ensure_ascii=False),
            "choices": json.dumps(call.get("choices"), indent=2, ensure_ascii=False) if call.get("choices") else "",
        },
    )
