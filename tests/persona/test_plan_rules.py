"""Rules of planning and reflecting that need no model (fixed quirks of the original included)."""

from datetime import datetime, timedelta
from types import SimpleNamespace

import pytest

from reverie.address import PersonaAt, WaitingAt
from reverie.memory import Scratch
from reverie.memory.event import NO_EVENT, Event
from reverie.memory.scratch import NewAction
from reverie.persona.perceive import remember_event
from reverie.persona.plan_action import decompose, should_decompose
from reverie.persona.plan_day import plan_new_day
from reverie.persona.react import create_react, reaction_window, should_react, wait_react
from reverie.persona.reactions import WaitUntil
from reverie.persona.reflect import chat_ends_this_step
from reverie.persona.step import NewDay


def test_sleep_is_not_decomposed_but_short_bed_tasks_are():
    assert should_decompose("opening the cafe", 120)
    assert not should_decompose("sleeping", 360)
    assert not should_decompose("lying in bed", 30)
    assert should_decompose("getting ready for bed", 60)
    assert not should_decompose("getting ready for bed", 120)


def test_post_chat_thoughts_fire_once_whatever_the_step_length():
    end = datetime(2023, 2, 13, 9, 5, 0)
    for seconds in (10, 30, 60):
        fired = []
        previous = datetime(2023, 2, 13, 9, 0, 0)
        now = previous + timedelta(seconds=seconds)
        while now <= end + timedelta(minutes=1):
            s = Scratch(chatting_with="Klaus Mueller", chatting_end_time=end, curr_time=now)
            if chat_ends_this_step(s, previous):
                fired.append(now)
            previous, now = now, now + timedelta(seconds=seconds)
        assert len(fired) == 1 and fired[0] < end <= fired[0] + timedelta(seconds=seconds), (seconds, fired)


def test_chat_state_clears_and_buffers_stop_at_zero():
    s = Scratch(
        act_event=["Maria Lopez", "eating", "lunch"],
        chatting_with="Klaus Mueller",
        chat=[["a", "b"]],
        chatting_end_time=datetime(2023, 2, 13, 9, 0),
        chatting_with_buffer={"Klaus Mueller": 1},
    )
    s.end_chat_state()
    assert s.chatting_with is None and s.chat is None and s.chatting_end_time is None
    s.end_chat_state()
    assert s.chatting_with_buffer == {"Klaus Mueller": 0}


def test_reaction_window_spans_the_current_hourly_block():
    s = Scratch(
        curr_time=datetime(2023, 2, 13, 9, 30),
        f_daily_schedule_hourly_org=[["sleeping", 480], ["breakfast", 60], ["work", 180], ["lunch", 60], ["work", 660]],
    )
    assert reaction_window(s) == (540, 720)
    s.set_time(datetime(2023, 2, 13, 8, 30))
    assert reaction_window(s) == (480, 720)  # a one-hour block takes the next one too


def test_waiting_stands_still_until_the_other_has_finished():
    """A WaitUntil reaction becomes a waiting action on the persona's own tile that ends at the
    given minute; a waiting persona reacts to nobody. (No schedule to rewrite: no model call.)"""
    now = datetime(2023, 2, 13, 9, 30, 20)
    s = Scratch(
        name="Maria Lopez",
        curr_time=now,
        curr_tile=(20, 14),
        act_address="the Ville:Hobbs Cafe:cafe:counter",
        act_description="getting coffee (waiting in line)",
        planned_path=[(21, 14)],
    )
    maria = SimpleNamespace(name="Maria Lopez", scratch=s)
    wait_react(maria, WaitUntil(datetime(2023, 2, 13, 9, 44)), llm=None)
    assert s.address() == WaitingAt((20, 14)) and s.act_address == "<waiting> 20 14"
    assert s.act_description == "waiting to start waiting in line" and s.act_duration == 15
    assert s.act_event == Event("Maria Lopez", "waiting to start", "waiting in line") and not s.act_path_set
    assert s.act_start_time == now and s.chatting_with is None
    klaus = SimpleNamespace(name="Klaus Mueller", scratch=Scratch(name="Klaus Mueller"))
    focused = {"curr_event": SimpleNamespace(subject="Klaus Mueller")}
    assert should_react(maria, focused, {"Klaus Mueller": klaus}, llm=None) is None


def test_create_react_starts_the_new_action_now():
    now = datetime(2023, 2, 13, 9, 30)
    s = Scratch(name="Maria Lopez", curr_time=now, chatting_with_buffer={"Ayesha Khan": 3})
    action = NewAction(
        address=PersonaAt("Klaus Mueller"),
        duration=4,
        description="talking about the party",
        pronunciatio="\U0001f4ac",
        event=Event("Maria Lopez", "chat with", "Klaus Mueller"),
        chatting_with="Klaus Mueller",
        chat=[["Maria Lopez", "Hi"]],
        chatting_with_buffer={"Klaus Mueller": 800},
        chatting_end_time=now + timedelta(minutes=4),
    )
    create_react(SimpleNamespace(name="Maria Lopez", scratch=s), action, llm=None)
    assert s.address() == PersonaAt("Klaus Mueller") and s.chatting_with == "Klaus Mueller"
    assert s.chatting_with_buffer == {"Ayesha Khan": 3, "Klaus Mueller": 800}
    assert s.act_end_time() == now + timedelta(minutes=4) and s.act_obj_event == NO_EVENT


def test_a_reaction_rewrites_the_items_that_start_in_its_window_with_what_of_them_was_done():
    from reverie.persona.react import interrupted

    day = [["sleeping", 360], ["morning routine", 60], ["work on the paper", 180], ["lunch", 60], ["read", 840]]
    s = Scratch(name="Maria Lopez", curr_time=datetime(2023, 2, 13, 6, 30))
    s.set_schedule(day, day)
    window = interrupted(s)  # the hour under way is under two hours long: the window takes the next item too
    assert (window.first, window.stop, window.start, window.end) == (1, 3, 360, 600)
    assert window.main() == [("morning routine", 60), ("work on the paper", 180)]
    assert window.done(6 * 60 + 30) == [("morning routine", 30)]
    assert window.done(7 * 60 + 30) == [("morning routine", 60), ("work on the paper", 30)]
    assert window.done(6 * 60) == []
    s.set_time(datetime(2023, 2, 13, 7, 30))  # inside the long item: the window is its hours alone
    assert (interrupted(s).first, interrupted(s).stop) == (2, 3)


def test_the_focus_is_another_persona_first_known_by_the_town_s_personas_not_by_the_text():
    import random

    from reverie.persona.react import choose_retrieved

    maria = SimpleNamespace(name="Maria Lopez")
    seen = {
        key: {"curr_event": SimpleNamespace(subject=subject, description=f"{subject} is {doing}")}
        for key, subject, doing in [
            ("stove", "the Ville:Hobbs Cafe:cafe:stove", "heating"),
            ("me", "Maria Lopez", "reading"),
            ("klaus", "Klaus Mueller", "writing"),
        ]
    }
    personas = {"Maria Lopez": maria, "Klaus Mueller": object()}
    assert all(choose_retrieved(maria, seen, random.Random(seed), personas) is seen["klaus"] for seed in range(20))


def test_a_scratch_without_what_cognition_needs_fails_naming_the_persona_and_the_field():
    """Each fails before any model call, with one line instead of an error from inside."""
    now = datetime(2023, 2, 13, 9, 30)

    def fails(call, *args):
        with pytest.raises(ValueError) as failed:
            call(*args)
        return str(failed.value)

    maria = SimpleNamespace(name="Maria Lopez", scratch=Scratch(name="Maria Lopez", first_name="Maria", curr_time=now))
    assert fails(plan_new_day, maria, NewDay.FIRST, None) == "scratch of Maria Lopez: no lifestyle"
    maria.scratch.lifestyle, maria.scratch.first_name = "early riser", None
    assert fails(plan_new_day, maria, NewDay.FIRST, None) == "scratch of Maria Lopez: no first_name"
    maria.scratch.set_schedule([["sleeping", 540], ["work on the paper", 180], ["read", 720]])
    assert fails(decompose, maria, 1, None) == "scratch of Maria Lopez: no first_name"
    assert fails(wait_react, maria, WaitUntil(now), None) == "scratch of Maria Lopez: no act_description"
    assert fails(remember_event, maria, None, Event("bed", "is", None), "bed is") == (
        "Maria Lopez perceived ('bed', 'is', None): no subject or object to remember it by"
    )
