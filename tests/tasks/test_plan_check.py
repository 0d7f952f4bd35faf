"""plan_check: validation only reports what the model must fix; repair is the code's own step on a
plan that passed; the two together are what a daily plan's reply becomes."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from reverie.prompt_tools.fixtures import inputs_with
from reverie.tasks.daily_plan import DAILY_PLAN, DailyPlanReply
from reverie.tasks.plan_check import PlanRules, plan_problem, repaired_plan

DAY = [
    "open the cafe at 8:00 am",
    "wake up at 6:00 am",
    "have lunch at 12:00 pm",
    "open the cafe at 9:00 am",
    "read a book at 3:00 pm",
    "go to bed at 11:00 pm",
]


def test_validation_reports_and_leaves_the_reply_as_it_was():
    items = ["wake up at 6:00 am", "we paint the fence at 4:00 pm", "read at 2:00 pm", "walk at 5:00 pm"]
    before = list(items)
    assert plan_problem(items, PlanRules.at("6:00 am")) == (
        'item 2 "we paint the fence at 4:00 pm" is written as the character speaking; write only the activity, '
        'like "have lunch at 12:00 pm"'
    )
    assert items == before
    assert plan_problem(DAY, PlanRules.at("6:00 am", bed=23)) is None


def test_repair_writes_the_first_item_orders_by_time_and_drops_repeats():
    assert repaired_plan(DAY, PlanRules.at("6:00 am", bed=23)) == [
        "wake up and complete the morning routine at 6:00 am",
        "open the cafe at 8:00 am",
        "have lunch at 12:00 pm",
        "read a book at 3:00 pm",
        "go to bed at 11:00 pm",
    ]


def test_without_a_wake_up_hour_the_plan_is_kept_in_its_order_and_must_start_with_waking():
    rules = PlanRules.at("no hour here", bed=23)
    assert rules.wake is None
    assert plan_problem(DAY, rules) == "the first item must be waking up; yours is 'open the cafe at 8:00 am'"
    assert repaired_plan(DAY[1:], rules) == DAY[1:]  # no clock kept by the code: the reply's order stays


def test_the_reply_sends_the_problem_back_or_keeps_the_repaired_plan():
    context = {
        "inputs": inputs_with(
            DAILY_PLAN, wake_up_time="6:00 am", lifestyle="goes to bed around 11pm", identity="Nora runs a cafe."
        ),
        "choices": {},
    }
    rules = PlanRules.at("6:00 am", bed=23, schedule=True)
    assert DailyPlanReply.model_validate({"items": DAY}, context=context).items == repaired_plan(DAY, rules)
    spoken = ["wake up at 6:00 am", "we paint the fence at 4:00 pm", "read at 2:00 pm", "walk at 5:00 pm"]
    with pytest.raises(ValidationError) as caught:
        DailyPlanReply.model_validate({"items": spoken}, context=context)
    assert caught.value.errors()[0]["msg"] == "Value error, " + plan_problem(spoken, rules)
