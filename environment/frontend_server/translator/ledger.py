"""Summing the LLM ledger (<sim>/reverie/llm_calls.jsonl: one JSON object per model call)."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import datetime, timedelta
from pathlib import Path

from reverie.jsonio import jsonl_lines
from translator.simfiles import parse_time

BIN_MINUTES = (1, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440, 2880, 10080)
MAX_BINS = 72


def _num(value) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def read(path: Path) -> tuple[list[dict], int]:
    """(records, number of unreadable lines)."""
    records, bad = [], 0
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return [], 0
    for _line, rec in jsonl_lines(text):
        if isinstance(rec, dict) and isinstance(rec.get("prompt"), str):
            records.append(rec)
        else:
            bad += 1
    return records, bad


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def per_prompt(records: list[dict]) -> list[dict]:
    groups: dict[str, list[dict]] = defaultdict(list)
    for rec in records:
        groups[rec["prompt"]].append(rec)
    rows = []
    for prompt, recs in groups.items():
        lat = [_num(r.get("latency_s")) for r in recs]
        attempts = [max(int(_num(r.get("attempts")) or 1), 1) for r in recs]
        rows.append(
            {
                "prompt": prompt,
                "role": recs[0].get("role") or "",
                "calls": len(recs),
                "prompt_tokens": int(sum(_num(r.get("prompt_tokens")) for r in recs)),
                "completion_tokens": int(sum(_num(r.get("completion_tokens")) for r in recs)),
                "latency_total": sum(lat),
                "latency_mean": sum(lat) / len(lat),
                "latency_p95": _percentile(lat, 0.95),
                "repairs": sum(a - 1 for a in attempts),
                "repaired_calls": sum(1 for a in attempts if a > 1),
                "fallbacks": sum(1 for r in recs if r.get("fallback") is True),
                "trimmed_tokens": int(sum(_num(r.get("trimmed_tokens")) for r in recs)),
                "trimmed_calls": sum(1 for r in recs if _num(r.get("trimmed_tokens")) > 0),
            }
        )
    rows.sort(key=lambda r: (-r["calls"], r["prompt"]))
    for row in rows:
        row["tokens"] = row["prompt_tokens"] + row["completion_tokens"]
    return rows


def _when(rec: dict) -> datetime | None:
    return parse_time(rec.get("game_time"))


def over_time(records: list[dict]) -> tuple[str, list[dict]]:
    """(bin description, [{label, calls, tokens, repairs, fallbacks, latency}]) over game time.

    Records without a readable game time are binned by step instead.
    """
    timed = [(t, r) for r in records if (t := _when(r)) is not None]
    if timed:
        first = min(t for t, _ in timed).replace(second=0)
        end = max(t for t, _ in timed)
        span_min = (end - first).total_seconds() / 60 + 1
        minutes = next((m for m in BIN_MINUTES if span_min / m <= MAX_BINS), BIN_MINUTES[-1])
        start = (
            first.replace(hour=0, minute=0) + timedelta(minutes=((first.hour * 60 + first.minute) // minutes) * minutes)
            if minutes <= 1440
            else first
        )
        size = timedelta(minutes=minutes)
        nbins = int((end - start) / size) + 1
        bins = [_empty((start + i * size).strftime("%b %d %H:%M")) for i in range(nbins)]
        for t, rec in timed:
            _add(bins[int((t - start) / size)], rec)
        unit = f"{minutes // 60} h" if minutes % 60 == 0 else f"{minutes} min"
        return f"game time, {unit} per bar", bins
    steps = [int(_num(r.get("step"))) for r in records]
    if not steps:
        return "no calls", []
    lo, hi = min(steps), max(steps)
    width = max(1, -(-(hi - lo + 1) // MAX_BINS))
    bins = [_empty(f"step {lo + i * width}") for i in range((hi - lo) // width + 1)]
    for s, rec in zip(steps, records):
        _add(bins[(s - lo) // width], rec)
    return f"steps, {width} per bar", bins


def _empty(label: str) -> dict:
    return {"label": label, "calls": 0, "tokens": 0, "repairs": 0, "fallbacks": 0, "latency": 0.0}


def _add(row: dict, rec: dict) -> None:
    row["calls"] += 1
    row["tokens"] += int(_num(rec.get("prompt_tokens")) + _num(rec.get("completion_tokens")))
    row["repairs"] += max(int(_num(rec.get("attempts")) or 1), 1) - 1
    row["fallbacks"] += 1 if rec.get("fallback") is True else 0
    row["latency"] += _num(rec.get("latency_s"))


def summary(path: Path) -> dict | None:
    if not path.is_file():
        return None
    records, bad = read(path)
    rows = per_prompt(records)
    unit, bins = over_time(records)
    totals = {
        k: sum(r[k] for r in rows)
        for k in (
            "calls",
            "prompt_tokens",
            "completion_tokens",
            "tokens",
            "latency_total",
            "repairs",
            "fallbacks",
            "trimmed_tokens",
            "trimmed_calls",
        )
    }
    return {
        "rows": rows,
        "bins": bins,
        "bin_unit": unit,
        "totals": totals,
        "bad_lines": bad,
        "templates": chat_templates(path.with_name("chat_templates.json")),
        "servers": servers(records),
    }


def servers(records: list[dict]) -> list[dict]:
    """The model servers that answered (the ledger's ``server``), their calls, and whether each
    is offline (on this machine or its network) or a hosted API the prompts went to."""
    from reverie.llm.servers import is_offline

    calls: dict[str, int] = defaultdict(int)
    for rec in records:
        for url in str(rec.get("server") or "").split(", "):
            if url:
                calls[url] += 1
    return [{"url": url, "calls": n, "offline": is_offline(url)} for url, n in sorted(calls.items())]


def chat_templates(path: Path) -> list[str]:
    """ "strong: chatml, system text kept" lines from chat_templates.json beside the ledger."""
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(saved, dict):
        return []
    lines = []
    for role, report in saved.items():
        if isinstance(report, dict):
            how = (
                "system text folded into the first user turn"
                if report.get("system") == "folded"
                else "system text kept"
            )
            lines.append(f"{role}: {report.get('chat_format')} ({report.get('family')}), {how}")
    return lines
