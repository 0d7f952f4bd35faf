"""daily_plan: the whole list is kept, item 1 is the fixed wake-up line, the fail-safe is one sensible day."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from reverie.tasks.daily_plan import DAILY_PLAN, DailyPlanReply, fail_safe, generic_day
from reverie.tasks.plan_check import as_activity, wake_up_line
from reverie.prompt_tools.fixtures import inputs_with
from reverie.tasks.day_rules import clock_minute

CTX = {"inputs": inputs_with(DAILY_PLAN, wake_up_time="6:00 am"), "choices": {}}

# What a reply hears when the checks leave too few timed activities of it.
LEFT_TOO_FEW = "list at least 4 activities that start in different hours after waking up at 6:00 am; yours leave 3"


def checked(items: list[str], ctx: dict = CTX) -> list[str]:
    """The plan the reply's checks keep of ``items`` (a ValidationError: the reply is sent back)."""
    return DailyPlanReply.model_validate({"items": items}, context=ctx).items


def test_every_item_including_the_last_is_kept():
    items = ["wake up at 6:00 am"] + [f"activity number {i} at {i}:00 pm" for i in range(1, 8)]
    reply = DailyPlanReply.model_validate({"items": items}, context=CTX)
    assert len(reply.items) == 8
    assert reply.items[-1] == "activity number 7 at 7:00 pm"


def test_numbering_is_stripped():
    reply = DailyPlanReply.model_validate(
        {"items": ["1) wake up at 6:00 am", "2. open the cafe at 8:00 am", "3) lunch at noon", "- bed at 11:00 pm"]},
        context=CTX,
    )
    assert reply.items == [
        "wake up and complete the morning routine at 6:00 am",
        "open the cafe at 8:00 am",
        "lunch at noon",
        "bed at 11:00 pm",
    ]


def test_an_item_that_starts_with_its_clock_time_keeps_it():
    """ "9:00 am: open the cafe" is no list number: the hour stays with the item."""
    reply = DailyPlanReply.model_validate(
        {
            "items": [
                "6:00 am wake up",
                "9:00 am open the cafe",
                "12:30 pm: lunch",
                "1: read at 8:00 pm",
                "10:00 pm go to bed",
            ]
        },
        context=CTX,
    )
    assert reply.items == [
        "wake up and complete the morning routine at 6:00 am",
        "9:00 am open the cafe",
        "12:30 pm: lunch",
        "read at 8:00 pm",
        "10:00 pm go to bed",
    ]


def test_the_code_writes_the_waking_item_and_orders_the_items_by_their_times():
    """The bundled model's kind of reply: waking at the wrong hour, times out of order, bed in the middle."""
    items = [
        "wake up at 11:00 am",
        "visit the beach at 3:00 pm",
        "go to bed at 10:00 pm",
        "work at the shop",
        "eat breakfast at 7:00 am",
        "read at 8:00 pm",
    ]
    assert checked(items) == [
        "wake up and complete the morning routine at 6:00 am",
        "eat breakfast at 7:00 am",
        "visit the beach at 3:00 pm",
        "read at 8:00 pm",
        "go to bed at 10:00 pm",
    ]


def test_an_item_without_a_time_is_left_out_while_enough_timed_ones_remain():
    """The bundled model's 25-person day: items that are no activity and carry no time ("Nora's plan",
    "2 days ago") were nowhere in the hourly schedule, the day's only coherence violations."""
    items = [
        "wake up at 6:00 am",
        "Nora's plan",
        "open the cafe at 7:00 am",
        "2 days ago",
        "lunch at noon",
        "go to bed at 10:00 pm",
    ]
    assert checked(items) == [
        "wake up and complete the morning routine at 6:00 am",
        "open the cafe at 7:00 am",
        "lunch at noon",
        "go to bed at 10:00 pm",
    ]
    # Counted after the one-item-an-hour cut: breakfast in the wake-up hour goes, so the untimed item stays.
    items = [
        "wake up at 6:00 am",
        "read the news",
        "eat breakfast at 6:30 am",
        "open the cafe at 8:00 am",
        "go to bed at 10:00 pm",
    ]
    assert checked(items) == [
        "wake up and complete the morning routine at 6:00 am",
        "read the news at 7:00 am",
        "open the cafe at 8:00 am",
        "go to bed at 10:00 pm",
    ]
    # Without it, the cut leaves three: sent back, not kept as a plan too short for its schema.
    with pytest.raises(ValidationError, match=LEFT_TOO_FEW):
        checked([i for i in items if i != "read the news"])


def test_untimed_items_kept_get_the_free_hours_after_the_item_before_them():
    """The bundled model's whole day: 3 of 25 days broke coherence with plan items that had no time
    (so no hour of the hourly schedule held them), kept because too few timed ones were left."""
    items = [
        "Lucy is creating posters for local events",
        "works at the shop from 7:00 am to 11:00 am",
        "writing a blog post.",
        "creating posters",
        "go to bed at 10:00 pm",
    ]
    assert checked(items) == [
        "wake up and complete the morning routine at 6:00 am",
        "works at the shop from 7:00 am to 11:00 am",
        "Lucy is creating posters for local events at 11:00 am",
        "writing a blog post at 12:00 pm",
        "creating posters at 1:00 pm",
        "go to bed at 10:00 pm",
    ]
    # sleeping is the night's, not an hour of the day: left out, and a plan left too short is sent back
    with pytest.raises(ValidationError, match=LEFT_TOO_FEW):
        checked(["sleep for 10 hours", "write from 9:00 am to 4:00 pm", "sleeping in", "go to bed at 10:00 pm"])


@pytest.mark.parametrize(
    "items, kept",
    [
        pytest.param(
            ["wake up at 6:00 am", "open the cafe at 7:00 am", "work at the shop", "go to bed at 10:00 pm"],
            ["open the cafe at 7:00 am", "work at the shop at 8:00 am"],
            id="too few timed ones: the untimed item stays, at the first free hour after the one it followed",
        ),
        pytest.param(
            ["work from 7:00 am to 9:00 pm", "go for a walk", "write letters", "go to bed at 10:00 pm"],
            ["work from 7:00 am to 9:00 pm", "go for a walk at 9:00 pm"],
            id="an item no free hour is left for before bedtime is left out",
        ),
    ],
)
def test_untimed_items_take_the_free_hours_left(items, kept):
    assert checked(items) == ["wake up and complete the morning routine at 6:00 am", *kept, "go to bed at 10:00 pm"]


SENT_BACK = [
    pytest.param(
        [
            "wake up at 6:00 am",
            "go to the beach at 3:00 pm",
            "go to the beach at 1:00 pm",
            "go to the beach at 5:00 pm",
        ],
        "list at least 4 different activities; yours has 2 \\(2 repeated\\)",
        id="the same activity at other times is a repeat",
    ),
    pytest.param(
        ["wake up at 6:00 am", "meet my sister at the cafe at 8:00 am", "have lunch at 12:00 pm", "read at 3:00 pm"],
        'item 2 "meet my sister at the cafe at 8:00 am" is written as the character speaking',
        id="an item in the first person",
    ),
    pytest.param(  # the bundled model's answer for Klaus: "go to bed at ..." for most items
        [
            "wake up at 6:00 am",
            "eat dinner at 7:30 pm",
            "go to bed at 11:00 am",
            "go to bed at 12:30 pm",
            "go to bed at 2:00 pm",
        ],
        "yours has 3; going to bed is one item, the last \\(yours has 3\\)",
        id="a plan of bedtimes: bed comes once",
    ),
]


@pytest.mark.parametrize("items, message", SENT_BACK)
def test_a_plan_is_sent_back_saying_what_to_mend(items, message):
    with pytest.raises(ValidationError, match=message):
        checked(items)


@pytest.mark.parametrize(
    "item, activity",
    [
        ("I'm opening the cafe at 8:00 am", "opening the cafe at 8:00 am"),
        ("I'm planning to have a party at Hobbs Cafe at 5pm.", "have a party at Hobbs Cafe at 5pm."),
        ("I am going to make people feel welcome at my cafe", "make people feel welcome at the cafe"),
        ("I will read at 3:00 pm. I'm going to read a lot.", "read at 3:00 pm"),
        ("Today is Tuesday February 14", None),
        ("It is a day of dreams", None),
        ("meet my sister at 8:00 am", "meet my sister at 8:00 am"),  # no intent to put plainly: sent back
    ],
)
def test_an_intent_in_the_first_person_is_the_activity_and_a_statement_about_the_day_is_left_out(item, activity):
    assert as_activity(item) == activity


def test_the_bundled_models_first_person_plan_keeps_its_activities():
    """The bundled model's new-day requirement: a date, then intents spoken by the character."""
    items = [
        "Today is Tuesday February 14",
        "I'm planning to have a party at Hobbs Cafe at 5pm.",
        "I'm going to make people feel welcome at my cafe today.",
        "I'm going to have a party at Hobbs Cafe at 5pm.",
        "go to bed at 10:00 pm",
    ]
    reply = DailyPlanReply.model_validate({"items": items}, context=CTX)
    assert reply.items[1:-1] == [
        "have a party at Hobbs Cafe at 5pm.",
        "make people feel welcome at the cafe today at 6:00 pm",
    ]


@pytest.mark.parametrize("wake", [0, 5, 6, 9, 11, 12, 15, 20, 23])
def test_generic_day_is_valid_and_starts_once_with_waking_up(wake):
    items = generic_day(wake)
    reply = DailyPlanReply.model_validate(
        {"items": items}, context={"inputs": inputs_with(DAILY_PLAN, wake_up_time="x")}
    )
    assert reply.items[0] == wake_up_line(wake)
    assert sum("wake up" in item for item in reply.items) == 1
    assert reply.items[-1] == "go to bed at 11:00 pm"


def test_fail_safe_uses_the_wake_up_hour_and_the_bed_time():
    reply = fail_safe(
        inputs_with(DAILY_PLAN, wake_up_time="9:00 am", lifestyle="goes to bed around 2am, awakes up around 9am"), {}
    )
    assert reply.items[0] == "wake up and complete the morning routine at 9:00 am"
    assert reply.items[-1] == "go to bed at 2:00 am"
    assert "eat breakfast at 10:00 am" in reply.items


# --- through the facade (scripted chat model: fixed replies, not a real model) ----------

from tests.tasks.planning_support import scripted_llm  # noqa: E402

from reverie.tasks.daily_plan import daily_plan  # noqa: E402

KW = dict(
    identity="Name: Isabella Rodriguez",
    lifestyle="goes to bed around 11pm, awakes up around 6am",
    date="Monday February 13",
    first_name="Isabella",
    wake_up_hour=6,
)


def test_function_keeps_every_item_and_writes_the_wake_up_line_once():
    """Scripted valid reply: the first item is rewritten in the fixed wording, the last item stays."""
    llm, _ = scripted_llm(
        '{"items": ["get up at 6am", "open Hobbs Cafe at 8:00 am", "lunch at 12:00 pm", "close the cafe at 8:00 pm", "go to bed at 11:00 pm"]}'
    )
    plan = daily_plan(llm, **KW)
    assert plan == [
        "wake up and complete the morning routine at 6:00 am",
        "open Hobbs Cafe at 8:00 am",
        "lunch at 12:00 pm",
        "close the cafe at 8:00 pm",
        "go to bed at 11:00 pm",
    ]


def test_function_writes_a_missing_wake_up_item_itself():
    """Scripted: a reply without the waking item is accepted in one call; the code writes it first."""
    llm, model = scripted_llm(
        '{"items": ["open the cafe at 8:00 am", "work", "lunch at noon", "go to bed at 11:00 pm"]}'
    )
    assert daily_plan(llm, **KW)[:2] == [
        "wake up and complete the morning routine at 6:00 am",
        "open the cafe at 8:00 am",
    ]
    assert len(model.calls) == 1


def test_function_fail_safe_has_one_wake_up_line():
    """Scripted replies that are never valid -> the generic day, wake-up line once (the original had it twice)."""
    llm, _ = scripted_llm("no idea")
    plan = daily_plan(llm, **KW)
    assert plan[0] == "wake up and complete the morning routine at 6:00 am"
    assert sum("wake up" in item for item in plan) == 1


def test_exact_repeats_are_dropped_but_enough_must_remain():
    items = [
        "wake up at 6:00 am",
        "open the cafe at 8:00 am",
        "open the cafe at 8:00 am.",
        "lunch at noon",
        "bed at 11:00 pm",
    ]
    assert checked(items) == [
        "wake up and complete the morning routine at 6:00 am",
        "open the cafe at 8:00 am",
        "lunch at noon",
        "bed at 11:00 pm",
    ]
    with pytest.raises(ValidationError, match="list at least 4 different activities; yours has 3 \\(2 repeated\\)"):
        checked(["wake up at 6:00 am", "work", "work", "work", "bed"])


NORA = (
    "Name: Nora Bennett\nDaily plan requirement: Nora Bennett opens Willow Bean Cafe at 7am and works behind "
    "the counter until 3pm."
)


@pytest.mark.parametrize(
    "requirement, clauses",
    [
        (
            "Nora Bennett opens Willow Bean Cafe at 7am and works behind the counter until 3pm.",
            ["opens Willow Bean Cafe at 7:00 am", "works behind the counter at Willow Bean Cafe until 3:00 pm"],
        ),
        (
            "Iris Novak paints in Willow Creek Park from 9am to 12pm and works at Creek Corner Shop from 1pm to 6pm.",
            [
                "paints in Willow Creek Park from 9:00 am to 12:00 pm",
                "works at Creek Corner Shop from 1:00 pm to 6:00 pm",
            ],
        ),
        (
            "Ruby Castillo works at Willow Bean Cafe from noon to 8pm.",
            ["works at Willow Bean Cafe from 12:00 pm to 8:00 pm"],
        ),
        ("Dev Patel works on his laptop from 9am to 5pm.", ["works on his laptop from 9:00 am to 5:00 pm"]),
    ],
)
def test_a_requirement_clause_without_a_place_happens_where_the_one_before_did(requirement, clauses):
    from reverie.tasks.daily_plan import requirement_items

    name = requirement.split()[0]
    assert requirement_items(f"Daily plan requirement: {requirement}", name) == clauses


def test_a_revised_requirement_s_numbered_items_are_each_its_own_commitment():
    """From the second day, the requirement is the revision's plan as "1) ..., 2) ...": each item
    keeps its own place (none carried from the item before), without its number, and waking
    up and going to bed stay the code's own."""
    from reverie.tasks.daily_plan import requirement_items

    revised = (
        "1) wake up and complete the morning routine at 8:00 am, 2) paint in Elm Park from 9:00 am to "
        "12:00 pm, 3) have lunch at 12:00 pm, 4) work at the shop from 1:00 pm to 6:00 pm, 5) go to bed at 12:00 am"
    )
    assert requirement_items(f"Daily plan requirement: {revised}", "Ana") == [
        "paint in Elm Park from 9:00 am to 12:00 pm",
        "have lunch at 12:00 pm",
        "work at the shop from 1:00 pm to 6:00 pm",
    ]


def test_the_persona_s_own_commitments_are_in_the_plan_at_their_times():
    """The bundled model's plan for the cafe owner: the example's teacher's day. The code puts her
    requirement in at its hours (what the reply had at 7 am gives way) and keeps the rest."""
    ctx = {
        "inputs": inputs_with(
            DAILY_PLAN,
            wake_up_time="5:00 am",
            identity=NORA,
            first_name="Nora",
            lifestyle="Nora Bennett goes to bed around 10pm, wakes up around 5am",
        )
    }
    items = [
        "wake up at 5:00 am",
        "eat breakfast at 6:00 am",
        "teach history classes at the school from 7:00 am to 12:00 pm",
        "have lunch at 12:00 pm",
        "grade homework from 1:00 pm to 4:00 pm",
        "go to bed at 10:00 pm",
    ]
    assert checked(items, ctx) == [
        "wake up and complete the morning routine at 5:00 am",
        "eat breakfast at 6:00 am",
        "opens Willow Bean Cafe at 7:00 am",
        "have lunch at 12:00 pm",
        "grade homework from 1:00 pm to 4:00 pm",
        "works behind the counter at Willow Bean Cafe until 3:00 pm",
        "go to bed at 10:00 pm",
    ]


def test_a_full_plan_makes_room_for_the_commitments_dropping_its_untimed_then_its_latest_items():
    from reverie.tasks.plan_check import MAX_ITEMS, with_requirements

    items = ["wake up at 5:00 am", "read a book"] + [f"do chore {h} at {h}:00 pm" for h in range(1, 9)]
    kept = with_requirements(items, ["opens Willow Bean Cafe at 7:00 am", "works until 3:00 pm"], 5, 22)
    assert len([i for i in kept if "wake" not in i]) == MAX_ITEMS - 2
    assert "read a book" not in kept and "do chore 8 at 8:00 pm" not in kept and "do chore 3 at 3:00 pm" not in kept
    assert kept[-2:] == ["opens Willow Bean Cafe at 7:00 am", "works until 3:00 pm"]
    # A commitment outside the waking day is left out.
    assert with_requirements(["read at 9:00 am"], ["works at 11:00 pm"], 7, 22) == ["read at 9:00 am"]


def test_one_item_an_hour_and_none_in_the_wake_up_hour_or_inside_a_commitment():
    """The bundled model's day for Theo: a walk at his wake-up hour, a beach and a church inside
    his working hours. The schedule holds one activity an hour, so those would never be done."""
    from reverie.tasks.plan_check import one_an_hour
    from reverie.tasks.day_rules import clock_span

    work = "works at Willow Creek Town Hall from 9:00 am to 5:00 pm"
    items = [
        "take a walk at 7:00 am",
        "eat breakfast at 8:00 am",
        "have coffee at 8:30 am",
        work,
        "go to the beach at 1:30 pm",
        "go to the church at 2:00 pm",
        "read a book",
        "have dinner at 6:00 pm",
    ]
    assert one_an_hour(items, 7, [work]) == ["eat breakfast at 8:00 am", work, "read a book", "have dinner at 6:00 pm"]
    assert clock_span(work) == (540, 1020) and clock_span("have dinner at 6:00 pm") is None


def test_a_span_past_midnight_holds_its_hours_for_untimed_items_and_other_items():
    """A night owl's shift from 10 pm to 2 am: an untimed item goes after it, not at 11 pm inside
    it, and an item at 11:00 pm gives way to the commitment (one rule for a span's hours)."""
    from reverie.tasks.plan_check import at_free_hours, one_an_hour

    shift = "works at the bar from 10:00 pm to 2:00 am"
    items = ["wake up at 12:00 pm", "have lunch at 1:00 pm", shift, "read a book", "go to bed at 3:00 am"]
    assert at_free_hours(items, 12, 3)[3] == "read a book at 2:00 am"
    assert one_an_hour(["have lunch at 1:00 pm", shift, "have a snack at 11:00 pm"], 12, [shift]) == [
        "have lunch at 1:00 pm",
        shift,
    ]


ZARA = (
    "Name: Zara Okafor\nLearned traits: Zara Okafor is a student at Willow Creek School.\n"
    "Daily plan requirement: Zara Okafor goes to Willow Creek School from 8am to 3pm."
)
ZARA_CTX = {
    "inputs": inputs_with(
        DAILY_PLAN,
        wake_up_time="7:00 am",
        identity=ZARA,
        first_name="Zara",
        lifestyle="Zara Okafor goes to bed around 9pm and wakes up around 7am.",
    )
}


def test_a_day_whose_hours_the_commitments_took_is_filled_with_meals_not_sent_back():
    """The bundled model's first plan for Zara in a town run: four activities of its own, all inside
    her school hours. The code puts school in and drops them; the model cannot know which hours the
    code takes, and three attempts of it ended in the fail-safe. The hours left free get meals."""
    items = [
        "wake up and complete the morning routine at 7:00 am",
        "eat breakfast at 8:00 am",
        "teach the next day's science at 9:00 am",
        "go to bed at 9:00 am",
        "go to school at 12:00 am",
        "go to bed at 10:00 am",
        "go to school at 2:00 pm",
        "go to bed at 12:00 am",
        "go to bed at 1:00 pm",
    ]
    plan = checked(items, ZARA_CTX)
    assert plan[:2] == [
        "wake up and complete the morning routine at 7:00 am",
        "goes to Willow Creek School from 8:00 am to 3:00 pm",
    ]
    assert plan[-1] == "go to bed at 9:00 pm"
    middle = plan[2:-1]
    assert middle and all(15 <= clock_minute(item) // 60 < 21 for item in middle)  # after school, before bed
    assert len({clock_minute(item) // 60 for item in middle}) == len(middle)  # one an hour
    assert sum("dinner" in item for item in plan) == 1


def test_a_reply_that_is_short_on_its_own_is_still_sent_back_when_a_commitment_is_known():
    """The bundled model's "go to school" at every hour is one activity: the reply itself is short,
    so the model is asked again (the code fills only the hours its own commitments took)."""
    items = ["wake up and complete the morning routine at 7:00 am"] + [
        f"go to school at {h}:00 pm" for h in (1, 2, 4, 6)
    ]
    with pytest.raises(ValidationError) as caught:
        DailyPlanReply.model_validate({"items": items}, context=ZARA_CTX)
    assert "list at least 4 different activities; yours has 3" in str(caught.value)


def test_a_meal_the_reply_has_is_not_added_again():
    from reverie.tasks.plan_check import fillers

    added = fillers(["have dinner at 7:00 pm", "works from 8:00 am to 3:00 pm"], 7, 23)
    assert not any("dinner" in item for item in added)
    assert not any(8 <= clock_minute(item) // 60 < 15 for item in added)
    assert "have lunch at 12:00 pm" not in added and "take a short break at 3:00 pm" in added


@pytest.mark.parametrize(
    "looped, cut",
    [
        # The bundled model's plan items in a town run.
        (
            "go to school this Monday February 13 to school to school to school to school to school",
            "go to school this Monday February 13 to school",
        ),
        (
            "go to school this Monday February 13 this Monday February 13 this Monday February 13",
            "go to school this Monday February 13",
        ),
        (
            "go to town hall to discuss town council election. go to town hall to discuss town council election. go to #",
            "go to town hall to discuss town council election",
        ),
        ("have a very very good lunch at 12:00 pm", "have a very very good lunch at 12:00 pm"),  # no loop
        ("talk to Ken and Ken and Ken at 3:00 pm", "talk to Ken and Ken and Ken at 3:00 pm"),
    ],
)
def test_a_looping_item_keeps_its_first_copy(looped, cut):
    from reverie.tasks.common import loop_cut

    assert loop_cut(looped) == cut


def test_a_plan_item_that_ran_on_repeating_itself_is_one_activity():
    """The bundled model's plan for Clara: one activity, then the same again until the string's
    bound. Cut to its first copy, it is a repeat of the item before and leaves the plan."""
    items = [
        "wake up at 6:00 am",
        "go to town hall to discuss town council election at 4:00 pm",
        "go to town hall to discuss town council election. go to town hall to discuss town council election. go to #",
        "teach the town about history",
        "go to bed at 10:00 pm",
    ]
    plan = checked(items)
    assert sum("election" in item for item in plan) == 1
    assert plan[1] == "go to town hall to discuss town council election at 4:00 pm"
