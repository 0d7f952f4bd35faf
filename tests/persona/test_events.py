"""A seeded event in a persona's day: the schedule makes room for it."""

from __future__ import annotations

from reverie.persona.events import PlannedEvent, in_plan, splice
from reverie.tasks.day_rules import activity_clock_problem, plan_order_problem

PARTY = PlannedEvent("February 13, 2023", 17 * 60, 19 * 60, "Willow Bean Cafe", "cafe", "hosting a party")


def _starts(schedule):
    t, out = 0, []
    for activity, minutes in schedule:
        out.append((t, activity, minutes))
        t += minutes
    return out


def test_the_event_cuts_the_blocks_it_overlaps():
    day = [["sleeping", 360], ["working", 600], ["dinner", 120], ["reading", 120], ["sleeping", 240]]
    got = splice(day, PARTY)
    assert _starts(got) == [
        (0, "sleeping", 360),
        (360, "working", 600),
        (960, "dinner", 60),
        (1020, PARTY.activity, 120),
        (1140, "reading", 60),
        (1200, "sleeping", 240),
    ]
    assert sum(m for _, m in got) == 1440


def test_an_event_on_a_block_boundary_and_a_short_schedule():
    got = splice([["work", 1020], ["rest", 420]], PARTY)
    assert _starts(got) == [(0, "work", 1020), (1020, PARTY.activity, 120), (1140, "rest", 300)]
    short = splice([["work", 600]], PARTY)
    assert _starts(short) == [(0, "work", 600), (600, "sleeping", 420), (1020, PARTY.activity, 120)]


def test_the_activity_is_not_decomposed_and_names_the_place_but_no_clock():
    assert "(" in PARTY.activity and "Willow Bean Cafe" in PARTY.activity
    assert activity_clock_problem(PARTY.activity) is None, "the schedule holds the time; the activity names none"


def test_the_event_enters_the_plan_in_time_order_before_bed():
    plan = ["wake up at 6:00 am", "open the cafe at 8:00 am", "close the cafe at 8:00 pm", "go to bed at 11:00 pm"]
    line = "hosting a party from 5:00 pm to 7:00 pm"
    got = in_plan(plan, line, PARTY.start)
    assert got == plan[:2] + [line] + plan[2:]
    assert plan_order_problem(got, 6, 23) is None
    late = in_plan(plan[:2] + plan[3:], line, PARTY.start)
    assert late[-1] == "go to bed at 11:00 pm" and late[-2] == line
