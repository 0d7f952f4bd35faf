"""The game-day benchmark's figures from hand-made ledger lines (the day itself is not a test)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from reverie.evaluation.game_day import day_summary, hour_row, run_lines, waiting_s


def _line(prompt, tokens=(100, 10), latency=0.5, fallback=False):
    return {
        "prompt": prompt,
        "prompt_tokens": tokens[0],
        "completion_tokens": tokens[1],
        "latency_s": latency,
        "fallback": fallback,
        "attempts": 1,
    }


def quiet_day(settings, *, hours: int = 1, start: str | None = None, **day) -> dict:
    """``run_day`` on the quick base's fork "day", saying nothing and interviewing no one."""
    from reverie.evaluation.game_day import DayAsk, run_day

    ask = DayAsk("quick_base", "day", hours, -1, start=start)
    return run_day(settings, ask, say=lambda _l: None, **day)


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


def test_a_morning_scales_by_awake_agent_hours_when_the_schedules_are_known():
    row = hour_row(7, [_line("action_packed")] * 10, steps=360, wall_s=10.0, awake_agent_hours=20.0)
    rows = [dict(row, hour=h) for h in range(6)]  # 60 calls in 120 awake agent-hours
    day = day_summary(rows, {"action_packed": 60}, {"calls": 0, "tokens": 0}, awake_day=400.0)
    assert day["calls_per_day"] == 60 * 400 // 120 == 200  # not 60 * 24/6 = 240
    assert "400 awake agent-hours" in day["note"] and day["awake_agent_hours_in_day"] == 400.0


def test_a_whole_day_is_not_extrapolated():
    row = hour_row(0, [_line("a")] * 200, steps=360, wall_s=100.0, awake_agent_hours=25.0)
    day = day_summary([dict(row, hour=h) for h in range(24)], {"a": 4800})
    assert not day["extrapolated"] and day["note"] is None
    assert day["calls_per_day"] == 4800 and day["targets"]["calls_per_day"]["met"] is False
    assert day["top_prompts_by_calls"] == [("a", 4800)]


def test_awake_agent_hours_add_up_the_schedules_waking_hours():
    from types import SimpleNamespace

    from reverie.evaluation.game_day import awake_agent_hours_in_day

    day = [["sleeping", 360], ["opening the cafe", 600], ["reading", 360], ["sleeping", 120]]
    night_owl = [["asleep", 600], ["painting", 840]]
    personas = [SimpleNamespace(scratch=SimpleNamespace(f_daily_schedule_hourly_org=s)) for s in (day, night_owl)]
    assert awake_agent_hours_in_day(personas) == (960 + 840) / 60


def test_time_inside_the_model_counts_overlapping_calls_once():
    lock_step = [{"ts": 10.0, "latency_s": 2.0}, {"ts": 13.0, "latency_s": 3.0}]
    assert waiting_s(lock_step) == 5.0
    # Four slots: calls 8-10, 9-12, 9.5-10.5 overlap (4 s in flight); 20-21 is apart.
    slots = [
        {"ts": 12.0, "latency_s": 3.0},
        {"ts": 10.0, "latency_s": 2.0},
        {"ts": 10.5, "latency_s": 1.0},
        {"ts": 21.0, "latency_s": 1.0},
    ]
    assert waiting_s(slots) == 5.0
    row = hour_row(
        8, [dict(line, prompt="action_packed") for line in slots], steps=10, wall_s=20.0, awake_agent_hours=1.0
    )
    assert row["model_s"] == 5.0 and row["engine_ms_per_step"] == 1500.0


def test_a_wall_budget_stops_after_the_hour_it_runs_out_in_and_keeps_that_hours_figures(tmp_path):
    """Fake model, fail-safe only (a fast smoke test of the loop): the default town with steps of
    ten game minutes, three hours asked, a budget already spent after the first."""
    from reverie.config import load_settings
    from reverie.llm import LLM
    from reverie.llm.fake_model import FakeChatModel
    from reverie.evaluation.game_day import DayAsk, run_day
    from reverie.tasks.registry import product_tasks
    from tests.fuzz.test_fuzz_runs import town

    config, storage = town(tmp_path, "quick_base")
    settings = load_settings(config)
    model = FakeChatModel()
    llm = LLM(
        settings,
        tasks=product_tasks(),
        chat_models={"strong": model, "cheap": model},
        ledger_path=settings.paths.storage / "day" / "reverie" / "llm_calls.jsonl",
    )
    shutil.rmtree(settings.paths.storage / "day")  # the ledger's folder: the fork makes it again
    said: list[str] = []
    ask = DayAsk("quick_base", "day", hours=3, evaluate_every=0, start="07:00", max_wall_s=0.0, evaluate_start=True)
    report = run_day(settings, ask, say=said.append, llm=llm)
    assert [row["hour"] for row in report["hours"]] == [7] and report["hours"][0]["steps"] == 6
    assert report["stopped"].startswith("stopped after 1 of 3 game hours") and report["stopped"] in said
    assert report["day"]["game_hours_run"] == 1 and report["day"]["extrapolated"]
    assert report["force_seed_plan"] is False  # the default: no code puts a seed's event into a plan
    assert report["day"]["calls"] == report["hours"][0]["calls"] > 0
    # Engine time split by stage: every stage ran and the residents walked (path finding); the
    # stages hold no model time, so together they fit in the engine's.
    parts = report["day"]["engine_parts_ms_per_step"]
    assert {"perceive", "retrieve", "plan", "reflect", "execute", "path finding"} <= set(parts)
    assert parts["path finding"] > 0
    stages = sum(parts[s] for s in ("perceive", "retrieve", "plan", "reflect", "execute"))
    assert stages <= 1.1 * report["day"]["engine_ms_per_step"] + 1
    # Every resident's planned day was measured for coherence.
    assert report["day_coherence"]["days"] == 3 and report["day_coherence"]["line"].startswith("day coherence: ")
    # The world's own history (willow_creek's agent_history_init_n3.csv) was loaded first, as the
    # paper's runs did; its calls are not the day's.
    history = report["history"]
    assert history["file"].endswith("agent_history_init_n3.csv") and history["memories"] >= 3 and history["calls"] > 0
    assert not {"whisper_inner_thought"} & set(report["per_prompt_calls"])
    # The interviews ran before the first hour and at the stop, and the run was saved there.
    assert sum(line.startswith("evaluation at step") for line in said) == 2
    checkpoints = json.loads((settings.paths.storage / "day" / "evaluation.json").read_text())["checkpoints"]
    assert len(checkpoints) == 2
    # The report carries each evaluation's figures in the paper's table, as evaluation.json has them.
    assert [e["step"] for e in report["evaluations"]] == [c["step"] for c in checkpoints]
    assert [e["density"] for e in report["evaluations"]] == [c["relationships"]["density"] for c in checkpoints]


def test_a_day_goes_on_from_its_last_checkpoint_and_adds_its_hours_to_the_report(tmp_path):
    """Fake model, fail-safe only (a fast smoke test): one hour from 07:00, then one more resumed."""
    from reverie.config import load_settings
    from reverie.llm import LLM
    from reverie.llm.fake_model import FakeChatModel
    from reverie.tasks.registry import product_tasks
    from tests.fuzz.test_fuzz_runs import town

    config, storage = town(tmp_path, "quick_base")
    settings = load_settings(config)

    def llm():
        model = FakeChatModel()
        return LLM(
            settings,
            tasks=product_tasks(),
            chat_models={"strong": model, "cheap": model},
            ledger_path=settings.paths.storage / "day" / "reverie" / "llm_calls.jsonl",
        )

    first_llm = llm()
    shutil.rmtree(settings.paths.storage / "day")  # the ledger's folder: the fork makes it again
    forced = settings.model_copy(deep=True)
    forced.simulation.force_seed_plan = True
    first = quiet_day(forced, llm=first_llm, start="07:00")
    second = quiet_day(settings, llm=llm(), previous=first)
    # An hour run with the forced seed plan marks the whole report.
    assert first["force_seed_plan"] is True and second["force_seed_plan"] is True
    assert [row["hour"] for row in second["hours"]] == [7, 8] and second["hours"][0] == first["hours"][0]
    assert second["hours_asked"] == 2 and second["start"] == "07:00" and second["history"] == first["history"]
    assert second["day"]["game_hours_run"] == 2 and second["day"]["calls"] == sum(r["calls"] for r in second["hours"])
    # The day's prompts count both hours and still leave the history's whispers out.
    assert sum(second["per_prompt_calls"].values()) == second["day"]["calls"]
    assert "whisper_inner_thought" not in second["per_prompt_calls"]


def test_a_day_stopped_inside_an_hour_goes_on_from_the_last_hour_it_finished(tmp_path):
    """Fake model, fail-safe only (a fast smoke test): two hours asked from 07:00, the run stopped
    (as by Ctrl-C) ten model calls into the second. The first hour was kept; the resumed run does the
    second hour again, and the calls of the hour cut short are not in the day's figures."""
    from reverie.config import load_settings
    from reverie.llm import LLM
    from reverie.llm.fake_model import FakeChatModel
    from reverie.evaluation.game_day import HourKeeper, run_lines
    from reverie.jsonio import read_json
    from reverie.tasks.registry import product_tasks
    from tests.fuzz.test_fuzz_runs import town

    config, storage = town(tmp_path, "quick_base")
    settings = load_settings(config)
    ledger = settings.paths.storage / "day" / "reverie" / "llm_calls.jsonl"

    class StoppedModel(FakeChatModel):
        calls_left: int | None = None  # set after the first hour: then the model is stopped that many calls later

        def _generate(self, *args, **kwargs):
            if self.calls_left is not None:
                if self.calls_left == 0:
                    raise KeyboardInterrupt
                self.calls_left -= 1
            return super()._generate(*args, **kwargs)

    stopped = StoppedModel()
    llm = LLM(settings, tasks=product_tasks(), chat_models={"strong": stopped, "cheap": stopped}, ledger_path=ledger)
    shutil.rmtree(settings.paths.storage / "day")  # the ledger's folder: the fork makes it again
    keep = HourKeeper(tmp_path / "progress.json")
    kept_lines = []

    def first_hour_kept(sim, progress):
        keep(sim, progress)
        kept_lines.append(len(run_lines(ledger)))
        stopped.calls_left = 10  # a few asks (each tries the fake's invalid reply more than once)

    with pytest.raises(KeyboardInterrupt):
        quiet_day(settings, hours=2, llm=llm, start="07:00", on_hour=first_hour_kept)
    progress = read_json(keep.path)
    assert keep.hours == 1 and [row["hour"] for row in progress["hours"]] == [7]
    assert len(run_lines(ledger)) > kept_lines[0]  # asks answered inside the second hour before it was stopped

    model = FakeChatModel()
    again = LLM(settings, tasks=product_tasks(), chat_models={"strong": model, "cheap": model}, ledger_path=ledger)
    report = quiet_day(settings, llm=again, previous=progress)
    assert [row["hour"] for row in report["hours"]] == [7, 8] and report["hours"][0] == progress["hours"][0]
    assert (
        sum(report["per_prompt_calls"].values()) == report["day"]["calls"] == sum(r["calls"] for r in report["hours"])
    )


def test_the_command_stopped_inside_an_hour_says_how_to_go_on_and_goes_on(tmp_path, monkeypatch, capsys):
    """Scripted model (a fast smoke test of the command): `game_day --hours 2` stopped by Ctrl-C as
    its second hour starts keeps the first hour and says the command that goes on; that command
    runs the second hour and writes the report of both."""
    from reverie.config import load_settings
    from reverie.evaluation import game_day
    from reverie.simulation.simulation import Simulation
    from tests.fuzz.test_fuzz_runs import town

    config, storage = town(tmp_path, "quick_base")
    run = Simulation.run
    hours_started = []

    def stopped_in_the_second_hour(self, *args, **kwargs):
        hours_started.append(self.curr_time.hour)
        if len(hours_started) == 2:
            raise KeyboardInterrupt
        return run(self, *args, **kwargs)

    monkeypatch.setattr(Simulation, "run", stopped_in_the_second_hour)
    common = [
        "--config",
        str(config),
        "--base",
        "quick_base",
        "--sim",
        "day",
        "--model",
        "scripted",
        "--evaluate-every",
        "-1",
        "--history",
        "none",
    ]
    assert game_day.main([*common, "--hours", "2", "--start", "07:00"]) == 130
    said = capsys.readouterr().err
    assert "1 game hour(s) are kept" in said and "--resume --sim day --hours 1" in said
    sim_dir = Path(load_settings(config).paths.storage) / "day"
    assert not (sim_dir / "game_day.json").exists()

    monkeypatch.setattr(Simulation, "run", run)
    assert game_day.main([*common, "--resume", "--hours", "1"]) == 0
    report = json.loads((sim_dir / "game_day.json").read_text())
    assert [row["hour"] for row in report["hours"]] == [7, 8] and report["hours_asked"] == 2
    assert not (sim_dir / "game_day_progress.json").exists()
