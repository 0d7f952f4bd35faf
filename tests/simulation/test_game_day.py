"""The game-day benchmark's figures from hand-made ledger lines (the day itself is not a test)."""

from __future__ import annotations

import json

from reverie.simulation.game_day import day_summary, hour_row, run_lines


def _line(prompt, tokens=(100, 10), latency=0.5, fallback=False):
    return {"prompt": prompt, "prompt_tokens": tokens[0], "completion_tokens": tokens[1], "latency_s": latency,
            "fallback": fallback, "attempts": 1}


def test_interviews_are_left_out_of_the_runs_figures(tmp_path):
    ledger = tmp_path / "llm_calls.jsonl"
    names = ["wake_up_hour", "interview_judge", "action_packed", "safety_score", "summarize_ideas", "next_convo_line"]
    ledger.write_text("".join(json.dumps(_line(n)) + "\n" for n in names))
    assert [line["prompt"] for line in run_lines(ledger)] == ["wake_up_hour", "action_packed"]
    assert run_lines(tmp_path / "missing.jsonl") == []


def test_an_hour_row_and_a_day_extrapolated_from_six_hours():
    lines = [_line("action_packed", latency=2.0), _line("event_poignancy", latency=1.0, fallback=True)]
    row = hour_row(7, lines, steps=360, wall_s=10.0, awake_agent_hours=2.0)
    assert (row["calls"], row["tokens"], row["fallbacks"]) == (2, 220, 1)
    assert row["calls_per_awake_agent_hour"] == 1.0 and row["model_share"] == 0.3
    assert row["engine_ms_per_step"] == round(1000 * 7.0 / 360, 2)
    rows = [dict(row, hour=h) for h in range(6)]
    day = day_summary(rows, {"action_packed": 6, "event_poignancy": 6})
    assert day["extrapolated"] and "24/6" in day["note"]
    assert (day["calls"], day["calls_per_day"], day["tokens_per_day"]) == (12, 48, 220 * 6 * 4)
    # The day's planning happens once: it is not scaled.
    planned = day_summary(rows, {"action_packed": 6, "event_poignancy": 6}, {"calls": 4, "tokens": 440})
    assert (planned["calls_per_day"], planned["tokens_per_day"]) == (4 + 8 * 4, 440 + (1320 - 440) * 4)
    assert day["overhead_share"] == 0.7 and day["targets"]["overhead_share"]["met"] is False
    assert day["targets"]["calls_per_day"]["met"] and day["targets"]["tokens_per_day"]["met"]


def test_a_whole_day_is_not_extrapolated():
    row = hour_row(0, [_line("a")] * 200, steps=360, wall_s=100.0, awake_agent_hours=25.0)
    day = day_summary([dict(row, hour=h) for h in range(24)], {"a": 4800})
    assert not day["extrapolated"] and day["note"] is None
    assert day["calls_per_day"] == 4800 and day["targets"]["calls_per_day"]["met"] is False
    assert day["top_prompts_by_calls"] == [("a", 4800)]
