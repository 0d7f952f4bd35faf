"""wake_up_hour: any hour form is read as 0..23, the range is an enum, the fail-safe reads the lifestyle."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from reverie.tasks.clock import WAKE_WORDS, hour_after
from reverie.tasks.wake_up_hour import WakeUpHourReply, fail_safe
from reverie.tasks.wake_up_hour import WAKE_UP_HOUR
from reverie.prompt_tools.fixtures import inputs_with


@pytest.mark.parametrize(
    "raw, hour",
    [
        (6, 6),
        (0, 0),
        (23, 23),
        ("6", 6),
        ("6am", 6),
        ("6 AM", 6),
        ("6:00 am", 6),
        ("6:30 a.m.", 6),
        ("12am", 0),
        ("12 pm", 12),
        ("7pm", 19),
        ("18:00", 18),
        (7.0, 7),
    ],
)
def test_every_hour_form_is_read(raw, hour):
    assert WakeUpHourReply.model_validate({"hour": raw}).hour == hour


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        (24, "24 is not an hour of the day; answer with a whole number from 0 to 23"),
        (-1, "-1 is not an hour of the day; answer with a whole number from 0 to 23"),
        ("25:00", "25 is not an hour of the day"),
        ("13pm", "'13pm' is not a clock hour; answer with a whole number from 0 to 23, like 7"),
        ("noonish", "'noonish' is not an hour; answer with a whole number from 0 to 23, like 7"),
        (6.5, "Input should be 0, 1, 2, 3"),  # a fraction of an hour is no member of the enum
    ],
)
def test_out_of_range_or_unreadable_hours_are_rejected(raw, problem):
    with pytest.raises(ValidationError, match=re.escape(problem)):
        WakeUpHourReply.model_validate({"hour": raw})


def test_range_is_an_enum_for_the_grammar():
    assert WakeUpHourReply.model_json_schema()["properties"]["hour"]["enum"] == list(range(24))


@pytest.mark.parametrize(
    "lifestyle, hour",
    [
        ("Isabella Rodriguez goes to bed around 11pm, awakes up around 6am.", 6),
        ("Maria Lopez goes to bed around 2am, awakes up around 9am, eats dinner around 6pm.", 9),
        ("She wakes up at 5:30 am and sleeps at 10pm.", 5),
        ("Works nights; gets up around 2pm.", 14),
        ("Likes long walks.", 8),
    ],
)
def test_fail_safe_reads_the_lifestyle(lifestyle, hour):
    assert fail_safe(inputs_with(WAKE_UP_HOUR, lifestyle=lifestyle), {}).hour == hour


def test_hour_after_ignores_bed_time_when_looking_for_waking():
    assert hour_after("goes to bed around 11pm, awakes up around 7am", WAKE_WORDS) == 7


# --- through the facade (scripted chat model: fixed replies, not a real model) ----------

from tests.tasks.planning_support import last_user_text, scripted_llm  # noqa: E402

from reverie.tasks.wake_up_hour import wake_up_hour  # noqa: E402

LIFESTYLE = "Klaus Mueller goes to bed around 11pm, awakes up around 7am, eats dinner around 5pm."


def test_function_returns_an_int_hour():
    """Scripted reply "6:30 am" (a grammar-less model) -> 6."""
    llm, model = scripted_llm('{"hour": "6:30 am"}')
    assert wake_up_hour(llm, identity="Name: Klaus Mueller", lifestyle=LIFESTYLE, first_name="Klaus") == 6
    assert len(model.calls) == 1


def test_function_falls_back_to_the_lifestyle_hour():
    """Scripted replies that are never valid -> the fail-safe reads 7am from the lifestyle, not 8."""
    llm, model = scripted_llm('{"hour": 31}', "seven", '{"hour": "late"}')
    assert wake_up_hour(llm, identity="Name: Klaus Mueller", lifestyle=LIFESTYLE, first_name="Klaus") == 7
    assert len(model.calls) == 3


# --- the hours the lifestyle allows are the call's choices ------------------------------

from reverie.llm.schema import call_schema  # noqa: E402
from reverie.tasks.wake_up_hour import WakeUpHourReply as _Reply, allowed_hours  # noqa: E402


@pytest.mark.parametrize(
    "lifestyle, hours",
    [
        (LIFESTYLE, [6, 7, 8]),
        ("Works nights; goes to bed at 4am and gets up around 12am.", [23, 0, 1]),
        ("Likes long walks.", list(range(24))),
    ],
)
def test_allowed_hours_are_the_lifestyle_s_hour_and_its_neighbours(lifestyle, hours):
    assert allowed_hours(lifestyle) == hours


def test_the_grammar_offers_only_the_allowed_hours():
    schema = call_schema(_Reply, {"hours": [str(h) for h in allowed_hours(LIFESTYLE)]})
    assert schema["properties"]["hour"]["enum"] == [6, 7, 8]


def test_function_asks_with_the_allowed_hours_and_a_grammar_less_hour_outside_them_is_sent_back():
    """Scripted: "13" (the bundled model's answer before the choice existed), then 7."""
    llm, model = scripted_llm('{"hour": 13}', '{"hour": 7}')
    assert wake_up_hour(llm, identity="Name: Klaus Mueller", lifestyle=LIFESTYLE, first_name="Klaus") == 7
    assert len(model.calls) == 2
    assert "13 is not one of the allowed values; choose one of: 6, 7, 8" in last_user_text(model)
