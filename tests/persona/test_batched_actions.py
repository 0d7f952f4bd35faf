"""Packed mode: a decomposed plan item's subtasks get their places and looks in one call.

Nora Bennett of our base world with the real world map, the real embedder and the real LLM
facade (prompt files, grammar keywords, validators, repair loop, fail-safes, ledger) over a
scripted fake chat model (not a real model): it answers ``task_decomp`` with four subtasks
and ``actions_packed`` with answers built from Nora's known places, or never validly, as
each test needs. What is checked is which asks reach the model and what the day's cache
holds: the model's answers, stored as a single ``action_packed`` answer would be.
"""

from __future__ import annotations


import pytest

from reverie import PROJECT_ROOT
from reverie.config import Settings
from reverie.llm import LLM
from reverie.llm.fake_model import FakeCall, FakeChatModel
from reverie.memory.schedule import PlanItem
from reverie.persona.location import places_shown
from reverie.persona.options import CognitionOptions
from reverie.persona.persona import Persona
from reverie.persona.plan_action import address_and_details, answer_together, decompose
from reverie.prompt_tools.evaluate import read_ledger
from reverie.tasks.registry import product_tasks
from tests.persona.nora import NAME, load_nora, world  # noqa: F401 (world: a fixture)

TASK = "tidying up the house"
STEPS = ["washing the dishes", "sweeping the floor", "watering the plants", "folding the laundry"]


@pytest.fixture
def nora(world, tmp_path):
    persona = load_nora(world[0], tmp_path, CognitionOptions(packed_actions=True, reuse_answers=True))
    s = persona.scratch
    s.replace_schedule(
        0, len(s.f_daily_schedule), [PlanItem("sleeping", 540), PlanItem(TASK, 60), PlanItem("sleeping", 840)]
    )
    return persona


def home_places(persona: Persona) -> list[tuple[str, str, str]]:
    """(sector, arena, object) of every object in Nora's home."""
    world_name, sector, _arena = persona.scratch.living_area.split(":")
    arenas = persona.s_mem.tree[world_name][sector]
    return [(sector, arena, obj) for arena, objects in arenas.items() for obj in objects]


def answer(sector: str, arena: str, obj: str, target: str) -> dict:
    return {
        "sector": sector,
        "arena": arena,
        "object": obj,
        "emoji": "🧹",
        "predicate": "is doing",
        "target": target,
        "state": "being cleaned",
        "state_emoji": "✨",
    }


def town_model(actions_reply) -> FakeChatModel:
    """``task_decomp``: the four STEPS; ``actions_packed``: ``actions_reply(call)``; the rest never valid."""

    def reply(call: FakeCall):
        if call.prompt == "task_decomp":
            return {"subtasks": [[step, 15] for step in STEPS]}
        if call.prompt == "actions_packed":
            return actions_reply(call)
        return None

    return FakeChatModel(replies=reply)


def facade(model: FakeChatModel, tmp_path) -> LLM:
    settings = Settings()
    settings.paths.prompts = PROJECT_ROOT / "prompts"
    return LLM(
        settings,
        tasks=product_tasks(),
        chat_models={"strong": model, "cheap": model},
        ledger_path=tmp_path / "ledger.jsonl",
    )


def decompose_and_start(persona: Persona, maze, llm: LLM) -> None:
    """The hour's item (index 1) decomposed, then its first subtask about to start."""
    decompose(persona, 1, llm)
    answer_together(persona, maze, 1, llm)


def remember(persona: Persona, description: str, place: tuple[str, str, str]) -> None:
    """An answer already in today's cache, as a single call stores it."""
    world_name = persona.scratch.living_area.split(":")[0]
    persona.memory.todays_answers().remember_action(
        description,
        places_shown(persona),
        f"{world_name}:{':'.join(place)}",
        {
            "pronunciatio": "🧽",
            "event": [NAME, "is", "tidying"],
            "obj_description": None,
            "obj_pronunciatio": None,
            "obj_event": [None, None, None],
        },
    )


def prompts_asked(tmp_path) -> list[str]:
    return [line["prompt"] for line in read_ledger(tmp_path / "ledger.jsonl")]


def descriptions() -> list[str]:
    return [f"{TASK} ({step})" for step in STEPS]


def test_one_call_answers_every_subtask_and_the_actions_then_ask_nothing(world, nora, tmp_path):
    _settings, maze = world
    places = home_places(nora)
    chosen = [places[i % len(places)] for i in range(len(STEPS))]
    model = town_model(lambda call: {"actions": [answer(*p, step) for p, step in zip(chosen, STEPS)]})
    llm = facade(model, tmp_path)

    decompose_and_start(nora, maze, llm)
    assert prompts_asked(tmp_path) == ["task_decomp", "actions_packed"]
    batch = next(c for c in model.calls if c.prompt == "actions_packed")
    for step in STEPS:
        assert step in batch.user_text

    cache, digest = nora.memory.todays_answers(), places_shown(nora)
    world_name = nora.scratch.living_area.split(":")[0]
    for description, (sector, arena, obj), step in zip(descriptions(), chosen, STEPS):
        hit = cache.action(description, digest)
        assert hit is not None and hit["address"] == f"{world_name}:{sector}:{arena}:{obj}"
        assert hit["details"]["event"] == (NAME, "is doing", step)
        assert hit["details"]["obj_description"] == "being cleaned"

    for description, (sector, arena, obj) in zip(descriptions(), chosen):
        address, details = address_and_details(nora, maze, description, llm)
        assert address.text == f"{world_name}:{sector}:{arena}:{obj}"
    assert prompts_asked(tmp_path) == ["task_decomp", "actions_packed"], "the actions made no action_packed call"


def test_the_grammar_asks_for_one_answer_per_subtask_and_the_reply_limit_grows_with_them(world, nora, tmp_path):
    _settings, maze = world
    place = home_places(nora)[0]
    model = town_model(lambda call: {"actions": [answer(*place, step) for step in STEPS]})
    decompose_and_start(nora, maze, facade(model, tmp_path))
    batch = next(c for c in model.calls if c.prompt == "actions_packed")
    actions = batch.schema["properties"]["actions"]
    assert actions["minItems"] == actions["maxItems"] == len(STEPS)
    assert batch.kwargs["max_tokens"] == 16 + 120 * len(STEPS)  # prompts/actions_packed.toml: 16 + 120 an answer


def test_a_failed_batch_caches_nothing_and_each_action_asks_on_its_own(world, nora, tmp_path):
    """Failure path: the fake model never answers actions_packed (nor action_packed) validly."""
    _settings, maze = world
    llm = facade(town_model(lambda call: None), tmp_path)
    decompose_and_start(nora, maze, llm)
    lines = read_ledger(tmp_path / "ledger.jsonl")
    assert [line["prompt"] for line in lines] == ["task_decomp", "actions_packed"] and lines[-1]["fallback"]
    digest = places_shown(nora)
    assert all(nora.memory.todays_answers().action(d, digest) is None for d in descriptions())

    for description in descriptions():
        address_and_details(nora, maze, description, llm)
    assert prompts_asked(tmp_path)[2:] == ["action_packed"] * len(STEPS)


def test_an_answer_whose_place_is_wrong_is_not_cached_and_its_action_asks_on_its_own(world, nora, tmp_path):
    _settings, maze = world
    places = home_places(nora)
    good = places[0]
    elsewhere = next(p for p in places if p[1] != good[1])  # an object of another room of the house
    wrong = (good[0], good[1], elsewhere[2])
    assert wrong[2] not in nora.s_mem.tree[nora.scratch.living_area.split(":")[0]][good[0]][good[1]]
    chosen = [good, wrong, good, good]
    model = town_model(lambda call: {"actions": [answer(*p, step) for p, step in zip(chosen, STEPS)]})
    llm = facade(model, tmp_path)
    decompose_and_start(nora, maze, llm)
    lines = read_ledger(tmp_path / "ledger.jsonl")
    assert [line["prompt"] for line in lines] == ["task_decomp", "actions_packed"]
    assert not lines[-1]["fallback"] and lines[-1]["attempts"] == 1  # the three good answers are kept

    cache, digest = nora.memory.todays_answers(), places_shown(nora)
    kept = [d for d in descriptions() if cache.action(d, digest) is not None]
    assert kept == [descriptions()[0], descriptions()[2], descriptions()[3]]

    for description in descriptions():
        address_and_details(nora, maze, description, llm)
    assert prompts_asked(tmp_path)[2:] == ["action_packed"], "only the uncached subtask asks on its own"


def test_a_reply_with_no_usable_answer_goes_back_to_the_model_with_what_is_wrong(world, nora, tmp_path):
    _settings, maze = world
    places = home_places(nora)
    good = places[0]
    elsewhere = next(p for p in places if p[1] != good[1])
    wrong = (good[0], good[1], elsewhere[2])
    replies = iter(
        [{"actions": [answer(*wrong, step) for step in STEPS]}, {"actions": [answer(*good, step) for step in STEPS]}]
    )
    model = town_model(lambda call: next(replies))
    llm = facade(model, tmp_path)
    decompose_and_start(nora, maze, llm)
    batch_calls = [c for c in model.calls if c.prompt == "actions_packed"]
    assert len(batch_calls) == 2
    assert f"object {elsewhere[2]!r} is not in {good[1]}" in batch_calls[1].user_text
    digest = places_shown(nora)
    assert all(nora.memory.todays_answers().action(d, digest) is not None for d in descriptions())


def test_a_subtask_answered_today_is_not_asked_again_and_the_rest_are_asked_when_the_next_starts(world, nora, tmp_path):
    _settings, maze = world
    place = home_places(nora)[0]
    cache, digest = nora.memory.todays_answers(), places_shown(nora)
    first = descriptions()[0]
    remember(nora, first, place)
    model = town_model(lambda call: {"actions": [answer(*place, step) for step in STEPS[1:]]})
    llm = facade(model, tmp_path)
    decompose_and_start(nora, maze, llm)
    assert prompts_asked(tmp_path) == ["task_decomp"], "the first subtask has its answer: nothing asked"
    answer_together(nora, maze, 2, llm)
    batch = next(c for c in model.calls if c.prompt == "actions_packed")
    assert batch.schema["properties"]["actions"]["maxItems"] == len(STEPS) - 1
    assert STEPS[0] not in batch.user_text
    assert cache.action(first, digest)["details"]["pronunciatio"] == "🧽"
    answer_together(nora, maze, 3, llm)
    assert prompts_asked(tmp_path) == ["task_decomp", "actions_packed"], "answered: not asked again"


def test_one_unanswered_subtask_takes_the_single_call(world, nora, tmp_path):
    _settings, maze = world
    place = home_places(nora)[0]
    model = town_model(lambda call: {"actions": [answer(*place, step) for step in STEPS[:-1]]})
    llm = facade(model, tmp_path)
    decompose(nora, 1, llm)
    for description in descriptions()[:-1]:
        remember(nora, description, place)
    answer_together(nora, maze, 4, llm)
    address_and_details(nora, maze, descriptions()[-1], llm)
    assert prompts_asked(tmp_path) == ["task_decomp", "action_packed"]


def test_the_faithful_mode_asks_no_batch(world, nora, tmp_path):
    _settings, maze = world
    nora.options = CognitionOptions(packed_actions=False)
    place = home_places(nora)[0]
    model = town_model(lambda call: {"actions": [answer(*place, step) for step in STEPS]})
    decompose_and_start(nora, maze, facade(model, tmp_path))
    assert prompts_asked(tmp_path) == ["task_decomp"]
