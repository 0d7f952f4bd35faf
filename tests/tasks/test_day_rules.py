"""The rules a day keeps: plan times move forward with bed last, no clock in an hour's activity,
no sleeping in the waking day; the code writes the wake-up and bed items and the sleeping hours."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from reverie.tasks.daily_plan import DailyPlanReply, with_wake_and_bed
from reverie.tasks.day_rules import clock_minute, is_bed, meridiem_fixed, plan_order_problem, without_clock
from reverie.tasks.hourly_schedule import DayToPlan, HourlyActivityReply, hourly_schedule
from reverie.tasks.hourly_schedule_packed import packed_hourly_schedule
from reverie.tasks.daily_plan import DAILY_PLAN
from reverie.tasks.hourly_schedule import HOURLY_SCHEDULE
from reverie.tasks.hourly_schedule_packed import HOURLY_SCHEDULE_PACKED
from reverie.prompt_tools.fixtures import inputs_with

NORA = {
    "inputs": inputs_with(
        DAILY_PLAN, wake_up_time="6:00 am", lifestyle="Nora goes to bed around 10pm, gets up around 6am."
    )
}


@pytest.mark.parametrize(
    "text, minute",
    [
        ("at 1:30 pm", 810),
        ("from 12:00 am to 2:00 pm", 0),
        ("at 12:00 pm", 720),
        ("at 18:15", 1095),
        ("open the cafe", None),
        ("go to the village fair at 13:00 am", 780),
        ("at 25:00 pm", None),
    ],
)
def test_clock_minute(text, minute):
    assert clock_minute(text) == minute


def test_bed_before_another_item_is_sent_back_with_both_items():
    items = ["wake up at 6:00 am", "have lunch at 12:00 pm", "go to bed at 1:00 pm", "grade homework at 2:00 pm"]
    assert plan_order_problem(items, 6, 22) == (
        'item 3 "go to bed at 1:00 pm" comes before "grade homework at 2:00 pm"; '
        "times must move forward and bed comes last"
    )


def test_a_time_going_back_names_both_items():
    items = ["wake up at 6:00 am", "have lunch at 12:00 pm", "open the cafe at 8:00 am", "go to bed at 10:00 pm"]
    problem = plan_order_problem(items, 6, 22)
    assert problem.startswith('item 2 "have lunch at 12:00 pm" comes before "open the cafe at 8:00 am"')


def test_a_day_past_midnight_moves_forward():
    items = [
        "wake up at 9:00 am",
        "stream games from 3:00 pm to 6:00 pm",
        "chat online at 11:00 pm",
        "go to bed at 2:00 am",
    ]
    assert plan_order_problem(items, 9, 2) is None


def test_an_item_before_waking_is_outside_the_day():
    items = [
        "wake up at 6:00 am",
        "teach history classes from 12:00 am to 2:00 pm",
        "have lunch at 12:00 pm",
        "go to bed",
    ]
    assert "outside the waking day (6:00 am to 10:00 pm)" in plan_order_problem(items, 6, 22)


def test_daily_plan_reply_puts_the_issue_day_in_order_with_bed_last():
    """The code keeps the clock: the items go in the order of their times and bed comes last, at bedtime."""
    reply = {
        "items": ["wake up at 6:00 am", "grade homework at 2:00 pm", "go to bed at 1:00 pm", "open the cafe at 8:00 am"]
    }
    assert DailyPlanReply.model_validate(reply, context=NORA).items == [
        "wake up and complete the morning routine at 6:00 am",
        "open the cafe at 8:00 am",
        "grade homework at 2:00 pm",
        "go to bed at 10:00 pm",
    ]


def test_an_item_outside_the_waking_day_is_at_its_twelve_hour_twin():
    """The bundled model's "teach history classes from 2:00 am to 5:00 pm": am for pm."""
    reply = {
        "items": [
            "wake up at 6:00 am",
            "open the cafe at 8:00 am",
            "grade homework at 2:00 pm",
            "teach at 3:00 am",
            "teach history classes from 12:00 am to 2:00 pm",
        ]
    }
    assert DailyPlanReply.model_validate(reply, context=NORA).items == [
        "wake up and complete the morning routine at 6:00 am",
        "open the cafe at 8:00 am",
        "teach history classes from 12:00 pm to 2:00 pm",
        "grade homework at 2:00 pm",
        "teach at 3:00 pm",
        "go to bed at 10:00 pm",
    ]


def test_an_item_outside_a_short_waking_day_on_both_readings_is_sent_back():
    from reverie.tasks.plan_check import PlanRules, plan_problem

    items = ["wake up at 10:00 am", "paint at 11:00 am", "read at 2:00 pm", "walk at 9:30 pm"]  # up 10 am to 8 pm
    assert plan_problem(items, PlanRules.at("10:00 am", bed=20)).startswith(
        'item 4 "walk at 9:30 pm" is outside the waking day'
    )
    assert meridiem_fixed("walk at 9:30 pm", 10, 20) == "walk at 9:30 pm"
    assert meridiem_fixed("walk at 3:30 AM", 10, 20) == "walk at 3:30 PM"


def test_the_code_writes_the_first_and_last_items():
    items = ["wake up", "open the cafe at 8:00 am", "have lunch at 12:00 pm", "go to bed at 1:00 pm"]
    assert with_wake_and_bed(items, 6, 22) == [
        "wake up and complete the morning routine at 6:00 am",
        "open the cafe at 8:00 am",
        "have lunch at 12:00 pm",
        "go to bed at 10:00 pm",
    ]
    assert with_wake_and_bed(items[:3], 6, None)[-1] == "have lunch at 12:00 pm"
    assert is_bed("go to bed at 10:00 pm") and not is_bed("make the bed")


def test_getting_to_bed_is_going_to_bed():
    """The bundled model's "get to bed at 5:00 pm" in a town run stayed in the day as an activity."""
    from reverie.tasks.day_rules import is_sleeping

    assert is_bed("get to bed at 5:00 pm") and is_bed("gets into bed") and is_sleeping("getting to bed")
    assert not is_bed("get to the bedroom") and not is_sleeping("get the bed linen")
    items = [
        "wake up at 6:00 am",
        "teach science at 9:00 am",
        "get to bed at 5:00 pm",
        "read at 7:00 pm",
        "go to bed at 11:00 pm",
    ]
    assert "get to bed at 5:00 pm" not in DailyPlanReply.model_validate({"items": items}, context=NORA).items


def test_clock_times_are_taken_out_of_an_hourly_activity():
    context = {"inputs": inputs_with(HOURLY_SCHEDULE, first_name="Nora", hour="1:00 pm")}
    assert (
        HourlyActivityReply.model_validate({"activity": "opening the cafe at 12:00 am"}, context=context).activity
        == "opening the cafe"
    )
    assert without_clock("teaching from 8:00 am to 12:00 pm at the school") == "teaching at the school"
    with pytest.raises(ValidationError, match='"12:00 am to 9:00 am" is only a time'):
        HourlyActivityReply.model_validate({"activity": "12:00 am to 9:00 am"}, context=context)


def test_sleeping_in_the_afternoon_is_sent_back_but_not_at_night():
    context = {
        "inputs": inputs_with(
            HOURLY_SCHEDULE, first_name="Nora", hour="2:00 pm", wake_up_time="6:00 am", bed_time="10:00 pm"
        )
    }
    with pytest.raises(ValidationError, match='at 2:00 pm is "sleeping", but the character wakes up at 6:00 am'):
        HourlyActivityReply.model_validate({"activity": "sleeping"}, context=context)
    night = {"inputs": context["inputs"].model_copy(update={"hour": "9:00 pm"})}
    assert HourlyActivityReply.model_validate({"activity": "getting ready for bed"}, context=night).activity
    assert HourlyActivityReply.model_validate({"activity": "taking a nap"}, context=context).activity == "taking a nap"


# --- the whole day (scripted chat model: fixed replies, not a real model) -----------------

from tests.tasks.planning_support import scripted_llm  # noqa: E402

ABOUT = DayToPlan(
    identity="Name: Nora Lee",
    first_name="Nora",
    date="Monday",
    daily_plan=["wake up at 6:00 am", "go to bed"],
    wake_up_hour=6,
    bed_hour=22,
    persona="Nora Lee",
)


def test_hours_from_bedtime_on_are_sleeping_without_a_call():
    """Scripted: every awake hour answers "working"; hours 22 and 23 must not be asked."""
    llm, model = scripted_llm(*['{"activity": "working"}'] * 40)
    schedule = hourly_schedule(llm, ABOUT, max_passes=1)
    assert schedule == [("sleeping", 360), ("working", 960), ("sleeping", 120)]
    assert len(model.calls) == 16


def test_packed_day_asks_only_for_the_waking_hours():
    """Scripted: one reply with 16 activities for 6:00 am to 9:00 pm."""
    llm, model = scripted_llm('{"activities": [' + ", ".join(['"working"'] * 16) + "]}")
    schedule = packed_hourly_schedule(llm, ABOUT)
    # 16 hours of "working": code breaks it every 4 hours (day coherence) without asking again.
    assert schedule[0] == ("sleeping", 360) and schedule[-1] == ("sleeping", 120)
    assert sum(m for _, m in schedule) == 24 * 60
    assert all(m <= 240 for a, m in schedule if a != "sleeping")
    assert sum(m for a, m in schedule if a == "working") == 13 * 60
    assert len(model.calls) == 1


def test_the_fail_safe_day_keeps_the_persona_s_required_places_and_hours():
    from reverie.tasks.daily_plan import fail_safe

    inputs = {
        "identity": "Name: Theo Alvarez\nDaily plan requirement: Theo Alvarez works at Willow Creek Town Hall "
        "from 9am to 5pm.",
        "lifestyle": "Theo goes to bed around 11pm, wakes up around 7am.",
        "first_name": "Theo",
        "wake_up_time": "7:00 am",
    }
    items = fail_safe(inputs_with(DAILY_PLAN, **inputs), {}).items
    assert "works at Willow Creek Town Hall from 9:00 am to 5:00 pm" in items
    assert items[0].endswith("at 7:00 am") and items[-1] == "go to bed at 11:00 pm"
    assert plan_order_problem(items, 7, 23) is None


def test_a_packed_day_gets_each_plan_item_at_its_hour_from_code():
    from reverie.tasks.hourly_schedule_packed import plan_placed, unnumbered

    plan = ["wake up at 8:00 am", "paint in Willow Creek Park from 9:00 am to 12:00 pm", "have lunch at 12:00 pm"]
    hours = ["8:00 am", "9:00 am", "10:00 am", "11:00 am", "12:00 pm"]
    # The model wrote the day's order but not its clock: the plan item takes its hour and every hour
    # its from-to time holds (reading at 11:00 am is inside painting from 9 to 12).
    drifted = ["morning routine", "day-night activities", "day-night activities", "reading", "morning routine"]
    assert plan_placed(plan, hours, drifted) == [
        "morning routine",
        "paint in Willow Creek Park",
        "paint in Willow Creek Park",
        "paint in Willow Creek Park",
        "have lunch",
    ]
    # An hour the model gave to the item in its own words keeps them ("painting", "walking to the park").
    followed = ["morning routine", "walking to the park", "painting", "painting", "lunch"]
    assert plan_placed(plan, hours, followed) == followed
    # The bundled model counts instead of planning: the count goes, the repeat stays for the coherence measure.
    assert unnumbered(["morning routine", "morning routine 2", "morning routine 13", "reading #4", "7"]) == [
        "morning routine",
        "morning routine",
        "morning routine",
        "reading",
        "7",
    ]


def test_a_packed_day_keeps_a_from_to_item_in_every_hour_it_holds():
    from reverie.tasks.hourly_schedule_packed import plan_placed, with_breaks

    # Theo's plan and the bundled model's hours from 7:00 am in the README's first run.
    plan = [
        "wake up and complete the morning routine at 7:00 am",
        "buys a coffee at Willow Bean Cafe at 8:00 am",
        "works at Willow Creek Town Hall from 9:00 am to 5:00 pm",
        "go to bed at 11:00 pm",
    ]
    hours = [
        "7:00 am",
        "8:00 am",
        "9:00 am",
        "10:00 am",
        "11:00 am",
        "12:00 pm",
        "1:00 pm",
        "2:00 pm",
        "3:00 pm",
        "4:00 pm",
        "5:00 pm",
        "6:00 pm",
    ]
    model = [
        "morning routine",
        "buys a coffee at Willow Bean Cafe",
        "works at Willow Creek Town Hall",
        "morning routine",
        "morning routine",
        "work",
        "morning routine",
        "morning routine",
        "morning routine",
        "morning routine",
        "going about the day",
        "morning routine",
    ]
    work = "works at Willow Creek Town Hall"
    # 10:00 am to 4:00 pm are work (the model's own "work" at noon is kept); 5:00 pm is past the item.
    assert with_breaks(plan_placed(plan, hours, model)) == [
        "morning routine",
        "buys a coffee at Willow Bean Cafe",
        work,
        work,
        work,
        "work",
        work,
        work,
        work,
        work,
        "going about the day",
        "morning routine",
    ]


def test_a_packed_day_breaks_one_activity_after_4_hours_and_sleeps_only_at_night():
    from reverie.tasks.hourly_schedule_packed import BREAKS, awake_all_day, with_breaks

    assert with_breaks(["studying"] * 8) == ["studying"] * 4 + [BREAKS[0]] + ["studying"] * 3
    kept = ["reading"] + ["studying"] * 4 + ["lunch"] * 3
    assert with_breaks(kept) == kept
    hours = [f"{h}:00 am" for h in range(6, 12)] + ["12:00 pm", "1:00 pm"]
    day = ["waking up", "go to bed", "reading", "sleeping", "sleeping", "lunch", "go to bed", "walk"]
    assert awake_all_day(day, hours, 6, 22) == [
        "waking up",
        "waking up",
        "reading",
        "reading",
        "reading",
        "lunch",
        "lunch",
        "walk",
    ]


def test_a_packed_hour_that_is_only_a_clock_time_goes_on_with_the_hour_before():
    """Scripted fake model: the bundled model listed times in place of activities under the grammar."""
    from reverie.tasks.hourly_schedule_packed import only_a_time

    assert [only_a_time(v) for v in ["9:00 am", "1:15:11:51", "2:40 am", "lunch at 1:00 pm", "reading", ""]] == [
        True,
        True,
        True,
        False,
        False,
        False,
    ]
    day = ['"reading"', '"2:00 pm"', '"walking"'] + ['"painting"'] * 3 + ['"9:00 am"'] + ['"cooking"'] * 9
    llm, model = scripted_llm('{"activities": [' + ", ".join(day) + "]}")
    schedule = packed_hourly_schedule(llm, ABOUT)
    assert len(model.calls) == 1
    assert schedule[1:5] == [("reading", 120), ("walking", 60), ("painting", 240), ("cooking", 240)]


def test_a_fail_safe_day_breaks_a_long_planned_activity_and_goes_back_to_it():
    from reverie.tasks.hourly_schedule import format_plan
    from reverie.tasks.hourly_schedule_packed import BREAKS, fail_safe as hourly_fail_safe

    labels = ["12:00 pm"] + [f"{h}:00 pm" for h in range(1, 10)]
    plan = format_plan(
        ["wake up at 12:00 pm", "work at the town hall from 1:00 pm to 8:00 pm", "go to bed at 10:00 pm"]
    )
    inputs = inputs_with(
        HOURLY_SCHEDULE_PACKED,
        daily_plan=plan,
        hours=", ".join(labels),
        first_name="Theo",
        wake_up_hour="12:00 pm",
        bed_time="10:00 pm",
    )
    day = list(hourly_fail_safe(inputs, {}).activities)
    work = "work at the town hall"
    assert day[1:5] == [work] * 4 and day[5] == BREAKS[0] and day[6:8] == [work] * 2


def test_the_fail_safe_day_of_each_willow_creek_resident_is_coherent():
    """Code-made days (every planning call failed) keep every rule of the coherence measure."""
    from reverie.tasks.daily_plan import planned_day
    from reverie.tasks.plan_check import bed_hour_of
    from reverie.tasks.day_coherence import day_coherence
    from reverie.tasks.hourly_schedule import SLEEPING, format_plan, merge_hours
    from reverie.tasks.hourly_schedule_packed import fail_safe as hourly_fail_safe
    from reverie.tasks.clock import format_hour, hour_after, WAKE_WORDS
    from reverie.tasks.day_rules import awake_hours
    from reverie.worldgen.personas_data import PERSONAS

    assert bed_hour_of("Iris Novak goes to bed around midnight and wakes up around 8am.") == 0
    for person in PERSONAS:
        first = person.name.split()[0]
        wake, bed = hour_after(person.lifestyle, WAKE_WORDS), bed_hour_of(person.lifestyle)
        plan = planned_day(wake, 23 if bed is None else bed, f"Daily plan requirement: {person.daily_plan_req}", first)
        awake = awake_hours(wake, bed)
        labels = [format_hour(h) for h in awake]
        inputs = {
            "daily_plan": format_plan(plan),
            "hours": ", ".join(labels),
            "first_name": first,
            "wake_up_hour": labels[0],
            "bed_time": "" if bed is None else format_hour(bed),
        }
        hourly = merge_hours(
            [SLEEPING] * wake
            + list(hourly_fail_safe(inputs_with(HOURLY_SCHEDULE_PACKED, **inputs), {}).activities)
            + [SLEEPING] * (24 - awake.stop)
        )
        assert day_coherence(first, plan, hourly, bed_hour=bed).violations == [], person.name


@pytest.mark.parametrize(
    "item, wake, bed, expected",
    [
        ("work at the cafe from 9:00 am to 12:00 am", 7, 23, "work at the cafe from 9:00 am to 12:00 pm"),  # noon
        ("study from 1:00 pm to 5:00 am", 7, 23, "study from 1:00 pm to 5:00 pm"),
        ("stream from 10:00 pm to 1:00 am", 9, 2, "stream from 10:00 pm to 1:00 am"),  # a night owl's span is kept
        ("work from 9:00 am to 5:00 pm", 7, 23, "work from 9:00 am to 5:00 pm"),
        # The bundled model's spans in a town run: the start is the half of the day that is wrong.
        ("grade homework from 10:00 pm to 12:30 pm", 7, 0, "grade homework from 10:00 am to 12:30 pm"),
        ("teach history classes from 12:00 am to 14:00 pm", 7, 0, "teach history classes from 12:00 pm to 14:00 pm"),
        ("read from 11:00 am to 1:00 am", 8, 23, "read from 11:00 am to 1:00 pm"),
    ],
)
def test_a_from_to_span_that_ends_before_it_starts_takes_the_other_half_of_the_day(item, wake, bed, expected):
    assert meridiem_fixed(item, wake, bed) == expected


def test_an_item_in_the_bedtime_hour_takes_the_other_half_of_the_day():
    """The bundled model's "have lunch at 10:00 pm" for a persona who goes to bed at 10 pm stayed in
    her plan in a town run, and no hour of her schedule could hold it: from bedtime she sleeps."""
    assert meridiem_fixed("have lunch at 10:00 pm", 6, 22) == "have lunch at 10:00 am"
    assert "outside the waking day" in plan_order_problem(["wake up at 6:00 am", "read at 10:30 pm"], 6, 22)
    assert plan_order_problem(["wake up at 6:00 am", "read at 9:30 pm", "go to bed at 10:00 pm"], 6, 22) is None


def test_a_span_wrong_on_both_readings_is_sent_back():
    from reverie.tasks.plan_check import PlanRules, plan_problem

    items = ["wake up at 7:00 am", "work from 3:00 pm to 2:00 pm", "read at 6:00 pm", "walk at 7:00 pm"]
    assert plan_problem(items, PlanRules.at("7:00 am", bed=23)).startswith(
        'item 2 "work from 3:00 pm to 2:00 pm" ends before it starts or after bedtime; '
        "12:00 pm is noon and 12:00 am is midnight"
    )
    assert plan_order_problem(
        ["wake up at 7:00 am", "work from 9:00 am to 12:00 am", "go to bed at 11:00 pm"], 7, 23
    ).startswith('item 2 "work from 9:00 am to 12:00 am" ends before it starts or after bedtime')


def test_a_from_to_item_ends_where_the_next_timed_item_starts():
    """June Brennan's plan from the 25-person town (the bundled model on a GPU server): teaching from 8 to noon and
    gardening from 9 to noon overlap; the code ends the teaching at 9, so the hourly schedule can hold both items in
    every hour they name and the day is coherent."""
    from reverie.tasks.day_coherence import day_coherence
    from reverie.tasks.hourly_schedule_packed import plan_placed

    june = {
        "inputs": inputs_with(
            DAILY_PLAN, wake_up_time="6:00 am", lifestyle="June goes to bed around 9pm, gets up around 6am."
        )
    }
    reply = {
        "items": [
            "wake up and complete the morning routine at 6:00 am",
            "eat breakfast at 7:00 am",
            "teach history classes at the school from 8:00 am to 12:00 pm",
            "gardens in Willow Creek Park from 9:00 am to 12:00 pm",
            "have lunch at 12:00 pm",
            "grade homework from 1:00 pm to 4:00 pm",
            "take a walk in the park at 5:00 pm",
            "have dinner at 6:00 pm",
            "go to bed at 9:00 pm",
        ]
    }
    plan = DailyPlanReply.model_validate(reply, context=june).items
    assert plan[2:4] == [
        "teach history classes at the school from 8:00 am to 9:00 am",
        "gardens in Willow Creek Park from 9:00 am to 12:00 pm",
    ]
    hours = [f"{h}:00 am" for h in range(6, 12)] + ["12:00 pm"] + [f"{h}:00 pm" for h in range(1, 9)]
    model = [
        "morning routine",
        "eat breakfast",
        "teach history classes at the school",
        "gardening",
        "teach history classes at the school",
        "teach history classes at the school",
        "have lunch",
        "grade homework",
        "grade homework",
        "grade homework",
        "grade homework",
        "take a walk in the park",
        "have dinner",
        "have dinner",
        "have dinner",
    ]
    day = plan_placed(list(plan), hours, model)
    hourly = [("sleeping", 360)] + [(activity, 60) for activity in day] + [("sleeping", 180)]
    assert day_coherence("June Brennan", plan, hourly, bed_hour=21).violations == []
    # Without the cut, the same day breaks the gardening item (held in 1 of its 3 hours).
    uncut = [item.replace("to 9:00 am", "to 12:00 pm") for item in plan]
    hourly = [("sleeping", 360)] + [(a, 60) for a in plan_placed(uncut, hours, model)] + [("sleeping", 180)]
    assert day_coherence("June Brennan", uncut, hourly, bed_hour=21).violations


def test_a_24_hour_time_with_a_stray_am_takes_its_hour():
    """Theo Alvarez's "go to the village fair at 13:00 am" (the 25-person town): read as 1 pm, the code puts it at
    1:00 pm in the hourly schedule instead of leaving it out of the day."""
    from reverie.tasks.hourly_schedule_packed import plan_placed

    plan = ["wake up at 7:00 am", "work at the town hall at 9:00 am", "go to the village fair at 13:00 am"]
    hours = ["7:00 am", "8:00 am", "9:00 am", "10:00 am", "11:00 am", "12:00 pm", "1:00 pm", "2:00 pm"]
    model = ["morning routine", "coffee", "work at the town hall", "work", "work", "lunch", "work", "work"]
    assert plan_placed(plan, hours, model)[6:] == ["go to the village fair", "go to the village fair"]
