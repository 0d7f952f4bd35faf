"""event_triple / act_obj_event_triple: short predicate, real object; the fail-safe is not re-wrapped."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from reverie.tasks.event_triple import TripleReply, fail_safe, split_statement
from reverie.tasks.event_triple import EVENT_TRIPLE
from reverie.prompt_tools.fixtures import inputs_with


def ctx(subject):
    return {"inputs": inputs_with(EVENT_TRIPLE, subject=subject)}


def test_subject_repeated_in_the_predicate_is_removed():
    reply = TripleReply.model_validate(
        {"predicate": "Isabella Rodriguez is eating", "target": "breakfast."}, context=ctx("Isabella Rodriguez")
    )
    assert (reply.predicate, reply.target) == ("is eating", "breakfast")


def test_object_equal_to_subject_is_rejected():
    with pytest.raises(ValidationError, match="the target repeats the subject 'bed'"):
        TripleReply.model_validate({"predicate": "is", "target": "Bed"}, context=ctx("bed"))


def test_a_state_given_as_the_predicate_of_the_subject_itself_becomes_the_target():
    # The bundled model's reply for "bed is being slept in", twice in a row.
    reply = TripleReply.model_validate({"predicate": "is being slept in", "target": "bed"}, context=ctx("bed"))
    assert (reply.predicate, reply.target) == ("is", "being slept in")
    with pytest.raises(ValidationError, match="the target repeats the subject 'bed'"):
        TripleReply.model_validate({"predicate": "is covering", "target": "bed"}, context=ctx("bed"))


@pytest.mark.parametrize(
    "statement, subject, expected",
    [
        ("Isabella Rodriguez is eating breakfast", "Isabella Rodriguez", ("eating", "breakfast")),
        ("Maria Lopez is sleeping", "Maria Lopez", ("is", "sleeping")),
        ("bed is being used by Maria", "bed", ("is", "being used by Maria")),
        ("bed is idle", "bed", ("is", "idle")),
        ("bed is ", "bed", ("is", "idle")),
    ],
)
def test_fail_safe_splits_the_statement(statement, subject, expected):
    assert split_statement(statement, subject) == expected
    reply = fail_safe(inputs_with(EVENT_TRIPLE, subject=subject, statement=statement), {})
    assert (reply.predicate, reply.target) == expected
    assert reply.predicate != subject and reply.target != subject  # never (name, name, "is")


# --- through the facade (scripted chat model: fixed replies, not a real model) ----------

from tests.tasks.planning_support import scripted_llm  # noqa: E402

from reverie.tasks.event_triple import act_obj_event_triple, event_triple  # noqa: E402


@pytest.mark.parametrize(
    "replies, action, obj_state",
    [
        # Scripted valid replies.
        pytest.param(
            ['{"predicate": "eat", "target": "breakfast"}', '{"predicate": "is", "target": "in use"}'],
            ("Maria Lopez", "eat", "breakfast"),
            "in use",
            id="the subject first",
        ),
        # Scripted replies that are never valid -> (name, "eating", "breakfast"), not (name, name, "is").
        pytest.param(
            ['{"predicate": "", "target": ""}'],
            ("Maria Lopez", "eating", "breakfast"),
            "idle",
            id="fail-safe not rewrapped",
        ),
    ],
)
def test_functions_give_the_subject_first_and_a_fail_safe_that_is_not_rewrapped(replies, action, obj_state):
    llm, _ = scripted_llm(*replies)
    assert event_triple(llm, name="Maria Lopez", action_description="morning routine (eating breakfast)") == action
    assert act_obj_event_triple(llm, object_name="bed", object_description=obj_state) == ("bed", "is", obj_state)


def test_target_repeated_at_the_end_of_the_predicate_is_cut():
    reply = TripleReply.model_validate(
        {"predicate": "is covered with research notes", "target": "research notes"}, context=ctx("library table")
    )
    assert (reply.predicate, reply.target) == ("is covered with", "research notes")


@pytest.mark.parametrize(
    "statement",
    [
        "Nora Bennett is (1)",
        "Nora Bennett is ...",
        "Nora Bennett is text",
        "Nora Bennett is 42",
        "",
        "Nora Bennett is Nora Bennett",
    ],
)
def test_the_fail_safe_never_raises(statement):
    """Statements the engine can produce (a subtask with no letters, a placeholder)."""
    reply = fail_safe(inputs_with(EVENT_TRIPLE, subject="Nora Bennett", statement=statement), {})
    again = TripleReply.model_validate(reply.model_dump(), context=ctx("Nora Bennett"))
    assert again.predicate and again.target


@pytest.mark.parametrize(
    "predicate, target, expected",
    [
        ("is going to go and unlock", "the door", ("is going", "to go and unlock the door")),
        ("brews a fresh pot of", "coffee", ("brews", "a fresh pot of coffee")),
    ],
)
def test_a_long_predicate_keeps_its_verb_and_the_rest_goes_into_the_target(predicate, target, expected):
    """The triple still reads as the same sentence; nothing is sent back."""
    reply = TripleReply.model_validate({"predicate": predicate, "target": target}, context=ctx("Isabella Rodriguez"))
    assert (reply.predicate, reply.target) == expected


def test_a_verb_written_again_as_the_target_is_sent_back_as_such():
    """The bundled model's answer in a real run's trace: the verb in both fields."""
    with pytest.raises(
        ValidationError,
        match="the predicate and the target are both 'is planning'; the target is what Iris Novak acts on",
    ):
        TripleReply.model_validate({"predicate": "is planning", "target": "is planning"}, context=ctx("Iris Novak"))


def test_a_predicate_that_is_no_verb_is_sent_back():
    """The bundled model's answer in the packed action: a place name in every field."""
    with pytest.raises(
        ValidationError, match="the predicate 'The Rose and Crown Pub' is not a verb; write a short verb"
    ):
        TripleReply.model_validate(
            {"predicate": "The Rose and Crown Pub", "target": "The Rose and Crown Pub"},
            context=ctx("Isabella Rodriguez"),
        )
