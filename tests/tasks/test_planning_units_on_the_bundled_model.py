"""The planning and acting functions on the real bundled model (grammar on): whatever the small
model answers, cognition gets plain values of the promised shape and within the given options;
where the small model's own answer passes the checks (the ledger says it was no fail-safe),
that answer is what cognition gets.

On this model and seed, wake_up_hour, daily_plan and identity_new_daily_req end in their
fail-safes, so nothing of their results depends on the model here: only their shape is checked.
"""

from __future__ import annotations

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.llm import LLM
from reverie.tasks.action_location import action_arena, action_object, action_sector
from reverie.tasks.daily_plan import daily_plan
from reverie.tasks.decide_reaction import decide_to_react, decide_to_talk
from reverie.tasks.event_triple import act_obj_event_triple, event_triple
from reverie.prompt_tools.evaluate import read_ledger
from reverie.prompt_tools.fixtures import load_fixture
from reverie.tasks.hourly_schedule import DayToPlan, hourly_activity
from reverie.tasks.identity import revise_identity
from reverie.tasks.new_decomp_schedule import new_decomp_schedule
from reverie.tasks.object_state import act_obj_desc
from reverie.tasks.pronunciatio import pronunciatio
from reverie.tasks.task_decomp import task_decomp
from reverie.tasks.wake_up_hour import wake_up_hour
from reverie.tasks.registry import product_tasks
from tests.tasks.planning_support import ACTION_PROMPTS, REACT, REACT_ACTS, TALK, answered

pytestmark = pytest.mark.slow

KLAUS = "Klaus Mueller"
SECTORS = ["Oak Hill College", "Dorm for Oak Hill College", "Hobbs Cafe", "Johnson Park", "Moreno family's house"]


@pytest.fixture(scope="module")
def llm(tmp_path_factory):
    settings = load_settings(PROJECT_ROOT / "config.toml")
    return LLM.from_settings(
        settings, tasks=product_tasks(), ledger_path=tmp_path_factory.mktemp("ledger") / "llm_calls.jsonl"
    )


@pytest.fixture(scope="module")
def identity():
    return load_fixture("wake_up_hour").cases[2].inputs["identity"]  # Klaus Mueller


def test_day_planning_gives_hours_plans_and_the_models_own_activity_and_steps(llm, identity):
    lifestyle = "Klaus Mueller goes to bed around 11pm, awakes up around 7am, eats dinner around 5pm."
    hour = wake_up_hour(llm, identity=identity, lifestyle=lifestyle, first_name="Klaus", persona=KLAUS)
    assert type(hour) is int and 0 <= hour <= 23
    plan = daily_plan(
        llm, identity=identity, lifestyle=lifestyle, date="Monday February 13", first_name="Klaus", wake_up_hour=hour
    )
    assert 4 <= len(plan) <= 8 and all(isinstance(item, str) and item for item in plan)
    day = DayToPlan(
        identity=identity, first_name="Klaus", date="Monday February 13", daily_plan=plan, wake_up_hour=hour
    )
    activity = hourly_activity(llm, day, prior_activities=["sleeping"] * 7 + ["waking up"], hour=8)
    assert isinstance(activity, str) and activity and answered(llm, "hourly_schedule")
    task = "working on his research paper"
    steps = task_decomp(
        llm,
        identity=identity,
        schedule_context="Today is February 13, 2023.",
        first_name="Klaus",
        task=task,
        time_range="09:00 to 10:00",
        duration=60,
    )
    assert answered(llm, "task_decomp"), "the steps are the model's, not the fail-safe's"
    # The model writes the part in parentheses; the code adds the task around it and scales the minutes.
    assert all(name.removeprefix(f"{task} (").removesuffix(")").strip() for name, _ in steps)


def test_action_pipeline_stays_within_the_options(llm):
    desc = "working on his research paper (reading articles at the library)"
    sector = action_sector(
        llm,
        name=KLAUS,
        action_description=desc,
        living_sector="Dorm for Oak Hill College",
        living_arenas=["Klaus Mueller's room", "common room"],
        current_sector="Dorm for Oak Hill College",
        current_arenas=["Klaus Mueller's room", "common room"],
        daily_plan_req="writes at the library",
        sectors=SECTORS,
    )
    assert sector in SECTORS and sector != "Moreno family's house"
    arena = action_arena(
        llm, name=KLAUS, action_description=desc, sector="Oak Hill College", arenas=["hallway", "library", "classroom"]
    )
    assert arena in ("hallway", "library", "classroom")
    obj = action_object(llm, action_description=desc, objects=["library sofa", "library table", "bookshelf"])
    assert obj in ("library sofa", "library table", "bookshelf")
    assert pronunciatio(llm, action_description=desc, persona=KLAUS)
    subject, predicate, what = event_triple(llm, name=KLAUS, action_description=desc)
    assert subject == KLAUS and predicate and what
    state = act_obj_desc(llm, object_name=obj, name=KLAUS, action_description=desc)
    assert isinstance(state, str) and state
    assert act_obj_event_triple(llm, object_name=obj, object_description=state)[0] == obj
    for prompt in ACTION_PROMPTS:
        assert answered(llm, prompt), f"{prompt}: the model's own answer, not the fail-safe"


def test_reactions_give_booleans_and_a_full_window(llm):
    talk = decide_to_talk(llm, TALK)
    wait = decide_to_react(llm, REACT, **REACT_ACTS)
    assert type(talk) is bool and type(wait) is bool
    assert answered(llm, "decide_to_talk") and answered(llm, "decide_to_react")
    window = new_decomp_schedule(
        llm,
        name=KLAUS,
        main_act_dur=[("reading", 60), ("writing", 60)],
        truncated_act_dur=[("reading", 20), ("conversing about the party", 10)],
        start_minute=540,
        end_minute=660,
        inserted_act="conversing about the party",
        inserted_act_dur=10,
    )
    # The code keeps what was done and the inserted chat, and scales the rest to the window; the rest is the model's.
    assert answered(llm, "new_decomp_schedule") and window


def test_identity_revision_gives_the_models_status_and_a_plan(llm, identity):
    currently, req = revise_identity(
        llm,
        name=KLAUS,
        identity=identity,
        currently="Klaus Mueller is writing a research paper.",
        statements="Monday February 13 -- 09:00 AM: Klaus Mueller is writing at the library",
        date="Tuesday February 14",
        wake_up_hour=7,
    )
    assert answered(llm, "identity_new_currently"), "the status is the model's, not the fail-safe's"
    assert "Klaus" in currently and not currently.lower().startswith("status:")
    assert req  # numbered by the code, from the fail-safe's items on this model: nothing more to check


def test_every_call_is_in_the_ledger(llm):
    prompts = {line["prompt"] for line in read_ledger(llm.ledger.path)}
    assert {"wake_up_hour", "task_decomp", "action_sector", "decide_to_talk", "identity_new_daily_req"} <= prompts
    fallbacks = {line["prompt"] for line in read_ledger(llm.ledger.path) if line["fallback"]}
    # wake_up_hour cannot fall back with a grammar (it offers only the hours the lifestyle allows). The code puts
    # a plan's items in order, but this model writes "go to bed at ..." for most of them (daily_plan), or plan
    # items in the first person (identity_new_daily_req).
    assert "wake_up_hour" not in fallbacks
    assert fallbacks <= {"daily_plan", "identity_new_daily_req"}, "the small model's own answers elsewhere"
