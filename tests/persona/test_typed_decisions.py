"""Cognition decides on types (an event's triple, a parsed address, a stage's result), not on
words in a description: each test gives a case where the words and the type disagree, and the
type must win. Plain objects and scratch only: no model is asked."""

from __future__ import annotations

import random
from datetime import datetime
from types import SimpleNamespace

import pytest

from reverie.action_text import SleepWords
from reverie.address import PersonaAt, Place, WaitingAt, movement_address, movement_text, parse_address
from reverie.memory import Scratch
from reverie.memory.event import Event
from reverie.persona.persona import STAGES
from reverie.persona.plan import plan_own, plan_reaction
from reverie.persona.react import choose_retrieved
from reverie.persona.reaction_inputs import status
from reverie.persona.step import Moved, Perceived, Planned, StepContext
from reverie.tasks.prompt_text import labelled_value, transcript_rows

CAFE = "the Ville:Hobbs Cafe:cafe:counter"


def _node(subject: str, predicate: str, obj: str, description: str) -> SimpleNamespace:
    triple = Event(subject, predicate, obj)
    return SimpleNamespace(subject=subject, description=description, spo=lambda: triple)


def test_an_idle_thing_is_told_by_its_triple_not_by_its_words():
    """A desk whose triple is idle is passed over even when its words say otherwise; a bed whose
    words say "is idle" but whose triple does not is focused on."""
    maria = SimpleNamespace(name="Maria Lopez")
    seen = {
        "desk": {"curr_event": _node("desk", "is", "idle", "desk is unused")},
        "bed": {"curr_event": _node("bed", "is", "being made", "bed is idle no more")},
    }
    for seed in range(20):
        assert choose_retrieved(maria, seen, random.Random(seed), {}) is seen["bed"]
    assert Event("desk", "is", "idle").is_idle and not Event("bed", "is", "being made").is_idle


def _scratch(address: str, description: str) -> Scratch:
    return Scratch(
        name="Maria Lopez", curr_time=datetime(2023, 2, 13, 9, 30), act_address=address, act_description=description
    )


def test_waiting_is_the_waiting_address_not_the_word():
    """A plan item that says "waiting" at a place is an action like any other; a waiting
    reaction is its ``<waiting>`` address, whatever its description says."""
    at_the_cafe = SimpleNamespace(name="Maria Lopez", scratch=_scratch(CAFE, "waiting for the bus"))
    assert status(at_the_cafe) == "Maria Lopez is already waiting for the bus"
    standing = SimpleNamespace(name="Maria Lopez", scratch=_scratch("<waiting> 20 14", "standing by the door"))
    assert status(standing) == "Maria Lopez is standing by the door"
    assert status(at_the_cafe, with_place=True) == "Maria Lopez is already waiting for the bus at cafe in Hobbs Cafe"


def test_sleep_words_are_read_in_one_place():
    """The activity before a "(subtask)" names sleep; "sleeping" anywhere stops a conversation."""
    words = SleepWords.read("reading (falling asleep)")
    assert not words.activity and words.in_bed and not words.sleeping and words.bedtime
    assert SleepWords.read("going to sleep").activity and not SleepWords.read("going to sleep").in_bed
    assert SleepWords.read("sleeping").sleeping and SleepWords.read(None) == SleepWords(False, False, False, False)


def test_addresses_are_parsed_once_and_widen_down_to_the_sector():
    assert Place(CAFE).widening() == [CAFE, "the Ville:Hobbs Cafe:cafe", "the Ville:Hobbs Cafe"]
    assert Place("the Ville").widening() == ["the Ville"] and Place("").widening() == []
    assert Place(CAFE).parts == ["the Ville", "Hobbs Cafe", "cafe", "counter"]
    text = movement_text("chatting", "<persona> Klaus Mueller")
    assert movement_address(text) == "<persona> Klaus Mueller"
    assert parse_address(movement_address(text)) == PersonaAt("Klaus Mueller")
    assert movement_address("idle") is None
    assert parse_address(movement_address(movement_text("waiting", "<waiting> 3 4"))) == WaitingAt((3, 4))


def test_the_short_identity_keeps_five_labelled_items_and_each_one_line():
    from reverie.persona.converse import _short_identity

    s = Scratch(
        name="Maria Lopez",
        age=21,
        innate="kind",
        learned="studies physics",
        currently="reads\nName: x",
        lifestyle="early riser",
    )
    assert list(s.identity_items())[:2] == ["Name", "Age"]
    assert s.identity().splitlines()[0] == "Name: Maria Lopez"
    short = _short_identity(SimpleNamespace(scratch=s)).splitlines()
    assert short == [
        "Name: Maria Lopez",
        "Age: 21",
        "Innate traits: kind",
        "Learned traits: studies physics",
        "Currently: reads",
    ]


def test_a_transcript_is_read_back_row_by_row():
    text = "Nora Bennett: hi: there\n(a pause)\nTheo Alvarez:  hello"
    assert transcript_rows(text) == [("Nora Bennett", " hi: there"), ("Theo Alvarez", "  hello")]
    assert labelled_value("Name: Nora\nlifestyle: up at 6", "Lifestyle") == "up at 6"
    assert labelled_value("Name: Nora", "Currently") == ""


def test_the_step_is_a_list_of_stages_each_reading_what_those_above_returned():
    assert [name for name, _stage in STAGES] == ["perceive", "retrieve", "plan", "plan", "reflect", "execute"]
    # The persona's own part (its day and next action) comes before the part that reacts to others.
    assert [stage for _name, stage in STAGES][2:4] == [plan_own, plan_reaction]
    ctx = StepContext(maze=None, llm=None, rng=random.Random(0))
    with pytest.raises(LookupError, match="no stage before this one returned a Perceived"):
        ctx.result(Perceived)
    planned = ctx.having(Planned(Place(CAFE)))
    assert planned.result(Planned).address == Place(CAFE) and ctx.results == ()
    moved = planned.having(Moved((1, 2), "z", "x @ y"))
    assert moved.result(Moved).as_tuple() == ((1, 2), "z", "x @ y") and moved.result(Planned) is planned.results[0]
