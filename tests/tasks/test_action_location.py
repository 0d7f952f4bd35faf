"""action_sector / action_arena / action_object: answers are known options; fail-safes stay sensible."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from reverie.llm.task import CHOICES_KEY
from reverie.tasks.action_location import (
    ArenaReply,
    ObjectReply,
    SectorReply,
    arena_fail_safe,
    object_fail_safe,
    sector_fail_safe,
    ACTION_ARENA,
    ACTION_OBJECT,
    ACTION_SECTOR,
)
from reverie.prompt_tools.fixtures import inputs_with
from reverie.tasks.options import keep_own_private

SECTORS = ["Hobbs Cafe", "Isabella Rodriguez's apartment", "Johnson Park"]


@pytest.mark.parametrize(
    "schema, field, key",
    [(SectorReply, "sector", "sectors"), (ArenaReply, "arena", "arenas"), (ObjectReply, "object", "objects")],
)
def test_answer_is_a_call_time_choice(schema, field, key):
    assert schema.model_json_schema()["properties"][field][CHOICES_KEY] == key


def test_unknown_sector_is_rejected_with_the_options():
    with pytest.raises(
        ValidationError, match="'cafe' is not one of: Hobbs Cafe, Isabella Rodriguez's apartment, Johnson Park"
    ):
        SectorReply.model_validate({"sector": "cafe"}, context={"choices": {"sectors": SECTORS}})


def test_case_slips_are_fixed_to_the_option():
    assert (
        SectorReply.model_validate({"sector": "johnson park"}, context={"choices": {"sectors": SECTORS}}).sector
        == "Johnson Park"
    )


def test_other_peoples_houses_and_rooms_are_filtered():
    options = ["Hobbs Cafe", "Moreno family's house", "Lin family's house", "Adam Smith's house"]
    assert keep_own_private(options, "Lin", "'s house") == ["Hobbs Cafe", "Lin family's house"]
    rooms = ["garden", "Klaus Mueller's room", "Maria Lopez's room", "common room"]
    assert keep_own_private(rooms, "Mueller", "'s room") == ["garden", "Klaus Mueller's room", "common room"]


def test_sector_fail_safe_prefers_home_then_current():
    inputs = {"living_sector": "Isabella Rodriguez's apartment", "current_sector": "Hobbs Cafe"}
    assert (
        sector_fail_safe(inputs_with(ACTION_SECTOR, **inputs), {"sectors": SECTORS}).sector
        == "Isabella Rodriguez's apartment"
    )
    assert (
        sector_fail_safe(inputs_with(ACTION_SECTOR, **inputs), {"sectors": ["Hobbs Cafe", "Johnson Park"]}).sector
        == "Hobbs Cafe"
    )
    assert (
        sector_fail_safe(inputs_with(ACTION_SECTOR, **inputs), {"sectors": ["Johnson Park"]}).sector == "Johnson Park"
    )


def test_arena_fail_safe_prefers_own_room_and_is_a_known_option():
    arenas = ["garden", "Klaus Mueller's room", "common room"]
    assert (
        arena_fail_safe(inputs_with(ACTION_ARENA, name="Klaus Mueller"), {"arenas": arenas}).arena
        == "Klaus Mueller's room"
    )
    assert arena_fail_safe(inputs_with(ACTION_ARENA, name="Maria Lopez"), {"arenas": ["cafe"]}).arena == "cafe"


@pytest.mark.parametrize(
    "activity, expected",
    [
        ("sleeping in bed", "bed"),
        ("making coffee at the counter", "behind the cafe counter"),
        ("thinking", "refrigerator"),
    ],
)
def test_object_fail_safe_matches_words_of_the_activity(activity, expected):
    objects = ["refrigerator", "bed", "behind the cafe counter", "piano"]
    assert object_fail_safe(inputs_with(ACTION_OBJECT, activity=activity), {"objects": objects}).object == expected


# --- through the facade (scripted chat model: fixed replies, not a real model) ----------

from tests.tasks.planning_support import call_schema, scripted_llm  # noqa: E402

from reverie.tasks.action_location import action_arena, action_object, action_sector  # noqa: E402

SECTOR_KW = dict(
    name="Klaus Mueller",
    action_description="working on his research paper (reading articles at the library)",
    living_sector="Dorm for Oak Hill College",
    living_arenas=["Klaus Mueller's room", "common room"],
    current_sector="Dorm for Oak Hill College",
    current_arenas=["Klaus Mueller's room", "common room"],
    daily_plan_req="Klaus Mueller goes to the library at Oak Hill College early in the morning.",
)


def test_sector_options_leave_out_other_peoples_houses():
    """Scripted reply "Oak Hill College": the schema's enum holds only allowed sectors."""
    llm, model = scripted_llm('{"sector": "Oak Hill College"}')
    sectors = ["Oak Hill College", "Dorm for Oak Hill College", "Moreno family's house", "Hobbs Cafe"]
    assert action_sector(llm, **SECTOR_KW, sectors=sectors) == "Oak Hill College"
    assert call_schema(model)["properties"]["sector"]["enum"] == [
        "Oak Hill College",
        "Dorm for Oak Hill College",
        "Hobbs Cafe",
    ]


def test_unknown_sector_ends_in_a_known_one():
    """Scripted replies naming a place that is not an option -> the fail-safe (home sector)."""
    llm, model = scripted_llm('{"sector": "library"}')
    assert (
        action_sector(llm, **SECTOR_KW, sectors=["Oak Hill College", "Dorm for Oak Hill College"])
        == "Dorm for Oak Hill College"
    )
    assert len(model.calls) == 3  # the same reply again: asked afresh once, then the fail-safe


def test_single_or_no_option_needs_no_call():
    """Scripted model that must not be called."""
    llm, model = scripted_llm("unused")
    assert (
        action_arena(
            llm,
            name="Isabella Rodriguez",
            action_description="sleeping",
            sector="Isabella Rodriguez's apartment",
            arenas=["main room"],
        )
        == "main room"
    )
    assert action_object(llm, action_description="walking (looking around)", objects=[]) == "<random>"
    assert action_object(llm, action_description="gardening", objects=["park garden"]) == "park garden"
    assert model.calls == []


def test_arena_and_object_come_from_their_options():
    """Scripted replies: an arena and an object from the lists given."""
    llm, model = scripted_llm('{"arena": "library"}', '{"object": "library table"}')
    arena = action_arena(
        llm,
        name="Klaus Mueller",
        action_description="writing (reading sources)",
        sector="Oak Hill College",
        arenas=["hallway", "library", "classroom"],
    )
    obj = action_object(
        llm, action_description="writing (reading sources)", objects=["library sofa", "library table", "bookshelf"]
    )
    assert (arena, obj) == ("library", "library table")
    assert call_schema(model, 1)["properties"]["object"]["enum"] == ["library sofa", "library table", "bookshelf"]
