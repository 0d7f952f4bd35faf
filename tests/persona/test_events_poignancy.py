"""New memories' poignancy: asked when first read, many in one call (prompt events_poignancy).

The contract is checked on the schema (the grammar's fixed length, scores out of range and
lists of the wrong length sent back, the fail-safe). Perception runs on Nora Bennett of our
base world with the real map, the real embedder and the real LLM facade over a scripted fake
chat model (a fast smoke test: the fake answers by prompt name, so what is checked is which
prompts are asked and how often, and that the scores it gave are the ones stored).
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from pydantic import ValidationError

from reverie.config import Settings
from reverie.llm import LLM
from reverie.llm.fake_model import FakeChatModel
from reverie.llm.schema import call_schema
from reverie.persona.options import CognitionOptions
from reverie.memory import Embedder
from reverie.memory.unrated import UNRATED_FILE
from reverie.persona.perceive import perceive
from reverie.persona.persona import Persona
from reverie.persona.ratings import REFLECTION_WAIT, rate_waiting, rate_when_due
from reverie.persona.retrieve import retrieve_scored
from reverie.persona.step import StepContext
from reverie.persona.thoughts import NewThought, add_thought, add_thoughts
from reverie.tasks.events_poignancy import (
    EVENTS_POIGNANCY,
    MAX_EVENTS,
    EventsPoignancyReply,
    events_poignancy,
    fail_safe,
)
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


@pytest.mark.parametrize(
    "ratings, error",
    [
        ([3, 12, 1], "12 is out of range; use a whole number from 1 to 10"),
        ([3, 0, 1], "0 is out of range"),
        ([3, 2], "give exactly 3 ratings, one for each numbered memory in order; you gave 2"),
        ([3, 2, 1, 5], "you gave 4"),
    ],
)
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


EVENTS = [
    ("Theo Alvarez", "is", "singing", "singing loudly"),
    ("Willow Creek:cafe:counter:coffee machine", "is", "brewing", "brewing coffee"),
    ("Mira Chen", "is", "reading", "reading a novel"),
]


LATER = [
    ("Theo Alvarez", "is", "dancing", "dancing"),
    ("Willow Creek:cafe:counter:coffee machine", "is", "steaming", "steaming milk"),
    ("Mira Chen", "is", "writing", "writing a letter"),
]


def _by_count(call):
    count = call.schema.get("properties", {}).get("ratings", {}).get("maxItems")
    return {"ratings": [max(1, 7 - i) for i in range(count)]} if count else {"rating": 9}


def _ours(nodes) -> dict:
    return {node.subject: node.poignancy for node in nodes if node.subject in {e[0] for e in EVENTS}}


def _perceive(nora, maze, llm, *events) -> list:
    _put(maze, *events)
    try:
        return perceive(nora, StepContext(maze=maze, llm=llm, rng=random.Random(0))).nodes
    finally:
        _clear(maze, *events)


def test_new_events_wait_until_a_scored_retrieval_reads_them_then_one_call_rates_them(world, nora):
    _settings, maze = world
    llm, model = _llm(_by_count)
    trigger = nora.scratch.importance_trigger_curr
    stored = _perceive(nora, maze, llm, *EVENTS)
    assert _asked(model) == [], "nothing reads the scores yet: no call"
    assert all(node.poignancy == 1 for node in stored if node.subject not in _ours(stored)), "idle things: mundane"

    retrieve_scored(nora, llm, ["Theo Alvarez"], 5)
    assert _asked(model) == ["events_poignancy"]
    assert sorted(_ours(stored).values()) == [5, 6, 7], "the three scores of the one reply, one per event"
    assert "1. " in model.calls[0].user_text and "3. " in model.calls[0].user_text
    idle = sum(node.poignancy for node in stored if node.subject not in _ours(stored))
    assert nora.scratch.importance_trigger_curr == trigger - 18 - idle, "the scores count toward the reflection"
    retrieve_scored(nora, llm, ["Theo Alvarez"], 5)
    assert len(model.calls) == 1, "nothing waits: no call"


def test_events_that_could_bring_a_reflection_on_are_rated_once_the_oldest_has_waited_five_minutes(world, nora):
    """A reflection may start up to REFLECTION_WAIT late: the events of those minutes join one call."""
    _settings, maze = world
    llm, model = _llm(_by_count)
    start = nora.scratch.curr_time
    nora.scratch.importance_trigger_curr = 1000
    _perceive(nora, maze, llm, *EVENTS)
    nora.scratch.importance_trigger_curr = 31
    rate_when_due(nora, llm)
    assert _asked(model) == [], "three waiting events score 30 at most: no reflection reachable"
    nora.scratch.curr_time = start + REFLECTION_WAIT - timedelta(seconds=10)
    stored = _perceive(nora, maze, llm, *LATER)
    assert _asked(model) == [], "six could reach it, but the oldest has waited under five minutes"
    nora.scratch.curr_time = start + REFLECTION_WAIT
    rate_when_due(nora, llm)
    assert _asked(model) == ["events_poignancy"], "the oldest has waited five minutes: all rated in one call"
    assert model.calls[0].schema["properties"]["ratings"]["maxItems"] == 6
    idle = sum(node.poignancy for node in stored if node.subject not in _ours(stored))
    assert nora.scratch.importance_trigger_curr == 31 - sum(range(2, 8)) - idle


def test_a_full_batch_of_waiting_memories_is_rated_without_waiting_longer(nora):
    llm, model = _llm({"event_triple": [{"predicate": "is", "target": "thinking"}], "events_poignancy": [_by_count]})
    add_thoughts(nora, llm, [NewThought(f"Nora thinks {i}") for i in range(MAX_EVENTS - 1)])
    assert "events_poignancy" not in _asked(model)
    add_thoughts(nora, llm, [NewThought("Nora thinks once more")])
    assert _asked(model).count("events_poignancy") == 1
    assert model.calls[-1].schema["properties"]["ratings"]["maxItems"] == MAX_EVENTS


def test_with_deferring_off_a_step_of_new_events_is_one_call_at_its_end(world, nora):
    _settings, maze = world
    llm, model = _llm(_by_count)
    nora.options = CognitionOptions(defer_ratings=False)
    stored = _perceive(nora, maze, llm, *EVENTS)
    assert _asked(model) == ["events_poignancy"]
    assert sorted(_ours(stored).values()) == [5, 6, 7]


def test_one_waiting_event_keeps_the_single_prompt_and_todays_answers_are_reused(world, nora):
    _settings, maze = world
    llm, model = _llm(_by_count)
    stored = _perceive(nora, maze, llm, EVENTS[0])
    rate_waiting(nora, llm)
    assert _asked(model) == ["event_poignancy"]
    assert list(_ours(stored).values()) == [9]
    again = ("Theo Alvarez", "is", "singing again", "singing loudly")  # another triple, the same text
    stored = _perceive(nora, maze, llm, *LATER[1:], again)
    assert _ours(stored)["Theo Alvarez"] == 9 and not model.calls[1:], "the text rated today takes its score at once"
    rate_waiting(nora, llm)
    assert _asked(model) == ["event_poignancy", "events_poignancy"]
    assert model.calls[-1].schema["properties"]["ratings"]["maxItems"] == 2


def test_waiting_memories_survive_a_save_and_are_rated_after_the_reload(world, nora, tmp_path):
    settings, maze = world
    llm, model = _llm(_by_count)
    stored = _perceive(nora, maze, llm, *EVENTS)
    folder = tmp_path / "saved"
    nora.save(folder)
    assert (folder / UNRATED_FILE).is_file()
    again = Persona.load(NAME, folder, embedder=Embedder(settings))
    rate_waiting(again, llm)
    assert _asked(model) == ["events_poignancy"]
    ids = {node.node_id for node in stored if node.subject in _ours(stored)}
    assert sorted(again.a_mem.id_to_node[i].poignancy for i in ids) == [5, 6, 7]
    again.save(folder)
    assert not (folder / UNRATED_FILE).exists(), "nothing waits: no file"


def test_with_reuse_switched_off_a_batch_is_asked_once_and_not_again_per_event(world, nora):
    _settings, maze = world
    llm, model = _llm(_by_count)
    nora.options = CognitionOptions(reuse_answers=False, defer_ratings=False)
    _perceive(nora, maze, llm, *EVENTS)
    assert _asked(model) == ["events_poignancy"]


def test_the_persona_comes_after_the_stable_text_without_the_lines_a_rating_does_not_read(nora):
    llm, model = _llm(_by_count)
    events_poignancy(llm, persona_name=NAME, identity=nora.identity(), descriptions=["a", "b"])
    [call] = model.calls
    system = str(call.messages[0].content)
    assert NAME not in system and "1 (ordinary routine" in system, "the same system text for every persona"
    assert "Innate traits:" in call.user_text and "Currently:" in call.user_text
    assert "Lifestyle:" in nora.identity() and "Lifestyle:" not in call.user_text
    assert "Current Date:" not in call.user_text


def test_thoughts_wait_too_and_are_rated_on_their_score_text(nora):
    llm, model = _llm(
        {
            "event_triple": [{"predicate": "is", "target": "thinking"}],
            "events_poignancy": [_by_count],
            "event_poignancy": [_by_count],
        }
    )
    nodes = add_thoughts(
        nora,
        llm,
        [NewThought("Nora likes the cafe", ["e1"]), NewThought("Nora will call Theo", [], score_text="call Theo")],
    )
    assert _asked(model) == ["event_triple", "event_triple"]
    trigger = nora.scratch.importance_trigger_curr
    rate_waiting(nora, llm)
    assert _asked(model)[2:] == ["events_poignancy"]
    assert [n.poignancy for n in nodes] == [7, 6] and [n.description for n in nodes] == [
        "Nora likes the cafe",
        "Nora will call Theo",
    ]
    assert "1. Nora likes the cafe" in model.calls[2].user_text and "2. call Theo" in model.calls[2].user_text
    assert nodes[0].filling == ["e1"]
    assert nora.scratch.importance_trigger_curr == trigger, "thoughts do not count toward the reflection"


def test_with_deferring_off_thoughts_that_arrive_together_are_one_call_and_a_lone_one_alone(nora):
    llm, model = _llm(
        {
            "event_triple": [{"predicate": "is", "target": "thinking"}],
            "events_poignancy": [_by_count],
            "event_poignancy": [_by_count],
        }
    )
    nora.options = CognitionOptions(defer_ratings=False)
    nodes = add_thoughts(nora, llm, [NewThought("Nora likes the cafe", ["e1"]), NewThought("Nora is here")])
    assert _asked(model) == ["event_triple", "event_triple", "events_poignancy"]
    assert [n.poignancy for n in nodes] == [7, 6]
    alone = add_thought(nora, llm, "Nora is tired", [])
    assert _asked(model)[3:] == ["event_triple", "event_poignancy"] and alone.poignancy == 9


CHAT = (NAME, "chat with", "Theo Alvarez", "conversing about the spring menu")


def _own_chat(nora, maze, llm) -> list:
    nora.scratch.act_description = "conversing about the spring menu"
    nora.scratch.chat = [["Nora Bennett", "Try my new scone?"], ["Theo Alvarez", "Gladly!"]]
    return _perceive(nora, maze, llm, CHAT)


@pytest.mark.parametrize("defer", [True, False])
def test_a_persona_s_own_conversation_waits_with_its_event_and_takes_its_score(world, nora, defer):
    """Deferred, the chat memory is rated with its event (one text: the two say the same);
    with deferring off, it keeps the original's chat prompt."""
    _settings, maze = world
    llm, model = _llm(_by_count)
    nora.options = CognitionOptions(defer_ratings=defer)
    stored = _own_chat(nora, maze, llm)
    rate_waiting(nora, llm)
    chat = nora.a_mem.get_last_chat("Theo Alvarez")
    event = next(node for node in stored if node.subject == NAME)
    assert chat is not None and event.filling == [chat.node_id]
    if defer:
        assert _asked(model) == ["event_poignancy"]
        assert chat.poignancy == event.poignancy == 9
    else:
        assert _asked(model) == ["chat_poignancy", "event_poignancy"]
