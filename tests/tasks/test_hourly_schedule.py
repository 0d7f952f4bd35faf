"""hourly_schedule: the activity is a short phrase without the name; the fail-safe follows the plan."""

from __future__ import annotations

from reverie.tasks.hourly_schedule import (
    HourlyActivityReply,
    fail_safe,
    format_plan,
    format_prior,
    merge_hours,
    plan_item_for_hour,
)
from reverie.tasks.hourly_schedule import HOURLY_SCHEDULE
from reverie.prompt_tools.fixtures import inputs_with

PLAN = [
    "wake up and complete the morning routine at 6:00 am",
    "open Hobbs Cafe at 8:00 am",
    "have lunch at 12:00 pm",
    "work at the counter from 1:00 pm to 8:00 pm",
]


def test_subject_and_full_stop_are_removed():
    ctx = {"inputs": inputs_with(HOURLY_SCHEDULE, first_name="Isabella")}
    assert (
        HourlyActivityReply.model_validate({"activity": "Isabella is opening the cafe."}, context=ctx).activity
        == "opening the cafe"
    )
    assert (
        HourlyActivityReply.model_validate({"activity": "Isabella Rodriguez is baking"}, context=ctx).activity
        == "baking"
    )


def test_prior_hours_are_merged_when_shown():
    acts = ["sleeping"] * 6 + ["waking up", "opening the cafe"]
    assert format_prior(acts) == "12:00 am to 5:00 am: sleeping\n6:00 am: waking up\n7:00 am: opening the cafe"
    assert format_prior([]) == "(nothing decided yet)"


def test_merge_hours_sums_to_a_day():
    acts = ["sleeping"] * 6 + ["waking up"] + ["working"] * 16 + ["sleeping"]
    merged = merge_hours(acts)
    assert merged == [("sleeping", 360), ("waking up", 60), ("working", 960), ("sleeping", 60)]
    assert sum(m for _, m in merged) == 1440


def test_fail_safe_takes_the_plan_item_of_that_hour_without_its_time():
    assert plan_item_for_hour(format_plan(PLAN), "12:00 pm") == "have lunch"
    reply = fail_safe(
        inputs_with(
            HOURLY_SCHEDULE, daily_plan=format_plan(PLAN), hour="1:00 pm", prior_schedule="12:00 pm: having lunch"
        ),
        {},
    )
    assert reply.activity == "work at the counter"


def test_fail_safe_otherwise_continues_the_previous_hour_never_sleeps():
    reply = fail_safe(
        inputs_with(
            HOURLY_SCHEDULE,
            daily_plan=format_plan(PLAN),
            hour="10:00 am",
            prior_schedule="12:00 am to 5:00 am: sleeping\n9:00 am: serving customers",
        ),
        {},
    )
    assert reply.activity == "serving customers"
    inside = fail_safe(
        inputs_with(
            HOURLY_SCHEDULE,
            daily_plan=format_plan(PLAN),
            hour="3:00 pm",
            prior_schedule="12:00 am to 5:00 am: sleeping\n2:00 pm: serving customers",
        ),
        {},
    )
    assert inside.activity == "work at the counter"  # the plan item whose range covers the hour
    assert (
        fail_safe(
            inputs_with(HOURLY_SCHEDULE, daily_plan="", hour="3:00 pm", prior_schedule="(nothing decided yet)"), {}
        ).activity
        == "going about the day"
    )


# --- through the facade (scripted chat model: fixed replies, not a real model) ----------

from tests.tasks.planning_support import last_user_text, scripted_llm  # noqa: E402

from reverie.tasks.hourly_schedule import DayToPlan, hourly_activity, hourly_schedule  # noqa: E402

KW = dict(identity="Name: Isabella Rodriguez", first_name="Isabella", date="Monday February 13", daily_plan=PLAN)


def test_function_strips_the_name_and_shows_the_hours_so_far():
    """Scripted reply "Isabella is opening the cafe." -> "opening the cafe"."""
    llm, model = scripted_llm('{"activity": "Isabella is opening the cafe."}')
    prior = ["sleeping"] * 6 + ["waking up"] * 2
    assert hourly_activity(llm, DayToPlan(**KW, wake_up_hour=6), prior_activities=prior, hour=8) == "opening the cafe"
    text = last_user_text(model)
    assert "12:00 am to 5:00 am: sleeping\n6:00 am to 7:00 am: waking up" in text
    assert text.rstrip().endswith("What is Isabella doing at 8:00 am? Answer with the JSON object.")


def test_whole_day_sleeps_without_calls_until_waking_and_sums_to_a_day():
    """Scripted replies cycling five activities: hours before 6 are not asked; one pass suffices."""
    acts = ["waking up", "opening the cafe", "serving customers", "eating lunch", "closing the cafe"]
    replies = [f'{{"activity": "{acts[min(i // 4, 4)]}"}}' for i in range(18)]
    llm, model = scripted_llm(*replies)
    day = hourly_schedule(llm, DayToPlan(**KW, wake_up_hour=6))
    assert len(model.calls) == 18
    assert day[0] == ("sleeping", 360)
    assert sum(minutes for _, minutes in day) == 1440
    assert [a for a, _ in day] == ["sleeping"] + acts


def test_whole_day_is_redone_when_too_uniform_but_keeps_sleeping_hours():
    """Scripted: the same activity every hour -> 3 passes of 16 calls each (hours 0-7 never asked)."""
    llm, model = scripted_llm('{"activity": "working"}')
    day = hourly_schedule(llm, DayToPlan(**KW, wake_up_hour=8))
    assert len(model.calls) == 3 * 16
    assert day == [("sleeping", 480), ("working", 960)]


def test_plan_hour_match_is_exact():
    """1:00 pm must not match 11:00 pm."""
    plan = format_plan(["wake up at 7:00 am", "go to bed at 11:00 pm"])
    assert plan_item_for_hour(plan, "1:00 pm") is None
    assert plan_item_for_hour(plan, "11:00 pm") == "go to bed"


def test_an_item_at_half_past_is_the_plan_item_of_its_hour():
    """The bundled model's plans put meals at half past: the fail-safe day must still have them."""
    plan = format_plan(
        [
            "wake up at 7:00 am",
            "eat breakfast at 8:30 am",
            "go to the beach at 1:30 pm",
            "go to the church at 2:00 pm",
            "go to bed at 11:00 pm",
        ]
    )
    assert plan_item_for_hour(plan, "8:00 am") == "eat breakfast"
    assert plan_item_for_hour(plan, "1:00 pm") == "go to the beach"
    assert plan_item_for_hour(plan, "2:00 pm") == "go to the church"
    assert plan_item_for_hour(plan, "9:00 am") is None


def test_a_span_holds_the_same_hours_for_the_fail_safe_and_day_coherence():
    """One rule (day_rules.span_hours): a night owl's span past midnight holds its hours too."""
    from reverie.tasks.day_rules import span_hours
    from reverie.tasks.hourly_schedule import plan_item_for_hour

    plan = "1. wake up at 9:00 am\n2. stream on Twitch from 10:00 pm to 2:00 am"
    assert span_hours("stream on Twitch from 10:00 pm to 2:00 am") == [22, 23, 0, 1]
    assert plan_item_for_hour(plan, "12:00 am") == "stream on Twitch"
    assert plan_item_for_hour(plan, "3:00 pm") is None
