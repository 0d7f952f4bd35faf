"""Fewer model calls: sleep needs none, and today's answers are reused for the same question.

Nora Bennett of our base world, with the real world map, the real embedder and the real
LLM facade over a scripted fake chat model that never answers well (a failure path: every
ask ends in its fail-safe). What is checked is how many asks reach the model.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from reverie.address import Place
from reverie.memory import Embedder
from reverie.memory.day_cache import DAY_CACHE_FILE, DayCache
from reverie.memory.event import Event
from reverie.memory.scratch import NewAction
from reverie.persona.options import CognitionOptions
from reverie.persona.perceive import remember_event
from reverie.persona.persona import Persona
from reverie.persona.plan_action import address_and_details
from reverie.persona.ratings import rate_waiting
from reverie.persona.sleep import asleep, is_sleep
from tests.persona.nora import MORNING, NAME, load_nora, world  # noqa: F401 (world: a fixture)
from tests.tasks.planning_support import scripted_llm


@pytest.fixture
def nora(world, tmp_path):
    return load_nora(world[0], tmp_path)


def asks(llm) -> int:
    return sum(row["calls"] for row in llm.ledger.summary().values())


def test_sleep_words():
    assert is_sleep("sleeping") and is_sleep("Sleep") and is_sleep("asleep on the sofa")
    assert not is_sleep("getting ready for bed") and not is_sleep("reading (before sleeping)")
    assert not is_sleep("sleepwalking") and not is_sleep(None)


def test_sleeping_happens_in_ones_own_bed_without_a_model_call(world, nora):
    _settings, maze = world
    llm, _model = scripted_llm("no idea")
    address, details = address_and_details(nora, maze, "sleeping", llm)
    assert asks(llm) == 0
    assert address == Place(f"{nora.scratch.living_area}:bed") and address.text in maze.address_tiles
    assert details.event == Event(NAME, "is", "sleeping") and details.obj_event.subject == "bed"


def test_the_same_action_is_asked_once_a_day_while_the_places_it_was_chosen_from_stay(world, nora):
    _settings, maze = world
    llm, _model = scripted_llm("no idea")
    first = address_and_details(nora, maze, "reading a novel", llm)
    n = asks(llm)
    assert n >= 5  # location and details prompts

    assert address_and_details(nora, maze, "reading a novel", llm) == first
    assert asks(llm) == n, "same description, same day, same places: no new ask"

    address_and_details(nora, maze, "watering the plants", llm)
    assert asks(llm) > n, "another description is asked"
    n = asks(llm)

    world_name, place = next(iter(nora.s_mem.tree)), first[0].text.split(":")
    other_sector = next(sector for sector in nora.s_mem.tree[world_name] if sector != place[1])
    other_arena = next(iter(nora.s_mem.tree[world_name][other_sector]))
    nora.s_mem.tree[world_name][other_sector][other_arena].append("a shelf just found")
    assert address_and_details(nora, maze, "reading a novel", llm) == first
    assert asks(llm) == n, "an object learned in another area: the answer's places are unchanged, no new ask"

    nora.s_mem.tree[world_name][place[1]][place[2]].append("a lamp just found")
    address_and_details(nora, maze, "reading a novel", llm)
    assert asks(llm) > n, "an object learned in the answer's own place: the location is asked again"
    n = asks(llm)

    nora.s_mem.tree[world_name].setdefault("a place just found", {})["hall"] = ["bench"]
    address_and_details(nora, maze, "reading a novel", llm)
    assert asks(llm) > n, "the persona knows a new area: the location is asked again"
    n = asks(llm)

    nora.scratch.curr_time = MORNING + timedelta(days=1)
    address_and_details(nora, maze, "reading a novel", llm)
    assert asks(llm) > n, "a new day: new answers"


def test_someone_elses_house_or_room_learned_asks_nothing_again(world, nora):
    """The location prompts leave other people's houses and rooms out, so learning one changes
    no question: the day's answer stands. A public place learned in the same spots does not."""
    _settings, maze = world
    llm, _model = scripted_llm("no idea")
    first = address_and_details(nora, maze, "reading a novel", llm)
    n = asks(llm)
    world_name, place = next(iter(nora.s_mem.tree)), first[0].text.split(":")
    sectors = nora.s_mem.tree[world_name]

    sectors["Someone else's house"] = {"kitchen": ["stove"]}
    sectors[place[1]]["Someone Else's room"] = ["bed"]
    assert address_and_details(nora, maze, "reading a novel", llm) == first
    assert asks(llm) == n, "another person's house and room are not among the choices: no new ask"

    sectors[place[1]]["a hall just found"] = ["bench"]
    address_and_details(nora, maze, "reading a novel", llm)
    assert asks(llm) > n, "a public arena learned in the answer's own sector: the location is asked again"


def test_a_repeated_perception_is_rated_once_and_nothing_is_rated_in_sleep(world, nora):
    _settings, maze = world
    llm, _model = scripted_llm("no idea")
    args = (Event("Willow Creek:cafe:counter:coffee machine", "is", "brewing"), "coffee machine is brewing coffee")
    remember_event(nora, llm, *args)
    remember_event(nora, llm, *args)
    rate_waiting(nora, llm)
    assert asks(llm) == 1, "the same text waiting twice is asked once"
    remember_event(nora, llm, *args)
    rate_waiting(nora, llm)
    assert asks(llm) == 1, "rated today: its score is taken at once"

    address, details = address_and_details(nora, maze, "sleeping", llm)
    nora.scratch.add_new_action(
        NewAction(
            address=address,
            duration=480,
            description="sleeping",
            pronunciatio=details.pronunciatio,
            event=details.event,
            obj_description=details.obj_description,
            obj_pronunciatio=details.obj_pronunciatio,
            obj_event=details.obj_event,
        )
    )
    assert asleep(nora.scratch)
    node = remember_event(nora, llm, Event("Theo Alvarez", "is", "singing"), "Theo Alvarez is singing loudly")
    rate_waiting(nora, llm)
    assert asks(llm) == 1 and node.poignancy == 1


def test_the_cache_is_saved_with_the_persona_and_survives_a_reload(world, nora, tmp_path):
    settings, maze = world
    llm, _model = scripted_llm("no idea")
    address_and_details(nora, maze, "reading a novel", llm)
    folder = tmp_path / "saved"
    nora.save(folder)
    again = Persona.load(NAME, folder, embedder=Embedder(settings))
    again.scratch.curr_time = MORNING
    n = asks(llm)
    address_and_details(again, maze, "reading a novel", llm)
    assert asks(llm) == n

    (folder / DAY_CACHE_FILE).write_text("{not json", encoding="utf-8")
    assert DayCache.load(folder / DAY_CACHE_FILE) == DayCache(), "an unreadable cache is only a cold cache"


def test_with_reuse_switched_off_every_question_is_asked(world, nora):
    _settings, maze = world
    llm, _model = scripted_llm("no idea")
    nora.options = CognitionOptions(reuse_answers=False)
    address_and_details(nora, maze, "reading a novel", llm)
    n = asks(llm)
    address_and_details(nora, maze, "reading a novel", llm)
    assert asks(llm) == 2 * n
    args = (Event("Willow Creek:cafe:counter:coffee machine", "is", "brewing"), "coffee machine is brewing coffee")
    remember_event(nora, llm, *args)
    rate_waiting(nora, llm)
    remember_event(nora, llm, *args)
    rate_waiting(nora, llm)
    assert asks(llm) == 2 * n + 2
    assert address_and_details(nora, maze, "sleeping", llm)[0].object == "bed" and asks(llm) == 2 * n + 2
