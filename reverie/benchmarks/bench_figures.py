"""The bench's figures from a run's ledger, its one-line row, and the side-by-side comparison.

Figures (the row, in this order):

- ``agents``, ``game_minutes``;
- ``calls_per_agent_hour``: ledger lines (one per ``ask``) per agent per game hour;
- ``prompt_tokens_per_call``, ``completion_tokens_per_call`` (repair attempts included);
- ``wall_s``: wall time of the steps (model loading and forking excluded);
- ``model_share``: the summed ``latency_s`` of the ledger over ``wall_s``;
  ``overhead_share`` = 1 − ``model_share`` (everything else: perception, retrieval,
  embeddings, path finding, file writes);
- ``cache_hit``: prompt tokens reused from the model's prefix cache over prompt tokens
  (``n/a`` when not measurable, e.g. a replayed run or a server backend);
- ``fallbacks``: asks that ended in a fail-safe.
"""

from __future__ import annotations

import json
from pathlib import Path

from reverie.errors import UserError

ROW_KEYS = (
    "agents",
    "game_minutes",
    "calls_per_agent_hour",
    "prompt_tokens_per_call",
    "completion_tokens_per_call",
    "wall_s",
    "model_share",
    "overhead_share",
    "cache_hit",
    "fallbacks",
)
_DIGITS = {
    "calls_per_agent_hour": 1,
    "prompt_tokens_per_call": 1,
    "completion_tokens_per_call": 1,
    "wall_s": 1,
    "model_share": 3,
    "overhead_share": 3,
    "cache_hit": 3,
}


def totals(lines: list[dict]) -> dict:
    """Sums over ledger lines. ``cached_tokens`` only when every line carries it (else None)."""
    cached = [line.get("cached_tokens") for line in lines]
    return {
        "calls": len(lines),
        "attempts": sum(int(line.get("attempts") or 0) for line in lines),
        "fallbacks": sum(1 for line in lines if line.get("fallback")),
        "prompt_tokens": sum(int(line.get("prompt_tokens") or 0) for line in lines),
        "completion_tokens": sum(int(line.get("completion_tokens") or 0) for line in lines),
        "latency_s": round(sum(float(line.get("latency_s") or 0.0) for line in lines), 3),
        "cached_tokens": sum(int(c) for c in cached) if lines and all(c is not None for c in cached) else None,
    }


def figures(total: dict, *, agents: int, game_minutes: float, wall_s: float, cached_tokens: int | None) -> dict:
    """The row's figures from ledger totals and the run's size and wall time."""
    calls = total["calls"]
    agent_hours = agents * game_minutes / 60
    model_share = total["latency_s"] / wall_s if wall_s > 0 else 0.0
    prompt_tokens = total["prompt_tokens"]
    return {
        "agents": agents,
        "game_minutes": game_minutes,
        "calls_per_agent_hour": calls / agent_hours if agent_hours else 0.0,
        "prompt_tokens_per_call": prompt_tokens / calls if calls else 0.0,
        "completion_tokens_per_call": total["completion_tokens"] / calls if calls else 0.0,
        "wall_s": wall_s,
        "model_share": model_share,
        "overhead_share": 1.0 - model_share,
        "cache_hit": (cached_tokens / prompt_tokens if prompt_tokens else 0.0) if cached_tokens is not None else None,
        "fallbacks": total["fallbacks"],
    }


def _cell(key: str, value) -> str:
    if value is None:
        return "n/a"
    if key in _DIGITS:
        return f"{float(value):.{_DIGITS[key]}f}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def row(fig: dict) -> str:
    """``agents=3 game_minutes=60 ... fallbacks=2`` (every key of ROW_KEYS, in order)."""
    return " ".join(f"{key}={_cell(key, fig.get(key))}" for key in ROW_KEYS)


def load_report(path: Path) -> dict:
    try:
        report = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such bench report — write one with `bench --out FILE`") from None
    except (OSError, ValueError) as exc:
        raise UserError(f"{path}: not a bench report ({exc.__class__.__name__})") from None
    if not isinstance(report, dict) or not isinstance(report.get("figures"), dict):
        raise UserError(f'{path}: not a bench report (no "figures" object) — write one with `bench --out FILE`')
    return report


def _ratio(a, b) -> float | None:
    if a is None or b is None:
        return None
    a, b = float(a), float(b)
    if a == 0:
        return 1.0 if b == 0 else None
    return b / a


def compare(a: dict, b: dict, names: tuple[str, str] = ("A", "B")) -> list[str]:
    """Lines: a table key | A | B | B/A, then notes, then the ratios as one key=value row (last)."""
    fa, fb = a["figures"], b["figures"]
    ratios = {key: _ratio(fa.get(key), fb.get(key)) for key in ROW_KEYS}
    width = max(len(k) for k in ROW_KEYS)
    cols = [max(12, len(n)) for n in names]
    lines = [f"{'figure'.ljust(width)}  {names[0].rjust(cols[0])}  {names[1].rjust(cols[1])}  {'B/A':>8}"]
    for key in ROW_KEYS:
        ratio = "n/a" if ratios[key] is None else f"{ratios[key]:.3f}"
        lines.append(
            f"{key.ljust(width)}  {_cell(key, fa.get(key)).rjust(cols[0])}  "
            f"{_cell(key, fb.get(key)).rjust(cols[1])}  {ratio:>8}"
        )
    for label, report in zip("AB", (a, b)):
        lines.append(f"{label}: " + ", ".join(f"{k}={v}" for k, v in (report.get("settings") or {}).items()))
    if (fa.get("agents"), fa.get("game_minutes")) != (fb.get("agents"), fb.get("game_minutes")):
        lines.append("note: the runs differ in agents or game minutes; compare the per-call and per-hour figures only")
    lines.append(
        "ratio_b_over_a "
        + " ".join(f"{key}={'n/a' if ratios[key] is None else f'{ratios[key]:.3f}'}" for key in ROW_KEYS)
    )
    return lines


def engine_line(report: dict) -> str:
    """The engine's CPU time over the run and its share of the wall time."""
    engine = report["engine"]
    return f"engine: {engine['cpu_s']:.1f} s of CPU time, {engine['share_of_wall']:.0%} of the wall time"
