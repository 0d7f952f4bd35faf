"""Reacting to what was perceived: talk, wait, or carry on (docs/LOOP.md §6.3, §9)."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import accumulate
from typing import TYPE_CHECKING, NamedTuple

from reverie.action_text import SleepWords, subtask
from reverie.address import PersonaAt, WaitingAt
from reverie.clock import ceil_minute, duration_minutes
from reverie.memory.event import CHAT_WITH, Event
from reverie.memory.scratch import NewAction, Scratch
from reverie.persona import reaction_inputs
from reverie.persona.agent import Agent
from reverie.persona.converse import hold_conversation, transcript_length
from reverie.persona.reactions import ChatWith, Reaction, WaitUntil
from reverie.tasks.conversation_summary import conversing_about, summarize_conversation
from reverie.tasks.new_decomp_schedule import new_decomp_schedule, resumed_schedule

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.world.maze import Maze


CHAT_BUFFER = 800  # steps before the same pair may talk again
CHAT_EMOJI = "\U0001f4ac"
WAIT_EMOJI = "\u231b"


def choose_retrieved(persona: Agent, retrieved: dict, rng: random.Random, personas: Collection[str]) -> dict | None:
    """The perceived event to focus on: another persona's (one of ``personas``) first, else anything not idle."""
    others = [r for r in retrieved.values() if r["curr_event"].subject != persona.name]
    people = [r for r in others if r["curr_event"].subject in personas]
    if people:
        return rng.choice(people)
    busy = [r for r in others if not r["curr_event"].spo().is_idle]
    return rng.choice(busy) if busy else None


def _awake_and_busy(a: Agent, b: Agent) -> bool:
    sa, sb = a.scratch, b.scratch
    if not (sa.act_address and sa.act_description and sb.act_address and sb.act_description):
        return False
    if SleepWords.read(sa.act_description).sleeping or SleepWords.read(sb.act_description).sleeping:
        return False
    return sa.now().hour != 23


def open_to_talk(o: Scratch, now: datetime) -> bool:
    """Whether another persona may start a conversation at ``now`` with the one whose scratch is
    ``o``, by that one's state alone: :func:`lets_talk` asks this first (the out-of-order
    scheduler reads it before a step, docs/LOOP.md §2a)."""
    if not (o.act_address and o.act_description) or "sleeping" in o.act_description or now.hour == 23:
        return False
    return not (o.chatting_with or isinstance(o.address(), WaitingAt))


def lets_talk(persona: Agent, other: Agent, focused: dict, llm: LanguageModel) -> bool:
    s, o = persona.scratch, other.scratch
    if not open_to_talk(o, s.now()) or not _awake_and_busy(persona, other):
        return False
    if isinstance(o.address(), WaitingAt) or s.chatting_with or o.chatting_with:
        return False
    if s.chatting_with_buffer.get(other.name, 0) > 0:
        return False
    return reaction_inputs.decide_to_talk(persona, other, focused, llm)


def lets_react(persona: Agent, other: Agent, focused: dict, llm: LanguageModel) -> WaitUntil | None:
    s, o = persona.scratch, other.scratch
    if not _awake_and_busy(persona, other):
        return None
    if isinstance(o.address(), WaitingAt) or not s.planned_path or s.address() != o.address():
        return None
    if not reaction_inputs.decide_to_react(persona, other, focused, llm):
        return None
    start, duration = o.act_start_time, o.act_duration
    if start is None:
        raise o.missing("act_start_time")
    if duration is None:
        raise o.missing("act_duration")
    return WaitUntil(ceil_minute(start) + timedelta(minutes=duration) - timedelta(minutes=1))


def should_react(persona: Agent, focused: dict, personas: Mapping[str, Agent], llm: LanguageModel) -> Reaction | None:
    s = persona.scratch
    if s.chatting_with or isinstance(s.address(), WaitingAt):
        return None
    subject = focused["curr_event"].subject
    other = personas.get(subject)
    if other is None:  # a thing, not a persona
        return None
    if lets_talk(persona, other, focused, llm):
        return ChatWith(subject)
    return lets_react(persona, other, focused, llm)


def chat_react(maze: Maze, persona: Agent, other: Agent, llm: LanguageModel) -> None:
    convo, topic = hold_conversation(maze, persona, other, llm)
    minutes = duration_minutes(transcript_length(convo))
    # packed mode: the conversation's own call wrote its topic (docs/FIDELITY.md)
    summary = (
        conversing_about(topic)
        if topic
        else summarize_conversation(llm, utterances=[(who, line) for who, line in convo], persona_name=persona.name)
    )
    end = ceil_minute(other.scratch.now()) + timedelta(minutes=minutes)
    for me, you in ((persona, other), (other, persona)):
        create_react(
            me,
            NewAction(
                address=PersonaAt(you.name),
                duration=minutes,
                description=summary,
                pronunciatio=CHAT_EMOJI,
                event=Event(me.name, CHAT_WITH, you.name),
                chatting_with=you.name,
                chat=convo,
                chatting_with_buffer={you.name: CHAT_BUFFER},
                chatting_end_time=end,
            ),
            llm,
        )


def wait_react(persona: Agent, reaction: WaitUntil, llm: LanguageModel) -> None:
    s = persona.scratch
    if s.act_description is None:
        raise s.missing("act_description")
    doing = subtask(s.act_description)
    end = reaction.until
    now = s.now()
    now_min = now.hour * 60 + now.minute
    minutes = max(1, end.hour * 60 + end.minute - now_min + 1)
    create_react(
        persona,
        NewAction(
            address=WaitingAt(s.curr_tile),
            duration=minutes,
            description=f"waiting to start {doing}",
            pronunciatio=WAIT_EMOJI,
            event=Event(persona.name, "waiting to start", doing),
        ),
        llm,
    )


def reaction_window(s: Scratch) -> tuple[int, int]:
    """Minutes [start, end) of the schedule to rewrite around the inserted activity."""
    hourly = s.f_daily_schedule_hourly_org
    idx = min(s.get_f_daily_schedule_hourly_org_index(), max(len(hourly) - 1, 0))
    start = sum(d for _a, d in hourly[:idx]) // 60 * 60
    length = hourly[idx][1] if hourly else 60
    if length < 120 and idx + 1 < len(hourly):
        length += hourly[idx + 1][1]
    return start, min(start + length, 24 * 60)


def replanned(
    persona: Agent, llm: LanguageModel, *, main: list, done: list, start: int, end: int, inserted: str, minutes: int
) -> list[tuple[str, int]]:
    """The window's items after the inserted activity: asked (``new_decomp_schedule``), or in packed
    mode the original plan resumed where the inserted activity ends, with no call (docs/FIDELITY.md)."""
    if persona.options.packed_actions:
        return resumed_schedule(main_act_dur=main, truncated_act_dur=done, start_minute=start, end_minute=end)
    return new_decomp_schedule(
        llm,
        name=persona.scratch.persona_name(),
        main_act_dur=main,
        truncated_act_dur=done,
        start_minute=start,
        end_minute=end,
        inserted_act=inserted,
        inserted_act_dur=minutes,
    )


class Planned(NamedTuple):
    """One item of the day's schedule, where it stands in it."""

    position: int  # its place in ``f_daily_schedule`` (not ``index``: a tuple's method has that name)
    start: int  # the minute of the day it starts
    activity: str
    minutes: int

    @property
    def end(self) -> int:
        return self.start + self.minutes


@dataclass(frozen=True)
class Interrupted:
    """The schedule items a reaction rewrites: those that start inside the reaction window,
    widened to whole items, so that the new ones take exactly their minutes and the day stays 1,440."""

    items: list[Planned]  # in the schedule's order, never empty

    @property
    def first(self) -> int:
        return self.items[0].position

    @property
    def stop(self) -> int:
        """The index after the last item replaced."""
        return self.items[-1].position + 1

    @property
    def start(self) -> int:
        return self.items[0].start

    @property
    def end(self) -> int:
        return self.items[-1].end

    def main(self) -> list[tuple[str, int]]:
        return [(item.activity, item.minutes) for item in self.items]

    def done(self, now: int) -> list[tuple[str, int]]:
        """What was done before minute ``now``: each item ended by then, and the part of the item
        under way when every item before it ended."""
        done: list[tuple[str, int]] = []
        for position, item in enumerate(self.items):
            if item.end <= now:
                done.append((item.activity, item.minutes))
            elif item.start < now and len(done) == position:
                done.append((item.activity, now - item.start))
        return done


def planned(schedule: Sequence[tuple[str, int]]) -> list[Planned]:
    """The schedule's items with their places and start minutes."""
    starts = accumulate((minutes for _activity, minutes in schedule), initial=0)
    return [
        Planned(index, start, activity, minutes)
        for index, ((activity, minutes), start) in enumerate(zip(schedule, starts))
    ]


def interrupted(s: Scratch) -> Interrupted | None:
    """The items a reaction now rewrites (None: no item starts inside the reaction window)."""
    window_start, window_end = reaction_window(s)
    inside = [item for item in planned(s.f_daily_schedule) if window_start <= item.start < window_end]
    return Interrupted(inside) if inside else None


def create_react(persona: Agent, action: NewAction, llm: LanguageModel) -> None:
    """Rewrite the schedule around the inserted activity (``action``) and start it now."""
    s = persona.scratch
    window = interrupted(s) if s.f_daily_schedule_hourly_org and s.f_daily_schedule else None
    if window is not None:
        clock = s.now()
        now = clock.hour * 60 + clock.minute
        inserted, minutes = action.description, action.duration
        new = replanned(
            persona,
            llm,
            main=window.main(),
            done=[*window.done(now), (inserted, minutes)],
            start=window.start,
            end=window.end,
            inserted=inserted,
            minutes=minutes,
        )
        if new:
            s.replace_schedule(window.first, window.stop, ((a, int(d)) for a, d in new))
    s.add_new_action(action)
