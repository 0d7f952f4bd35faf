"""Reacting to what was perceived: talk, wait, or carry on (LOOP.md §6.3, §9)."""

from __future__ import annotations

from datetime import timedelta

from reverie.persona.clock import ceil_minute, duration_minutes, parse_time, TIME_FMT
from reverie.persona.converse import generate_convo, transcript_length
from reverie.persona import reaction_inputs
from reverie.tasks.new_decomp_schedule import new_decomp_schedule
from reverie.tasks.conversation_summary import summarize_conversation

CHAT_BUFFER = 800  # steps before the same pair may talk again
WAITING = "<waiting>"


def choose_retrieved(persona, retrieved: dict, rng):
    """The perceived event to focus on: another persona first, else anything not idle."""
    others = [r for r in retrieved.values() if r["curr_event"].subject != persona.name]
    people = [r for r in others if ":" not in r["curr_event"].subject]
    if people:
        return rng.choice(people)
    busy = [r for r in others if "is idle" not in r["curr_event"].description]
    return rng.choice(busy) if busy else None


def _awake_and_busy(a, b) -> bool:
    sa, sb = a.scratch, b.scratch
    if not (sa.act_address and sa.act_description and sb.act_address and sb.act_description):
        return False
    if "sleeping" in sa.act_description or "sleeping" in sb.act_description:
        return False
    return sa.curr_time.hour != 23


def lets_talk(persona, other, focused, llm) -> bool:
    s, o = persona.scratch, other.scratch
    if not _awake_and_busy(persona, other):
        return False
    if WAITING in (o.act_address or "") or s.chatting_with or o.chatting_with:
        return False
    if s.chatting_with_buffer.get(other.name, 0) > 0:
        return False
    return reaction_inputs.decide_to_talk(persona, other, focused, llm)


def lets_react(persona, other, focused, llm) -> str | None:
    s, o = persona.scratch, other.scratch
    if not _awake_and_busy(persona, other):
        return None
    if "waiting" in o.act_description or not s.planned_path or s.act_address != o.act_address:
        return None
    if not reaction_inputs.decide_to_react(persona, other, focused, llm):
        return None
    end = ceil_minute(o.act_start_time) + timedelta(minutes=o.act_duration) - timedelta(minutes=1)
    return f"wait: {end.strftime(TIME_FMT)}"


def should_react(persona, focused, personas: dict, llm) -> str | None:
    s = persona.scratch
    if s.chatting_with or WAITING in (s.act_address or ""):
        return None
    subject = focused["curr_event"].subject
    other = personas.get(subject)
    if ":" in subject or other is None:
        return None
    if lets_talk(persona, other, focused, llm):
        return f"chat with {subject}"
    return lets_react(persona, other, focused, llm)


def chat_react(maze, persona, other, llm) -> None:
    convo = generate_convo(maze, persona, other, llm)
    minutes = duration_minutes(transcript_length(convo))
    summary = summarize_conversation(llm, utterances=[tuple(x) for x in convo], persona_name=persona.name)
    end = ceil_minute(other.scratch.curr_time) + timedelta(minutes=minutes)
    for me, you in ((persona, other), (other, persona)):
        create_react(me, summary, minutes, f"<persona> {you.name}", [me.name, "chat with", you.name],
                     you.name, convo, {you.name: CHAT_BUFFER}, end, "💬", None, None, [None, None, None], llm)


def wait_react(persona, reaction: str, llm) -> None:
    s = persona.scratch
    doing = s.act_description.split("(")[-1].rstrip(")") if "(" in s.act_description else s.act_description
    end = parse_time(reaction[len("wait:"):].strip())
    now_min = s.curr_time.hour * 60 + s.curr_time.minute
    minutes = max(1, end.hour * 60 + end.minute - now_min + 1)
    x, y = s.curr_tile
    create_react(persona, f"waiting to start {doing}", minutes, f"{WAITING} {x} {y}",
                 [persona.name, "waiting to start", doing], None, None, None, None, "⌛", None, None,
                 [None, None, None], llm)


def reaction_window(s) -> tuple[int, int]:
    """Minutes [start, end) of the schedule to rewrite around the inserted activity."""
    hourly = s.f_daily_schedule_hourly_org
    idx = min(s.get_f_daily_schedule_hourly_org_index(), max(len(hourly) - 1, 0))
    start = sum(d for _a, d in hourly[:idx]) // 60 * 60
    length = hourly[idx][1] if hourly else 60
    if length < 120 and idx + 1 < len(hourly):
        length += hourly[idx + 1][1]
    return start, min(start + length, 24 * 60)


def create_react(persona, inserted, minutes, address, event, chatting_with, chat, buffer, chat_end,
                 emoji, obj_desc, obj_emoji, obj_event, llm) -> None:
    """Rewrite the schedule around the inserted activity and start it now."""
    s = persona.scratch
    if s.f_daily_schedule_hourly_org and s.f_daily_schedule:
        start, end = reaction_window(s)
        now = s.curr_time.hour * 60 + s.curr_time.minute
        lo = hi = None
        main, done, t = [], [], 0
        for i, (activity, dur) in enumerate(s.f_daily_schedule):
            if start <= t < end:
                lo = i if lo is None else lo
                hi = i + 1
                main.append((activity, dur))
                if t + dur <= now:
                    done.append((activity, dur))
                elif t < now and len(done) == len(main) - 1:
                    done.append((activity, now - t))  # the part done before the interruption
            t += dur
        if lo is not None:
            new = new_decomp_schedule(llm, name=s.name, main_act_dur=main, truncated_act_dur=done + [(inserted, minutes)],
                                      start_hour=start // 60, end_hour=-(-end // 60),
                                      inserted_act=inserted, inserted_act_dur=minutes)
            if new:
                s.f_daily_schedule[lo:hi] = [[a, int(d)] for a, d in new]
    s.add_new_action(address, minutes, inserted, emoji, event, chatting_with, chat, buffer, chat_end,
                     obj_desc, obj_emoji, obj_event)
