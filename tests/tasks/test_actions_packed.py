"""actions_packed: a list of action_packed answers in one call, each checked as a single answer.

The unit's checks are run directly on replies, and its function on the real LLM facade over a
scripted fake chat model (not a real model) that answers from the fixture's places.
"""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from reverie.llm.schema import call_schema, items_asked
from reverie.prompt_tools.evaluate import read_ledger
from reverie.prompt_tools.fixtures import load_fixture
from reverie.tasks.action_packed import ACTION_PACKED, Standpoint
from reverie.tasks.actions_packed import ACTIONS_PACKED, MAX_ACTIONS, ActionsPackedReply, actions_packed, even_parts
from tests.tasks.planning_support import scripted_llm

FIXTURE = load_fixture("actions_packed")
CASE = FIXTURE.cases[0]
GOOD = FIXTURE.valid[0]["actions"]


INPUTS = ACTIONS_PACKED.typed(CASE.inputs)


def check(actions: list[dict]) -> ActionsPackedReply:
    return ACTIONS_PACKED.validate({"actions": actions}, CASE.inputs, CASE.choices)


def answers(reply: ActionsPackedReply) -> list:
    return reply.answers(INPUTS, CASE.choices)


def test_each_answer_is_what_action_packed_makes_of_it_for_its_own_subtask():
    reply = check(GOOD)
    for number, (raw, answer) in enumerate(zip(GOOD, answers(reply)), 1):
        assert answer == ACTION_PACKED.validate(raw, INPUTS.one(number), CASE.choices)
    # action_packed's own correction of a reply: an activity that names an area happens there.
    moved = check(
        [{**GOOD[0], "sector": "Isabella Rodriguez's apartment", "arena": "main room", "object": "desk"}, *GOOD[1:]]
    )
    assert answers(moved)[0].sector == "Hobbs Cafe"


def test_an_answer_with_a_wrong_place_is_left_out_and_the_others_kept():
    reply = check([GOOD[0], {**GOOD[1], "object": "bed"}, *GOOD[2:]])
    found = answers(reply)
    assert found[1] is None
    assert [a.object for a in found if a is not None] == [GOOD[0]["object"], GOOD[2]["object"], GOOD[3]["object"]]


def test_no_usable_answer_or_the_wrong_count_is_sent_back():
    with pytest.raises(ValidationError, match="answers 1, 2, 3, 4: object 'bed' is not in cafe"):
        check([{**a, "object": "bed"} for a in GOOD])
    with pytest.raises(ValidationError, match="give exactly 4 answers"):
        check(GOOD[:3])


def test_the_schema_fixes_the_list_to_the_subtasks_and_the_fail_safe_answers_nothing():
    schema = call_schema(ActionsPackedReply, CASE.choices)
    actions = schema["properties"]["actions"]
    assert actions["minItems"] == actions["maxItems"] == len(CASE.choices["subtasks"]) == items_asked(schema)
    assert answers(ACTIONS_PACKED.fail_safe(INPUTS, CASE.choices)) == []


def test_long_lists_go_in_even_parts():
    assert [len(p) for p in even_parts(list("abcdefghijklm"), 6)] == [5, 4, 4]
    assert even_parts(list("abc"), 6) == [list("abc")] and even_parts([], 6) == []
    assert sum(even_parts(list("abcdefghijklm"), 6), []) == list("abcdefghijklm")


def _ask(llm, descriptions):
    inputs = CASE.inputs
    at = Standpoint(
        name=inputs["name"],
        world="the Ville",
        living_sector=inputs["living_sector"],
        current_sector=inputs["current_sector"],
        daily_plan_req=inputs["daily_plan_req"],
        places=inputs["place_tree"],
    )
    return actions_packed(llm, at, descriptions)


def test_more_subtasks_than_one_call_holds_are_asked_in_even_calls(tmp_path):
    """Scripted fake model: every call gets the fixture's first answer for each of 4 subtasks."""
    descriptions = [f"opening Hobbs Cafe (step {i})" for i in range(MAX_ACTIONS + 2)]
    llm, fake = scripted_llm(json.dumps({"actions": [GOOD[0]] * 4}), ledger_path=tmp_path / "ledger.jsonl")
    found = _ask(llm, descriptions)
    assert [c.schema["properties"]["actions"]["maxItems"] for c in fake.calls] == [4, 4]
    assert list(found) == descriptions
    assert all(p.address == "the Ville:Hobbs Cafe:cafe:behind the cafe counter" for p in found.values())
    assert [line["prompt"] for line in read_ledger(tmp_path / "ledger.jsonl")] == ["actions_packed"] * 2


def test_a_failed_call_answers_nothing(tmp_path):
    """Failure path: a scripted fake model that never replies with JSON."""
    llm, _fake = scripted_llm("I am not sure.", ledger_path=tmp_path / "ledger.jsonl")
    assert _ask(llm, ["opening Hobbs Cafe (unlocking the door)", "opening Hobbs Cafe (brewing coffee)"]) == {}
    [line] = read_ledger(tmp_path / "ledger.jsonl")
    assert line["prompt"] == "actions_packed" and line["fallback"]
