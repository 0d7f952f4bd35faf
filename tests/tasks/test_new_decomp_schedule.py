"""new_decomp_schedule: rough minutes are scaled to fill the window; the fail-safe resumes the original plan."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from reverie.tasks.new_decomp_schedule import NewScheduleReply, fail_safe, plan_lines, read_plan_lines, resume_plan
from reverie.tasks.new_decomp_schedule import NEW_DECOMP_SCHEDULE
from reverie.prompt_tools.fixtures import inputs_with

ORIGINAL = [("reading", 60), ("taking notes", 60), ("writing", 60)]


def test_plan_lines_round_trip():
    text = plan_lines(540, ORIGINAL)
    assert text.splitlines()[0] == "09:00 to 10:00 (60 min): reading"
    assert read_plan_lines(text) == ORIGINAL


def test_rough_minutes_need_not_fill_what_is_left():
    ctx = {"inputs": inputs_with(NEW_DECOMP_SCHEDULE, remaining_minutes="135", resume_at="09:45", window_end="12:00")}
    reply = NewScheduleReply.model_validate(
        {"items": [{"activity": "notes", "minutes": 60}, {"activity": "writing", "minutes": 60}]}, context=ctx
    )
    assert [i.minutes for i in reply.items] == [60, 60]
    # An item of no minutes is dropped while a timed one stands; with none timed the reply is sent back.
    reply = NewScheduleReply.model_validate(
        {"items": [{"activity": "notes", "minutes": 60}, {"activity": "writing", "minutes": -5}]}, context=ctx
    )
    assert [(i.activity, i.minutes) for i in reply.items] == [("notes", 60)]
    with pytest.raises(ValidationError, match='item 1 "notes" lasts 0 minutes; give every item a rough positive'):
        NewScheduleReply.model_validate(
            {"items": [{"activity": "notes", "minutes": 0}, {"activity": "writing", "minutes": -5}]}, context=ctx
        )


@pytest.mark.parametrize(
    "offset, remaining, expected",
    [
        (45, 135, [("reading", 15), ("taking notes", 60), ("writing", 60)]),
        (120, 60, [("writing", 60)]),
        (0, 180, ORIGINAL),
        (170, 10, [("writing", 10)]),
    ],
)
def test_resume_plan_starts_where_the_inserted_activity_ends(offset, remaining, expected):
    assert resume_plan(ORIGINAL, offset, remaining) == expected


def test_fail_safe_is_the_rest_of_the_original_plan():
    inputs = {"original_plan": plan_lines(540, ORIGINAL), "remaining_minutes": "135"}
    reply = fail_safe(inputs_with(NEW_DECOMP_SCHEDULE, **inputs), {})
    assert [(i.activity, i.minutes) for i in reply.items] == [("reading", 15), ("taking notes", 60), ("writing", 60)]


# --- through the facade (scripted chat model: fixed replies, not a real model) ----------

from tests.tasks.planning_support import last_user_text, scripted_llm  # noqa: E402

from reverie.tasks.new_decomp_schedule import new_decomp_schedule  # noqa: E402

KW = dict(
    name="Klaus Mueller",
    main_act_dur=ORIGINAL,
    start_minute=540,
    end_minute=720,
    truncated_act_dur=[("reading", 30), ("conversing about the party", 15)],
    inserted_act="conversing about the party",
    inserted_act_dur=15,
)


def test_function_returns_the_whole_window():
    """Scripted valid reply for the 135 minutes left."""
    llm, model = scripted_llm(
        '{"items": [{"activity": "reading", "minutes": 15}, {"activity": "taking notes", "minutes": 120}]}'
    )
    window = new_decomp_schedule(llm, **KW)
    assert window == [("reading", 30), ("conversing about the party", 15), ("reading", 15), ("taking notes", 120)]
    assert sum(m for _, m in window) == 180
    assert "Plan Klaus Mueller's time from 09:45 to 12:00 (135 minutes)." in last_user_text(model)


def test_function_scales_rough_minutes_to_the_time_left():
    """Scripted reply whose minutes add up to 60 of the 135 left: scaled, in 5-minute steps, one call."""
    llm, model = scripted_llm(
        '{"items": [{"activity": "reading", "minutes": 20}, {"activity": "taking notes", "minutes": 40}]}'
    )
    window = new_decomp_schedule(llm, **KW)
    assert window[2:] == [("reading", 45), ("taking notes", 90)]
    assert len(model.calls) == 1


def test_function_fail_safe_resumes_the_original_plan():
    """Scripted replies that are never valid (no minutes) -> the original plan from 09:45 on."""
    llm, model = scripted_llm('{"items": [{"activity": "writing", "minutes": 0}]}')
    window = new_decomp_schedule(llm, **KW)
    assert window[2:] == [("reading", 15), ("taking notes", 60), ("writing", 60)]
    assert 'item 1 "writing" lasts 0 minutes' in model.calls[1].messages[-1].content


def test_inserted_activity_filling_the_window_needs_no_call():
    """Scripted model that must not be called."""
    llm, model = scripted_llm("unused")
    window = new_decomp_schedule(llm, **{**KW, "truncated_act_dur": [("reading", 30), ("conversing", 200)]})
    assert window == [("reading", 30), ("conversing", 150)]
    assert model.calls == []


def test_the_fail_safe_never_raises_on_plans_without_words():
    """A plan line with no letters, and a remaining time that is not a number."""
    from reverie.tasks.new_decomp_schedule import NewScheduleReply, fail_safe

    plan = "09:00 to 10:00 (60 min): (1)\n10:00 to 11:00 (60 min): ..."
    for remaining in ("90", "abc", "-5"):
        reply = fail_safe(inputs_with(NEW_DECOMP_SCHEDULE, original_plan=plan, remaining_minutes=remaining), {})
        assert NewScheduleReply.model_validate(reply.model_dump()) == reply
        assert all(item.activity[0].isalpha() for item in reply.items)


# --- the re-plan inside the day (react.create_react; scripted chat model, not a real model) ---

from datetime import datetime  # noqa: E402
from types import SimpleNamespace  # noqa: E402

from reverie.memory.scratch import NewAction, Scratch  # noqa: E402
from reverie.persona.options import CognitionOptions  # noqa: E402
from reverie.persona.react import create_react  # noqa: E402

HOURLY = [
    ("sleeping", 480),
    ("working", 120),
    ("lunch", 60),
    ("working", 300),
    ("dinner", 120),
    ("reading", 120),
    ("sleeping", 240),
]


@pytest.mark.parametrize(
    "daily",
    [
        # a meeting from 08:50 runs past the window's end at 10:00 (the old re-plan lost 30 minutes)
        [("sleeping", 480), ("emails", 50), ("meeting", 100), ("lunch", 30)] + HOURLY[3:],
        # an earlier re-plan left items that do not meet the hours
        [("sleeping", 475), ("coffee", 25), ("emails", 95), ("lunch", 65)] + HOURLY[3:],
        # sleep ran past the window's start at 08:00 (the old re-plan added 10 minutes)
        [("sleeping", 490), ("emails", 110), ("lunch", 60)] + HOURLY[3:],
    ],
)
@pytest.mark.parametrize(
    "reply",
    [
        '{"items": [{"activity": "working on the report", "minutes": 200}]}',  # rough minutes, far too many
        "never valid",  # the fail-safe resumes the plan
    ],
)
@pytest.mark.parametrize("packed", [False, True])
def test_a_conversation_keeps_the_day_at_1440_minutes(daily, reply, packed):
    assert sum(m for _, m in daily) == 24 * 60
    s = Scratch(name="Klaus Mueller", curr_time=datetime(2023, 2, 13, 8, 20))
    s.f_daily_schedule = [list(item) for item in daily]
    s.f_daily_schedule_hourly_org = [list(item) for item in HOURLY]
    llm, model = scripted_llm(reply)
    create_react(
        SimpleNamespace(name=s.name, scratch=s, options=CognitionOptions(packed_actions=packed)),
        NewAction(
            address="<persona> Maria Lopez",
            duration=25,
            description="conversing about the party",
            pronunciatio="💬",
            event=[s.name, "chat with", "Maria Lopez"],
        ),
        llm,
    )
    assert sum(m for _, m in s.f_daily_schedule) == 24 * 60
    assert "conversing about the party" in [a for a, _ in s.f_daily_schedule]
    assert (model.calls == []) == packed  # packed mode resumes the plan without asking


def test_packed_mode_resumes_the_plan_where_the_inserted_activity_ends_without_a_call():
    """What the asked re-plan's fail-safe gives, with no call (packed mode's re-plan)."""
    from reverie.tasks.new_decomp_schedule import resumed_schedule

    window = resumed_schedule(
        main_act_dur=ORIGINAL, truncated_act_dur=KW["truncated_act_dur"], start_minute=540, end_minute=720
    )
    assert window == [
        ("reading", 30),
        ("conversing about the party", 15),
        ("reading", 15),
        ("taking notes", 60),
        ("writing", 60),
    ]
    filled = resumed_schedule(
        main_act_dur=ORIGINAL,
        truncated_act_dur=[("reading", 30), ("conversing", 200)],
        start_minute=540,
        end_minute=720,
    )
    assert filled == [("reading", 30), ("conversing", 150)]


def test_a_long_decomposed_item_resumes_whole_and_the_fail_safe_keeps_its_subtask_closed():
    """A plan item with its subtask, "item (subtask)", can run past the asked items' 80
    characters. Resumed without a call (packed mode) it is kept whole; it used to be cut at 80
    ("... (work at Willow Bean Ca"), so the persona's action read a broken subtask and was asked
    again. The fail-safe, which must fit the bound, shortens the plan item and keeps the subtask."""
    from reverie.action_text import subtask
    from reverie.tasks.new_decomp_schedule import NewScheduleInputs, fail_safe, plan_lines, resumed_schedule

    long = "get ready for the exhibition on Monday February 13, 2023 (work at Willow Bean Cafe)"
    plan = [("reading", 30), (long, 30)]
    window = resumed_schedule(
        main_act_dur=plan, truncated_act_dur=[("reading", 20), ("conversing", 5)], start_minute=540, end_minute=600
    )
    assert window[-1] == (long, 30)
    reply = fail_safe(
        NewScheduleInputs(
            name="Iris Novak",
            window_start="09:00",
            window_end="10:00",
            original_plan=plan_lines(540, plan),
            inserted_act="conversing",
            inserted_minutes="5",
            done_so_far="",
            resume_at="09:25",
            remaining_minutes="35",
        ),
        {},
    )
    last = reply.items[-1].activity
    assert len(last) <= 80 and subtask(last) == "work at Willow Bean Cafe" and last.startswith("get ready for the")


def test_the_grammar_allows_one_item_per_fifteen_minutes_left():
    """Scripted: 100 of the window's 120 minutes are left after a 20-minute chat, so at most 7
    items (twelve long ones did not fit the reply's max_tokens), and the format line says so."""
    from tests.tasks.planning_support import call_schema, last_user_text, scripted_llm

    from reverie.tasks.new_decomp_schedule import new_decomp_schedule

    llm, model = scripted_llm('{"items": [{"activity": "reading", "minutes": 100}]}')
    got = new_decomp_schedule(
        llm,
        name="Klaus Mueller",
        main_act_dur=[("reading", 120)],
        truncated_act_dur=[("chatting with Maria", 20)],
        start_minute=540,
        end_minute=660,
        inserted_act="chatting with Maria",
        inserted_act_dur=20,
    )
    assert got == [("chatting with Maria", 20), ("reading", 100)]
    assert call_schema(model)["properties"]["items"]["maxItems"] == 7
    assert "(at most 7 items)" in last_user_text(model)
