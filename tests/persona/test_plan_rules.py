"""Rules of planning and reflecting that need no model (fixed quirks of the original included)."""

from datetime import datetime, timedelta

from reverie.memory import Scratch
from reverie.persona.plan import end_chat_state
from reverie.persona.plan_action import should_decompose
from reverie.persona.react import reaction_window
from reverie.persona.reflect import chat_ends_this_step


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
    s = Scratch(act_event=["Maria Lopez", "eating", "lunch"], chatting_with="Klaus Mueller", chat=[["a", "b"]],
                chatting_end_time=datetime(2023, 2, 13, 9, 0), chatting_with_buffer={"Klaus Mueller": 1})
    end_chat_state(s)
    assert s.chatting_with is None and s.chat is None and s.chatting_end_time is None
    end_chat_state(s)
    assert s.chatting_with_buffer == {"Klaus Mueller": 0}


def test_reaction_window_spans_the_current_hourly_block():
    s = Scratch(curr_time=datetime(2023, 2, 13, 9, 30),
                f_daily_schedule_hourly_org=[["sleeping", 480], ["breakfast", 60], ["work", 180], ["lunch", 60],
                                             ["work", 660]])
    assert reaction_window(s) == (540, 720)
    s.curr_time = datetime(2023, 2, 13, 8, 30)
    assert reaction_window(s) == (480, 720)  # a one-hour block takes the next one too
