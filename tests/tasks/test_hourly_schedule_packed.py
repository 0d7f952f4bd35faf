"""hourly_schedule_packed: the whole day in one call, in packed mode.

The real LLM facade over a scripted fake chat model (fixed replies; not a real model): what
is checked is the call made and how its reply becomes the day's schedule. The bundled model
answers this prompt in tests/tasks/test_all_prompts.py like every other prompt.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from datetime import datetime

from tests.tasks.planning_support import scripted_llm
from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.memory import Embedder
from reverie.persona.options import CognitionOptions
from reverie.persona.persona import Persona
from reverie.persona.plan_day import plan_new_day
from reverie.persona.step import NewDay
from reverie.tasks.hourly_schedule import DayToPlan
from reverie.tasks.hourly_schedule_packed import packed_hourly_schedule

SERVING = ["serving customers"] * 4
DAY = (
    ["waking up", "eating breakfast", "opening the cafe"]
    + SERVING
    + ["having lunch"]
    + SERVING
    + ["cleaning the tables"]
    + SERVING
    + ["reading", "going to bed"]
)

NORA = DayToPlan(identity="Name: Nora", first_name="Nora", date="Monday February 13", daily_plan=[], wake_up_hour=7)


def test_one_call_gives_the_whole_day_in_minutes():
    llm, model = scripted_llm(json.dumps({"activities": DAY[:17]}))
    schedule = packed_hourly_schedule(
        llm, replace(NORA, daily_plan=["open the cafe at 8:00 am"], persona="Nora Bennett")
    )
    assert len(model.calls) == 1
    assert schedule[0] == ("sleeping", 7 * 60) and sum(m for _, m in schedule) == 24 * 60
    assert [m for a, m in schedule if a == "serving customers"] == [240, 240, 240]
    assert "7:00 am, 8:00 am" in str(model.calls[0][0][-1].content) and "11:00 pm" in str(model.calls[0][0][-1].content)


def test_one_activity_all_day_gets_breaks_from_code_without_asking_again():
    # Scripted fake model: the reply decides the day; code only breaks the run of one activity.
    day = ["waking up", "eating breakfast", "opening the cafe"] + ["serving customers"] * 14
    llm, model = scripted_llm(json.dumps({"activities": day}))
    schedule = packed_hourly_schedule(llm, NORA)
    assert len(model.calls) == 1
    assert [a for a, _ in schedule][:4] == ["sleeping", "waking up", "eating breakfast", "opening the cafe"]
    runs = [m for a, m in schedule if a == "serving customers"]
    assert runs and max(runs) == 240 and sum(runs) < 14 * 60
    assert "sleeping" not in [a for a, _ in schedule][1:-1]


def test_the_plans_list_numbers_copied_into_the_hours_are_dropped_so_the_same_activity_is_one_block():
    """The bundled model's whole day: 14 of 25 packed schedules numbered their hours like the plan
    ("3. write", "4. write"), which then stood in every action, memory and re-plan, and kept one
    activity in as many blocks (each decomposed on its own). Scripted fake model."""
    numbered = [f"{n}. {activity}" for n, activity in enumerate(DAY[:17], 1)]
    llm, model = scripted_llm(json.dumps({"activities": numbered}))
    schedule = packed_hourly_schedule(llm, NORA)
    assert len(model.calls) == 1
    assert [a for a, _ in schedule][:4] == ["sleeping", "waking up", "eating breakfast", "opening the cafe"]
    assert [m for a, m in schedule if a == "serving customers"] == [240, 240, 240]


def test_too_few_hours_are_sent_back_with_the_count():
    llm, model = scripted_llm(json.dumps({"activities": DAY[:3]}), json.dumps({"activities": DAY[:17]}))
    schedule = packed_hourly_schedule(llm, NORA)
    assert len(model.calls) == 2 and "give exactly 17 activities" in str(model.calls[1][0][-1].content)
    assert sum(m for _, m in schedule) == 24 * 60


def test_packed_mode_plans_the_new_day_with_one_schedule_call(tmp_path):
    settings = load_settings(PROJECT_ROOT / "config.toml")
    folder = tmp_path / "nora"
    shutil.copytree(
        settings.paths.storage / "base_willow_creek" / "personas" / "Nora Bennett" / "bootstrap_memory", folder
    )
    nora = Persona.load("Nora Bennett", folder, embedder=Embedder(settings))
    nora.scratch.curr_time = datetime(2023, 2, 13, 0, 0)
    llm, _model = scripted_llm(json.dumps({"activities": DAY + DAY}))  # only this prompt's answer is valid
    nora.options = CognitionOptions(packed_actions=True)

    plan_new_day(nora, NewDay.FIRST, llm)

    calls = {name: row["calls"] for name, row in llm.ledger.summary().items()}
    assert calls.get("hourly_schedule_packed") == 1 and "hourly_schedule" not in calls
    assert sum(m for _, m in nora.scratch.f_daily_schedule) == 24 * 60
    assert nora.scratch.f_daily_schedule[0][0] == "sleeping"


def test_the_fail_safe_day_does_not_keep_a_one_hour_item_all_afternoon():
    """A thin plan (lunch at noon, then nothing until bed): lunch may not last the afternoon (day coherence)."""
    from reverie.tasks.day_coherence import day_coherence
    from reverie.tasks.hourly_schedule import merge_hours
    from reverie.tasks.hourly_schedule_packed import HOURLY_SCHEDULE_PACKED, fail_safe
    from reverie.tasks.clock import format_hour
    from reverie.prompt_tools.fixtures import inputs_with

    plan = [
        "wake up and complete the morning routine at 6:00 am",
        "open the cafe at 8:00 am",
        "have lunch at 12:00 pm",
        "go to bed at 11:00 pm",
    ]
    labels = [format_hour(hour) for hour in range(6, 23)]
    inputs = inputs_with(
        HOURLY_SCHEDULE_PACKED,
        first_name="Nora",
        daily_plan="\n".join(plan),
        wake_up_hour="6:00 am",
        hours=", ".join(labels),
        count=len(labels),
        bed_time="11:00 pm",
    )
    day = fail_safe(inputs, {}).activities
    assert day[6:10] == ["have lunch"] * 4 and day[10] == "going about the day"
    hourly = merge_hours(["sleeping"] * 6 + day + ["sleeping"])
    assert day_coherence("Nora", plan, hourly, bed_hour=23).violations == []
