"""identity_*: notes and status checks; fail-safes keep the persona's own currently and requirement."""

from __future__ import annotations

from datetime import datetime

import pytest
from pydantic import ValidationError

from reverie.prompt_tools.fixtures import fixture_inputs, inputs_with
from reverie.tasks.identity import (
    IDENTITY_NEW_CURRENTLY,
    IDENTITY_NEW_DAILY_REQ,
    CurrentlyReply,
    DailyReqReply,
    format_statements,
    join_items,
    split_numbered,
)

IDENTITY = (
    "Name: Klaus Mueller\nAge: 20\nCurrently: Klaus Mueller is writing a research paper.\n"
    "Lifestyle: Klaus Mueller goes to bed around 11pm, awakes up around 7am, eats dinner around 5pm.\n"
    "Daily plan requirement: Klaus Mueller goes to the library at Oak Hill College early in the morning, spends his days "
    "writing, and eats at Hobbs Cafe.\nCurrent Date: Tuesday February 14"
)


def test_status_prefix_is_dropped_and_third_person_required():
    ctx = {"inputs": fixture_inputs(IDENTITY_NEW_CURRENTLY, name="Klaus Mueller")}
    reply = CurrentlyReply.model_validate(
        {"status": "Status: Klaus Mueller is finishing his paper today."}, context=ctx
    )
    assert reply.status == "Klaus Mueller is finishing his paper today."
    with pytest.raises(ValidationError, match="third person"):
        CurrentlyReply.model_validate({"status": "I am finishing my paper today at the library."}, context=ctx)


def test_currently_fail_safe_keeps_yesterdays_status():
    old = "Klaus Mueller is writing a research paper on the effects of gentrification."
    reply = IDENTITY_NEW_CURRENTLY.fail_safe(
        fixture_inputs(IDENTITY_NEW_CURRENTLY, name="Klaus Mueller", currently=old), {}
    )
    assert reply.status == old


def test_daily_req_fail_safe_keeps_the_old_requirement_between_waking_and_bed():
    inputs = fixture_inputs(IDENTITY_NEW_DAILY_REQ, identity=IDENTITY, wake_up_time="7:00 am", name="Klaus Mueller")
    reply = IDENTITY_NEW_DAILY_REQ.fail_safe(inputs, {})
    DailyReqReply.model_validate(reply.model_dump(), context={"inputs": inputs})
    assert reply.items[0] == "wake up and complete the morning routine at 7:00 am"
    assert reply.items[1].startswith("Klaus Mueller goes to the library")
    assert reply.items[-1] == "go to bed at 11:00 pm"


def test_daily_req_fail_safe_reads_back_a_numbered_requirement():
    identity = IDENTITY.replace(
        IDENTITY.split("Daily plan requirement: ")[1].split("\n")[0],
        "1) wake up and complete the morning routine at 6:00 am, 2) write at the library from 8:00 am to 12:00 pm, "
        "3) go to bed at 11:00 pm",
    )
    reply = IDENTITY_NEW_DAILY_REQ.fail_safe(
        fixture_inputs(IDENTITY_NEW_DAILY_REQ, identity=identity, wake_up_time="7:00 am"), {}
    )
    assert reply.items == [
        "wake up and complete the morning routine at 7:00 am",
        "write at the library from 8:00 am to 12:00 pm",
        "go to bed at 11:00 pm",
    ]


def test_numbered_join_and_split_are_inverse():
    items = ["wake up at 7:00 am", "write, then read at 9:00 am", "go to bed at 11:00 pm"]
    assert join_items(items) == "1) wake up at 7:00 am, 2) write, then read at 9:00 am, 3) go to bed at 11:00 pm"
    assert split_numbered(join_items(items)) == items


def test_statements_format():
    text = format_statements([(datetime(2023, 2, 13, 15, 5), "Isabella is buying\ndecorations")])
    assert text == "Monday February 13 -- 03:05 PM: Isabella is buying decorations"


# --- through the facade (scripted chat model: fixed replies, not a real model) ----------

from tests.tasks.planning_support import scripted_llm  # noqa: E402

from reverie.tasks.identity import revise_identity  # noqa: E402


def test_revise_identity_runs_four_prompts_and_stores_plain_values():
    """Scripted replies for the four prompts; the new status feeds the daily requirement's identity."""
    llm, model = scripted_llm(
        '{"note": "I must finish the methods section and go to the party at 5pm."}',
        '{"note": "I have felt productive and a bit tired this week."}',
        '{"status": "Status: Klaus Mueller is finishing the methods section of his paper today."}',
        '{"items": ["wake up at 7:00 am", "write at the library from 8:00 am to 12:00 pm", "go to the party at 5:00 pm"]}',
    )
    currently, req = revise_identity(
        llm,
        name="Klaus Mueller",
        identity=IDENTITY,
        currently="Klaus Mueller is writing.",
        statements="Monday February 13 -- 09:00 AM: Klaus is writing",
        date="Tuesday February 14",
        wake_up_hour=7,
    )
    assert currently == "Klaus Mueller is finishing the methods section of his paper today."
    assert req == (
        "1) wake up and complete the morning routine at 7:00 am, 2) write at the library from 8:00 am to 12:00 pm, "
        "3) go to the party at 5:00 pm, 4) go to bed at 11:00 pm"
    )  # the lifestyle's bedtime, written by the code
    assert len(model.calls) == 4
    assert "Currently: Klaus Mueller is finishing the methods section" in str(model.calls[3][0][-1].content)


@pytest.mark.parametrize(
    "text",
    [
        "My paper is due, so Klaus Mueller writes.",
        "Klaus Mueller and I are writing today.",
        "Klaus Mueller says I'm writing all day.",
    ],
)
def test_first_person_words_are_caught_at_any_position(text):
    with pytest.raises(ValidationError, match="third person"):
        CurrentlyReply.model_validate(
            {"status": text}, context={"inputs": inputs_with(IDENTITY_NEW_CURRENTLY, name="Klaus Mueller")}
        )


def test_daily_req_is_put_in_time_order_between_waking_and_the_lifestyle_s_bedtime():
    """The code keeps the clock: waking first (written by the code), items by their times, bed last at 11pm."""
    ctx = {
        "inputs": inputs_with(IDENTITY_NEW_DAILY_REQ, identity=IDENTITY, name="Klaus Mueller", wake_up_time="7:00 am")
    }
    reply = DailyReqReply.model_validate(
        {"items": ["eat at Hobbs Cafe at 12:00 pm", "go to bed at 9:00 am", "write at the library at 8:00 am"]},
        context=ctx,
    )
    assert reply.items == [
        "wake up and complete the morning routine at 7:00 am",
        "write at the library at 8:00 am",
        "eat at Hobbs Cafe at 12:00 pm",
        "go to bed at 11:00 pm",
    ]


def test_daily_req_in_the_first_person_is_sent_back():
    """The bundled model's answer: sentences spoken by the character."""
    ctx = {
        "inputs": inputs_with(IDENTITY_NEW_DAILY_REQ, identity=IDENTITY, name="Klaus Mueller", wake_up_time="7:00 am")
    }
    with pytest.raises(
        ValidationError, match='item 1 "write my paper at 9:00 am" is written as the character speaking'
    ):
        DailyReqReply.model_validate(
            {"items": ["write my paper at 9:00 am", "lunch at 12:00 pm", "read at 3:00 pm"]}, context=ctx
        )
    reply = DailyReqReply.model_validate(
        {"items": ["I'm planning to write at 9:00 am", "lunch at 12:00 pm", "read at 3:00 pm"]}, context=ctx
    )
    assert "write at 9:00 am" in reply.items


@pytest.mark.parametrize(
    "status, expected",
    [
        (
            "I am hosting the party at Hobbs Cafe today from 5pm to 7pm.",
            "Klaus Mueller is hosting the party at Hobbs Cafe today from 5pm to 7pm.",
        ),
        (
            "I'll finish the methods section of the paper today.",
            "Klaus Mueller will finish the methods section of the paper today.",
        ),
    ],
)
def test_a_status_opening_with_i_am_is_written_with_the_name(status, expected):
    """The bundled model's answer: it copies yesterday's first-person thought; the code puts the name in front."""
    ctx = {"inputs": fixture_inputs(IDENTITY_NEW_CURRENTLY, name="Klaus Mueller")}
    assert CurrentlyReply.model_validate({"status": status}, context=ctx).status == expected


def test_first_person_words_after_the_opening_are_still_sent_back():
    ctx = {"inputs": fixture_inputs(IDENTITY_NEW_CURRENTLY, name="Klaus Mueller")}
    with pytest.raises(ValidationError, match="write the status in the third person"):
        CurrentlyReply.model_validate({"status": "I am finishing my paper at the library today."}, context=ctx)
