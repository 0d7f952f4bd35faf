"""The game day's figures, from the run's ledger lines: a row per game hour and the day's summary
beside the targets (``game_day`` prints them and writes them to ``game_day.json``)."""

from __future__ import annotations

import json
import resource
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from reverie import engine_time
from reverie.benchmarks.bench import DAY_PLANNING
from reverie.benchmarks.bench_figures import totals

# The interview prompts: asked by `evaluate` only, never by a step of the simulation.
EVALUATION_PROMPTS = frozenset({"interview_judge", "safety_score", "summarize_ideas", "next_convo_line"})
TARGETS = {"calls_per_day": 4000, "tokens_per_day": 1_000_000, "overhead_share": 0.05}


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def run_lines(ledger_path: Path) -> list[dict]:
    """The run's own ledger lines (the interviews of ``evaluate`` left out)."""
    if not ledger_path.is_file():
        return []
    with open(ledger_path, encoding="utf-8") as fh:
        lines = [json.loads(line) for line in fh if line.strip()]
    return [line for line in lines if line.get("prompt") not in EVALUATION_PROMPTS]


def waiting_s(lines: list[dict]) -> float:
    """Seconds with at least one model call in flight: the union of the calls' intervals
    (``ts`` is when a call ended). On a multi-slot server calls overlap, so this is less than
    their latencies added up; lock-step, it is the same."""
    spans = sorted(
        (float(line["ts"]) - float(line.get("latency_s") or 0.0), float(line["ts"])) for line in lines if line.get("ts")
    )
    total, end = 0.0, float("-inf")
    for start, stop in spans:
        if stop > end:
            total += stop - max(start, end)
            end = stop
    return total


def hour_row(
    hour: int,
    lines: list[dict],
    *,
    steps: int,
    wall_s: float,
    awake_agent_hours: float,
    parts_s: dict[str, float] | None = None,
) -> dict:
    t = totals(lines)
    model_s = waiting_s(lines) if lines and all(line.get("ts") for line in lines) else t["latency_s"]
    return {
        "hour": hour,
        "steps": steps,
        "calls": t["calls"],
        "tokens": t["prompt_tokens"] + t["completion_tokens"],
        "prompt_tokens": t["prompt_tokens"],
        "completion_tokens": t["completion_tokens"],
        "fallbacks": t["fallbacks"],
        "awake_agent_hours": round(awake_agent_hours, 3),
        "calls_per_awake_agent_hour": round(t["calls"] / awake_agent_hours, 2) if awake_agent_hours else None,
        "wall_s": round(wall_s, 2),
        "model_s": round(model_s, 2),
        "model_share": round(model_s / wall_s, 4) if wall_s else None,
        "engine_ms_per_step": round(1000 * max(0.0, wall_s - model_s) / steps, 2) if steps else None,
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "engine_parts_s": {part: round(s, 6) for part, s in (parts_s or {}).items()},
    }


def parts_ms_per_step(parts_s: dict[str, float], steps: int) -> dict[str, float]:
    """Engine seconds per part (stages, and the inner parts they hold) -> ms per step, in order."""
    order = [*engine_time.STAGES, *engine_time.INNER]
    known = [part for part in order if part in parts_s] + sorted(set(parts_s) - set(order))
    return {part: round(1000 * parts_s[part] / steps, 3) for part in known} if steps else {}


def format_parts(ms: dict[str, float]) -> str:
    """ "perceive 3.1, retrieve 20.4, ... (of which chroma 12.0, ...)" ms per step."""
    stages = ", ".join(f"{part} {ms[part]}" for part in ms if part not in engine_time.INNER)
    inner = ", ".join(f"{part} {ms[part]}" for part in engine_time.INNER if part in ms)
    return stages + (f" (of which {inner})" if inner else "")


def awake_agent_hours_in_day(personas: Iterable[Any]) -> float:
    """The awake hours of every persona's hourly schedule for the day, added up."""
    from reverie.persona.sleep import is_sleep

    minutes = 0
    for persona in personas:
        minutes += sum(int(m) for activity, m in persona.scratch.f_daily_schedule_hourly_org if not is_sleep(activity))
    return minutes / 60


def day_summary(
    rows: list[dict], per_prompt: dict[str, int], planning: dict | None = None, awake_day: float | None = None
) -> dict:
    """The day's figures. A shorter run's calls and tokens scale to 24 hours, except the
    day's planning (``planning``: its calls and tokens), which happens once a day. With
    ``awake_day`` (the awake agent-hours the day's schedules hold) they scale by awake
    agent-hours instead: a sleeping persona makes no call, so a morning is not a night."""
    hours = len(rows)
    calls = sum(r["calls"] for r in rows)
    tokens = sum(r["tokens"] for r in rows)
    plan_calls, plan_tokens = (planning or {}).get("calls", 0), (planning or {}).get("tokens", 0)
    wall = sum(r["wall_s"] for r in rows)
    model = sum(r["model_s"] for r in rows)
    steps = sum(r["steps"] for r in rows)
    awake = sum(r["awake_agent_hours"] for r in rows)
    parts_s: dict[str, float] = {}
    for r in rows:
        for part, seconds in (r.get("engine_parts_s") or {}).items():
            parts_s[part] = parts_s.get(part, 0.0) + seconds
    by_awake = bool(awake_day and awake and hours < 24)
    scale = (awake_day / awake if by_awake else 24 / hours) if hours else 0.0
    overhead = 1 - model / wall if wall else None
    dominant = sorted(per_prompt.items(), key=lambda kv: -kv[1])[:5]
    if hours >= 24:
        note = None
    elif by_awake:
        note = (
            f"per-day figures scale the {hours} game hours run ({awake:.0f} awake agent-hours) to the "
            f"{awake_day:.0f} awake agent-hours of the day's schedules, the day's planning counted once"
        )
    else:
        note = f"per-day figures scale the {hours} game hours run by 24/{hours}, the day's planning counted once"
    return {
        "game_hours_run": hours,
        "extrapolated": hours < 24,
        "note": note,
        "awake_agent_hours_in_day": round(awake_day, 1) if awake_day else None,
        "calls": calls,
        "tokens": tokens,
        "fallbacks": sum(r["fallbacks"] for r in rows),
        "day_planning": {"calls": plan_calls, "tokens": plan_tokens},
        "calls_per_day": round(plan_calls + (calls - plan_calls) * scale),
        "tokens_per_day": round(plan_tokens + (tokens - plan_tokens) * scale),
        "calls_per_awake_agent_hour": round(calls / awake, 2) if awake else None,
        "wall_s": round(wall, 1),
        "model_share": round(model / wall, 4) if wall else None,
        "overhead_share": round(overhead, 4) if overhead is not None else None,
        "engine_ms_per_step": round(1000 * max(0.0, wall - model) / steps, 2) if steps else None,
        "engine_parts_ms_per_step": parts_ms_per_step(parts_s, steps),
        "peak_rss_mb": max((r["peak_rss_mb"] for r in rows), default=None),
        "top_prompts_by_calls": dominant,
        "targets": {
            "calls_per_day": {
                "target": TARGETS["calls_per_day"],
                "met": plan_calls + (calls - plan_calls) * scale <= TARGETS["calls_per_day"],
            },
            "tokens_per_day": {
                "target": TARGETS["tokens_per_day"],
                "met": plan_tokens + (tokens - plan_tokens) * scale <= TARGETS["tokens_per_day"],
            },
            "overhead_share": {
                "target": TARGETS["overhead_share"],
                "met": overhead is not None and overhead <= TARGETS["overhead_share"],
            },
        },
    }


def prompt_accounts(lines: list[dict]) -> tuple[dict[str, int], dict[str, int]]:
    """The day's calls by prompt, and the day's planning (its calls and tokens: once a day)."""
    per_prompt: dict[str, int] = {}
    planning = {"calls": 0, "tokens": 0}
    for line in lines:
        per_prompt[line["prompt"]] = per_prompt.get(line["prompt"], 0) + 1
        if line["prompt"] in DAY_PLANNING:
            planning["calls"] += 1
            planning["tokens"] += int(line.get("prompt_tokens") or 0) + int(line.get("completion_tokens") or 0)
    return per_prompt, planning


def format_row(r: dict) -> str:
    per = r["calls_per_awake_agent_hour"]
    return (
        f"hour {r['hour']:02d}  steps {r['steps']}  calls {r['calls']}  tokens {r['tokens']}  "
        f"fallbacks {r['fallbacks']}  calls/awake agent-hour {per if per is not None else 'n/a'}  "
        f"wall {r['wall_s']:.0f}s  in model {r['model_share'] or 0:.1%}  "
        f"engine {r['engine_ms_per_step']} ms/step  peak {r['peak_rss_mb']:.0f} MB"
    )
