"""action_packed: one call for the whole new-action pipeline, consistent places, same results shape."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.llm import LLM
from reverie.tasks.action_packed import (
    ACTION_PACKED,
    PackedActionReply,
    Standpoint,
    allowed_places,
    as_action,
    fail_safe,
    packed_action,
    render_places,
)
from reverie.prompt_tools.evaluate import read_ledger
from reverie.prompt_tools.fixtures import inputs_with, load_fixture
from reverie.tasks.registry import product_tasks
from tests.tasks.planning_support import call_schema, last_user_text, scripted_llm

TREE = {
    "Hobbs Cafe": {"cafe": ["coffee machine", "cafe counter"], "kitchen": ["stove", "sink"]},
    "Isabella Rodriguez's apartment": {
        "main room": ["bed", "desk"],
        "kitchen": ["stove", "refrigerator"],
        "balcony": [],
    },
    "Maria Lopez's house": {"bedroom": ["bed"]},
}
REPLY = {
    "sector": "Hobbs Cafe",
    "arena": "cafe",
    "object": "coffee machine",
    "emoji": "☕",
    "predicate": "is brewing",
    "target": "coffee",
    "state": "brewing coffee",
    "state_emoji": "☕",
}


def check(reply: dict, tree=TREE, name="Isabella Rodriguez") -> PackedActionReply:
    return PackedActionReply.model_validate(
        reply, context={"inputs": inputs_with(ACTION_PACKED, name=name, place_tree=tree)}
    )


def test_a_consistent_reply_is_kept():
    assert check(REPLY).model_dump() == REPLY


def test_an_arena_of_exactly_one_other_area_moves_the_sector_there():
    reply = check({**REPLY, "sector": "Isabella Rodriguez's apartment"})
    assert (reply.sector, reply.arena) == ("Hobbs Cafe", "cafe")


def test_an_arena_of_several_areas_must_match_the_sector():
    with pytest.raises(
        ValidationError,
        match="arena 'kitchen' is not in Maria Lopez's house; the places in Maria Lopez's house are: bedroom",
    ):
        check({**REPLY, "sector": "Maria Lopez's house", "arena": "kitchen", "object": "stove"})


def test_the_object_must_be_in_the_arena():
    with pytest.raises(
        ValidationError, match="object 'bed' is not in cafe; the objects there are: coffee machine, cafe counter"
    ):
        check({**REPLY, "object": "bed"})


def test_an_arena_without_objects_gets_the_random_object():
    reply = check({**REPLY, "sector": "Isabella Rodriguez's apartment", "arena": "balcony", "object": "bed"})
    assert reply.object == "<random>"


def test_the_other_fields_get_the_single_prompt_checks():
    assert check({**REPLY, "state_emoji": "cup"}).state_emoji not in ("", "cup")  # the code picks one
    assert check({**REPLY, "state": "The coffee machine is brewing coffee."}).state == "brewing coffee"


def test_an_emoji_holds_two_characters_and_a_longer_run_is_left_to_the_code():
    """A small model fills a field to its bound: with four characters allowed, the bundled model
    wrote one emoji four times. Two hold two emoji, or one with its variation selector."""
    properties = PackedActionReply.model_json_schema()["properties"]
    assert properties["emoji"]["maxLength"] == properties["state_emoji"]["maxLength"] == 2
    assert check({**REPLY, "emoji": "☕️"}).emoji == "☕️"
    assert check({**REPLY, "emoji": "☕📰"}).emoji == "☕📰"
    picked = check({**REPLY, "emoji": "🍨🍨🍨🍨"}).emoji
    assert picked and picked != "🍨🍨🍨🍨" and len(picked) <= 2


def test_a_place_name_copied_into_every_other_field_keeps_the_place_and_restates_the_activity():
    """What the bundled model does: the place is its decision and stays; the fields that should
    restate the activity get the fail-safe's wording of it instead of sending the place back."""
    pub = "The Rose and Crown Pub"
    copied = {**REPLY, **{k: pub for k in ("emoji", "predicate", "target", "state", "state_emoji")}}
    inputs = inputs_with(ACTION_PACKED, name="Isabella Rodriguez", place_tree=TREE)
    reply = PackedActionReply.model_validate(copied, context={"inputs": inputs})
    safe = fail_safe(inputs, {})
    assert (reply.sector, reply.arena, reply.object) == ("Hobbs Cafe", "cafe", "coffee machine")
    assert (reply.predicate, reply.target) == (safe.predicate, safe.target)
    assert reply.state == safe.state == "being used by Isabella"
    assert pub not in reply.model_dump_json()
    # The subject as the target, too, is restated rather than sent back.
    again = check({**REPLY, "target": "Isabella Rodriguez"})
    assert (again.predicate, again.target) == (safe.predicate, safe.target)


@pytest.mark.parametrize(
    "state", ["Hobbs Cafe", "Isabella Rodriguez's apartment is quiet", "cafe", "coffee machine", "M", "Ai"]
)
def test_a_state_that_names_a_place_or_is_a_letter_or_two_gets_the_fail_safes_wording(state):
    """What the bundled model wrote in a whole day ("bed is Creekside Apartments", "bed is M"): an
    area, a place or the object itself, or a state cut short, is no state of the object. In packed
    mode it is not sent back; the code says who uses the object, as the fail-safe does."""
    reply = check({**REPLY, "state": state})
    assert reply.state == "being used by Isabella"
    assert as_action(reply, name="Isabella Rodriguez", world="the Ville").obj_event[2] == "being used by Isabella"


def test_a_state_that_only_mentions_a_place_later_is_kept():
    assert check({**REPLY, "state": "brewing coffee for the cafe"}).state == "brewing coffee for the cafe"


def test_other_peoples_houses_and_empty_areas_are_not_offered():
    tree = allowed_places({**TREE, "Johnson Park": {}}, "Isabella Rodriguez")
    assert list(tree) == ["Hobbs Cafe", "Isabella Rodriguez's apartment"]
    assert "Hobbs Cafe > cafe: coffee machine, cafe counter" in render_places(tree)
    assert "balcony: nothing in particular" in render_places(tree)


def test_fail_safe_prefers_an_area_the_action_names():
    case = load_fixture("action_packed").cases[0]
    assert case.inputs["action"] == "opening Hobbs Cafe"
    assert fail_safe(inputs_with(ACTION_PACKED, **case.inputs), case.choices).sector == "Hobbs Cafe"
    inputs = {**case.inputs, "action": "getting ready", "subtask": "brushing teeth"}
    assert fail_safe(inputs_with(ACTION_PACKED, **inputs), case.choices).sector == case.inputs["living_sector"]


def _call(llm, places=TREE, description="working at Hobbs Cafe (brewing coffee)"):
    at = Standpoint(
        name="Isabella Rodriguez",
        world="the Ville",
        living_sector="Isabella Rodriguez's apartment",
        current_sector="Isabella Rodriguez's apartment",
        daily_plan_req="Isabella opens Hobbs Cafe at 8am.",
        places=places,
    )
    return packed_action(llm, at, description, living_area="the Ville:Isabella Rodriguez's apartment:main room")


def test_a_model_that_never_answers_gets_the_fail_safe_in_the_faithful_shape(tmp_path):
    """Failure path, with a scripted fake model that never replies with JSON."""
    llm, fake = scripted_llm("I am not sure.", ledger_path=tmp_path / "ledger.jsonl")
    result = _call(llm)
    assert result.address == "the Ville:Hobbs Cafe:cafe:coffee machine"  # the area named, the object sharing a word
    assert result.event[0] == "Isabella Rodriguez" and result.obj_event[0] == "coffee machine"
    assert result.obj_description == "being used by Isabella" and result.pronunciatio and result.obj_pronunciatio
    [line] = read_ledger(tmp_path / "ledger.jsonl")
    assert (
        line["prompt"] == "action_packed" and line["fallback"] and line["attempts"] == 3
    )  # the same reply again: asked afresh once
    # The prompt lists the places as "area > place: objects"; the schema holds the paths, one branch
    # per area and place in it, and the format line does not write the names out again.
    assert "Hobbs Cafe > cafe: coffee machine, cafe counter" in last_user_text(fake, 0)
    assert "Maria Lopez's house" not in last_user_text(fake, 0)
    branches = {
        (b["properties"]["sector"]["const"], b["properties"]["arena"]["const"]): b["properties"]["object"]["enum"]
        for b in call_schema(fake, 0)["anyOf"]
    }
    assert branches == {
        ("Hobbs Cafe", "cafe"): ["coffee machine", "cafe counter"],
        ("Hobbs Cafe", "kitchen"): ["stove", "sink"],
        ("Isabella Rodriguez's apartment", "main room"): ["bed", "desk"],
        ("Isabella Rodriguez's apartment", "kitchen"): ["stove", "refrigerator"],
        ("Isabella Rodriguez's apartment", "balcony"): ["<random>"],
    }
    assert '"arena": string (as listed)' in last_user_text(fake, 0) and '"balcony"' not in last_user_text(fake, 0)
    # The object's triple is read from its state, not asked of the model.
    assert result.obj_event == ("coffee machine", "is", "being used by Isabella")


def test_nowhere_known_gives_the_home_address_and_no_object(tmp_path):
    """Failure path (nothing known to choose from), scripted fake model."""
    llm, _ = scripted_llm("no", ledger_path=tmp_path / "ledger.jsonl")
    result = _call(llm, places={})
    assert result.address == "the Ville:Isabella Rodriguez's apartment:main room:<random>"
    assert (result.obj_description, result.obj_pronunciatio, result.obj_event) == (None, None, (None, None, None))
    assert [line["prompt"] for line in read_ledger(tmp_path / "ledger.jsonl")] == ["pronunciatio", "event_triple"]


@pytest.mark.slow
def test_the_bundled_model_gives_a_known_consistent_address(tmp_path):
    llm = LLM.from_settings(
        load_settings(PROJECT_ROOT / "config.toml"), tasks=product_tasks(), ledger_path=tmp_path / "ledger.jsonl"
    )
    result = _call(llm)
    world, sector, arena, obj = result.address.split(":")
    assert world == "the Ville" and sector in TREE and arena in TREE[sector]
    assert obj in TREE[sector][arena] or (obj == "<random>" and not TREE[sector][arena])
    assert result.event[0] == "Isabella Rodriguez" and all(result.event)
    if obj != "<random>":
        assert result.obj_event[0] == obj and result.obj_description and result.obj_pronunciatio
    [line] = read_ledger(tmp_path / "ledger.jsonl")
    assert line["prompt"] == "action_packed" and line["completion_tokens"] > 0


@pytest.mark.parametrize("subtask", ["(1)", "...", "text", "", "12:00"])
def test_the_fail_safe_never_raises_on_an_activity_without_words(subtask):
    case = load_fixture("action_packed").cases[0]
    inputs = {**case.inputs, "subtask": subtask, "action": subtask}
    reply = fail_safe(inputs_with(ACTION_PACKED, **inputs), case.choices)
    assert (
        PackedActionReply.model_validate(
            reply.model_dump(), context={**case.context(ACTION_PACKED), "inputs": inputs_with(ACTION_PACKED, **inputs)}
        )
        == reply
    )


def test_an_activity_naming_a_place_happens_there_whatever_area_the_model_chose():
    home = {**REPLY, "sector": "Isabella Rodriguez's apartment", "arena": "main room", "object": "bed"}
    inputs = {
        "name": "Isabella Rodriguez",
        "place_tree": TREE,
        "action": "opening Hobbs Cafe",
        "subtask": "unlocking the door",
    }
    reply = PackedActionReply.model_validate(home, context={"inputs": inputs_with(ACTION_PACKED, **inputs)})
    assert (
        (reply.sector, reply.arena) == ("Hobbs Cafe", "cafe")
        or reply.sector == "Hobbs Cafe"
        and reply.arena in TREE["Hobbs Cafe"]
    )
    assert reply.object in TREE["Hobbs Cafe"][reply.arena]
    unnamed = {**inputs, "action": "sleeping", "subtask": "in bed"}
    assert (
        PackedActionReply.model_validate(home, context={"inputs": inputs_with(ACTION_PACKED, **unnamed)}).sector
        == "Isabella Rodriguez's apartment"
    )
