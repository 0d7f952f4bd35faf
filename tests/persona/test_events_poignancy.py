"""A step's new events, and thoughts that arrive together, rated in one call (prompt events_poignancy).

The contract is checked on the schema (the grammar's fixed length, scores out of range and
lists of the wrong length sent back, the fail-safe). Perception runs on Nora Bennett of our
base world with the real map, the real embedder and the real LLM facade over a scripted fake
chat model (a fast smoke test: the fake answers by prompt name, so what is checked is which
prompts are asked and how often, and that the scores it gave are the ones stored).
"""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from reverie.config import Settings
from reverie.llm import LLM
from reverie.llm.fake_model import FakeChatModel
from reverie.llm.schema import call_schema
from reverie.persona.options import CognitionOptions
from reverie.persona.perceive import perceive, rate_all
from reverie.persona.step import StepContext
from reverie.persona.thoughts import NewThought, add_thought, add_thoughts
from reverie.tasks.events_poignancy import (EVENTS_POIGNANCY, MAX_EVENTS, EventsPoignancyReply, events_poignancy,
                                            fail_safe)
from reverie.prompt_tools.fixtures import fixture_inputs
from reverie.tasks.registry import product_tasks
from reverie.world.maze import Maze
from reverie import PROJECT_ROOT
from tests.persona.test_reused_answers import nora, world  # noqa: F401 (the fixtures: Nora of the base world)

NAME = "Nora Bennett"
HERE = (10, 10)


def _context(count: int) -> dict:
    events = "\n".join(f"{i}. event {i}" for i in range(1, count + 1))
    return EVENTS_POIGNANCY.context(fixture_inputs(EVENTS_POIGNANCY, events=events, count=count))


def test_the_grammar_writes_exactly_one_score_per_event():
    schema = call_schema(EventsPoignancyReply, {"events": ["a", "b", "c"]})
    ratings = schema["properties"]["ratings"]
    assert ratings["minItems"] == ratings["maxItems"] == 3
    assert ratings["items"]["enum"] == list(range(1, 11))
    assert call_schema(EventsPoignancyReply, {})["properties"]["ratings"]["maxItems"] == MAX_EVENTS


@pytest.mark.parametrize("ratings, error", [
    ([3, 12, 1], "12 is out of range; use a whole number from 1 to 10"),
    ([3, 0, 1], "0 is out of range"),
    ([3, 2], "give exactly 3 ratings, one for each numbered memory in order; you gave 2"),
    ([3, 2, 1, 5], "you gave 4"),
])
def test_a_wrong_reply_goes_back_with_what_to_fix(ratings, error):
    with pytest.raises(ValidationError) as caught:
        EventsPoignancyReply.model_validate({"ratings": ratings}, context=_context(3))
    assert error in str(caught.value)


def test_the_fail_safe_gives_every_event_a_middling_score():
    inputs = fixture_inputs(EVENTS_POIGNANCY, events="1. a\n2. b", count=2)
    assert fail_safe(inputs, {}).ratings == [4, 4]


def _llm(replies) -> tuple[LLM, FakeChatModel]:
    settings = Settings()
    settings.paths.prompts = PROJECT_ROOT / "prompts"
    model = FakeChatModel(replies=replies)
    return LLM(settings, tasks=product_tasks(), chat_models={"strong": model, "cheap": model}), model


def test_a_reply_that_never_fits_ends_in_the_logged_fail_safe(caplog):
    llm, model = _llm({"events_poignancy": [{"ratings": [2, 11]}]})
    with caplog.at_level("WARNING"):
        scores = events_poignancy(llm, persona_name=NAME, identity="Name: Nora", descriptions=["a", "b"])
    assert scores == [4, 4]
    assert len(model.calls) > 1 and "11 is out of range" in model.calls[1].user_text
    assert any("events_poignancy: fail-safe used" in r.getMessage() for r in caplog.records)


def _asked(model: FakeChatModel) -> list[str]:
    return [call.prompt for call in model.calls]


def _put(maze: Maze, *events):
    for event in events:
        maze.add_event_to_tile(event, HERE)


def _clear(maze: Maze, *events):
    for event in events:
        maze.remove_event_from_tile(event, HERE)


EVENTS = [("Theo Alvarez", "is", "singing", "singing loudly"),
          ("Willow Creek:cafe:counter:coffee machine", "is", "brewing", "brewing coffee"),
          ("Mira Chen", "is", "reading", "reading a novel")]


def _by_count(call):
    count = call.schema.get("properties", {}).get("ratings", {}).get("maxItems")
    return {"ratings": list(range(7, 7 - count, -1))} if count else {"rating": 9}


def test_a_step_of_new_events_is_one_call_and_its_scores_are_stored(world, nora):
    _settings, maze = world
    llm, model = _llm(_by_count)
    _put(maze, *EVENTS)
    try:
        stored = perceive(nora, StepContext(maze=maze, llm=llm, rng=random.Random(0)))
        assert _asked(model) == ["events_poignancy"]
        ours = {node.subject: node.poignancy for node in stored if node.subject in {e[0] for e in EVENTS}}
        assert sorted(ours.values()) == [5, 6, 7], "the three scores of the one reply, one per event"
        assert all(node.poignancy == 1 for node in stored if node.subject not in ours), "idle things are not rated"
        assert "1. " in model.calls[0].user_text and "3. " in model.calls[0].user_text
    finally:
        _clear(maze, *EVENTS)


def test_one_new_event_keeps_the_single_prompt_and_todays_answers_are_reused(world, nora):
    _settings, maze = world
    llm, model = _llm(_by_count)
    _put(maze, EVENTS[0])
    try:
        stored = perceive(nora, StepContext(maze=maze, llm=llm, rng=random.Random(0)))
        assert _asked(model) == ["event_poignancy"]
        assert [node.poignancy for node in stored if node.subject == EVENTS[0][0]] == [9]
    finally:
        _clear(maze, EVENTS[0])
    keys = ["Theo Alvarez is singing loudly", "coffee machine is brewing coffee", "Mira Chen is reading a novel"]
    assert rate_all(nora, llm, keys) == {keys[1]: 7, keys[2]: 6}, "the event rated today is not asked again"
    assert _asked(model) == ["event_poignancy", "events_poignancy"]
    assert model.calls[-1].schema["properties"]["ratings"]["maxItems"] == 2
    assert rate_all(nora, llm, keys) == {} and len(model.calls) == 2, "all three known today: no call"


def test_with_reuse_switched_off_a_batch_is_asked_once_and_not_again_per_event(world, nora):
    _settings, maze = world
    llm, model = _llm(_by_count)
    nora.options = CognitionOptions(reuse_answers=False)
    _put(maze, *EVENTS)
    try:
        perceive(nora, StepContext(maze=maze, llm=llm, rng=random.Random(0)))
        assert _asked(model) == ["events_poignancy"]
    finally:
        _clear(maze, *EVENTS)


def test_the_persona_comes_after_the_stable_text_without_the_lines_a_rating_does_not_read(nora):
    llm, model = _llm(_by_count)
    events_poignancy(llm, persona_name=NAME, identity=nora.identity(), descriptions=["a", "b"])
    [call] = model.calls
    system = str(call.messages[0].content)
    assert NAME not in system and "1 = ordinary routine" in system, "the same system text for every persona"
    assert "Innate traits:" in call.user_text and "Currently:" in call.user_text
    assert "Lifestyle:" in nora.identity() and "Lifestyle:" not in call.user_text
    assert "Current Date:" not in call.user_text


def test_thoughts_that_arrive_together_are_rated_in_one_call_and_a_lone_one_alone(nora):
    llm, model = _llm({"event_triple": [{"predicate": "is", "target": "thinking"}],
                       "events_poignancy": [_by_count], "event_poignancy": [_by_count]})
    nodes = add_thoughts(nora, llm, [NewThought("Nora likes the cafe", ["e1"]),
                                     NewThought("Nora will call Theo", [], score_text="call Theo")])
    assert _asked(model) == ["events_poignancy", "event_triple", "event_triple"]
    assert [n.poignancy for n in nodes] == [7, 6] and [n.description for n in nodes] == ["Nora likes the cafe",
                                                                                         "Nora will call Theo"]
    assert "1. Nora likes the cafe" in model.calls[0].user_text and "2. call Theo" in model.calls[0].user_text
    assert nodes[0].filling == ["e1"]
    alone = add_thought(nora, llm, "Nora is tired", [])
    assert _asked(model)[3:] == ["event_poignancy", "event_triple"] and alone.poignancy == 9
