"""Long-term planning at the first step of each game day (docs/LOOP.md §6.1)."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from reverie.memory.associative import NewMemory
from reverie.memory.concept_node import NodeKind
from reverie.memory.event import Event
from reverie.persona.agent import Agent
from reverie.persona.events import add_to_day
from reverie.persona.retrieve import retrieve_scored
from reverie.persona.seeded_status import keep_seeded
from reverie.persona.step import NewDay
from reverie.tasks import identity
from reverie.tasks.daily_plan import daily_plan
from reverie.tasks.hourly_schedule import DayToPlan, hourly_schedule
from reverie.tasks.hourly_schedule_packed import packed_hourly_schedule
from reverie.tasks.plan_check import bed_hour_of
from reverie.tasks.wake_up_hour import wake_up_hour

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel


def plan_new_day(persona: Agent, new_day: NewDay, llm: LanguageModel) -> None:
    """Wake-up hour, the day's broad plan, the hourly schedule, and a plan thought."""
    s = persona.scratch
    lifestyle, first_name = s.lifestyle, s.first_name
    if lifestyle is None:
        raise s.missing("lifestyle")
    if first_name is None:
        raise s.missing("first_name")
    wake = wake_up_hour(llm, identity=s.identity(), lifestyle=lifestyle, first_name=first_name, persona=s.name)
    if new_day is not NewDay.FIRST:
        revise_identity(persona, llm, wake)
    identity_text, date = s.identity(), s.curr_date_str()
    # A new daily requirement every day, not day one's again (docs/FIDELITY.md).
    s.set_daily_req(
        daily_plan(
            llm,
            identity=identity_text,
            first_name=first_name,
            date=date,
            wake_up_hour=wake,
            persona=s.name,
            lifestyle=lifestyle,
        )
    )
    about = DayToPlan(
        identity=identity_text,
        first_name=first_name,
        date=date,
        wake_up_hour=wake,
        persona=s.name,
        daily_plan=s.daily_req,
        bed_hour=bed_hour_of(lifestyle),
    )
    if persona.options.packed_actions:
        schedule = packed_hourly_schedule(llm, about)
    else:
        schedule = hourly_schedule(llm, about, max_passes=persona.options.schedule_passes)
    s.set_schedule((activity, int(minutes)) for activity, minutes in schedule)
    add_to_day(persona, persona.seeds.events)

    day = s.curr_date_str()
    thought = f"This is {s.name}'s plan for {day}: " + ", ".join(s.daily_req) + "."
    now = s.now()
    persona.a_mem.add(
        NewMemory(
            kind=NodeKind.THOUGHT,
            created=now,
            expiration=now + timedelta(days=30),
            event=Event(s.name, "plan", day),
            description=thought,
            keywords={"plan"},
            poignancy=5,
            embedding_key=thought,
        )
    )


def revise_identity(persona: Agent, llm: LanguageModel, wake: int) -> None:
    """A new day: rewrite ``currently`` and ``daily_plan_req`` from recent memories. The new
    ``currently`` works from the old one, as the original's; a seed the model dropped from it
    is put back (reverie/persona/seeded_status.py)."""
    s = persona.scratch
    focal = [f"{s.name}'s plan for {s.curr_date_str()}.", f"Important recent events for {s.name}'s life."]
    retrieved = retrieve_scored(persona, llm, focal, n=30)
    memories = [(node.created, node.embedding_key) for nodes in retrieved.values() for node in nodes]
    currently, daily_plan_req = identity.revise_identity(
        llm,
        name=s.persona_name(),
        identity=s.identity(),
        currently=s.currently or "",
        statements=identity.format_statements(memories),
        date=s.curr_date_str(),
        wake_up_hour=wake,
    )
    s.set_identity(keep_seeded(currently, persona.seeds.status, s.now()), daily_plan_req)
