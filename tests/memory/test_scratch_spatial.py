"""Scratch helpers (identity, schedule indexes, action end) and spatial memory."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from reverie.address import PersonaAt, Place, WaitingAt, parse_address
from reverie.memory import Scratch, SpatialMemory
from reverie.memory.event import NO_EVENT
from reverie.memory.scratch import NewAction


@pytest.fixture
def isabella(base_personas) -> Scratch:
    scratch = Scratch.load(base_personas["Isabella Rodriguez"] / "scratch.json")
    scratch.curr_time = datetime(2023, 2, 13, 8, 30, 0)
    return scratch


def _action(**changed) -> NewAction:
    """Isabella drinking coffee at the cafe for 5 minutes, with ``changed`` fields."""
    fields = dict(
        address="the Ville:Hobbs Cafe:cafe:cafe customer seating",
        duration=5,
        description="drinking coffee",
        pronunciatio="☕",
        event=["Isabella Rodriguez", "drink", "coffee"],
    )
    return NewAction(**{**fields, **changed})


def test_identity_has_eight_lines(isabella):
    lines = isabella.identity().split("\n")
    assert [line.split(":")[0] for line in lines] == [
        "Name",
        "Age",
        "Innate traits",
        "Learned traits",
        "Currently",
        "Lifestyle",
        "Daily plan requirement",
        "Current Date",
    ]
    assert lines[0] == "Name: Isabella Rodriguez" and lines[1] == "Age: 34"
    assert lines[-1] == "Current Date: Monday February 13"


def test_schedule_indexes(isabella):
    isabella.f_daily_schedule = [["sleeping", 360], ["waking up", 60], ["opening the cafe", 120], ["working", 900]]
    isabella.f_daily_schedule_hourly_org = [["sleeping", 360], ["waking up", 60], ["work", 1020]]
    assert isabella.get_f_daily_schedule_index() == 2  # 08:30 is inside 07:00-09:00
    assert isabella.get_f_daily_schedule_index(advance=60) == 3
    assert isabella.get_f_daily_schedule_hourly_org_index() == 2
    isabella.curr_time = datetime(2023, 2, 13, 7, 0, 0)
    assert isabella.get_f_daily_schedule_index() == 2  # a block ending exactly now is over
    isabella.f_daily_schedule = [["sleeping", 60]]
    assert isabella.get_f_daily_schedule_index() == 1  # past the end
    assert isabella.schedule_start_minutes(1) == 60
    assert isabella.daily_schedule_hourly_org_summary().split("\n")[1] == "06:00 || waking up"


@pytest.mark.parametrize("sec_per_step", [10, 7, 60])
def test_action_finishes_for_any_step_length(isabella, sec_per_step):
    """The original compared HH:MM:SS exactly, so steps that skip the end second never finished."""
    start = datetime(2023, 2, 13, 8, 0, 3)  # seconds -> the action starts at the next whole minute
    isabella.curr_time = start
    isabella.add_new_action(_action(duration=5))
    assert isabella.act_start_time == start and not isabella.act_path_set
    end = datetime(2023, 2, 13, 8, 6, 0)
    now, finished_at = start, None
    while finished_at is None and now < end + timedelta(minutes=5):
        now += timedelta(seconds=sec_per_step)
        isabella.curr_time = now
        if isabella.act_check_finished():
            finished_at = now
    assert finished_at is not None and end <= finished_at < end + timedelta(seconds=sec_per_step)


def test_chat_end_and_no_action(isabella):
    assert isabella.act_check_finished()  # no act_address yet
    isabella.add_new_action(
        _action(
            address="<persona> Klaus Mueller",
            description="chatting with Klaus",
            event=["Isabella Rodriguez", "chat with", "Klaus Mueller"],
            chatting_with="Klaus Mueller",
            chat=[["Isabella Rodriguez", "Hi"]],
            chatting_with_buffer={"Klaus Mueller": 800},
            chatting_end_time=datetime(2023, 2, 13, 8, 32),
        )
    )
    assert isabella.chatting_with_buffer == {"Klaus Mueller": 800}
    assert not isabella.act_check_finished()
    isabella.curr_time = datetime(2023, 2, 13, 8, 32)
    assert isabella.act_check_finished()
    assert isabella.curr_event() == ("Isabella Rodriguez", "chat with", "Klaus Mueller", "chatting with Klaus")
    assert "Activity: Isabella Rodriguez is chatting with Klaus" in isabella.act_summary_str()


def test_subtask_and_time_strings(isabella):
    isabella.act_description = "morning routine (brushing her teeth)"
    isabella.act_start_time = datetime(2023, 2, 13, 6, 5)
    assert isabella.act_subtask() == "brushing her teeth"
    assert isabella.act_time_str() == "06:05 AM"


def test_spatial_lists_strings_and_growth(base_personas, tmp_path):
    spatial = SpatialMemory.load(base_personas["Klaus Mueller"] / "spatial_memory.json")
    assert "Oak Hill College" in spatial.sectors("the Ville")
    assert spatial.arenas("the Ville:Oak Hill College")[:2] == ["hallway", "library"]
    assert spatial.objects("the Ville:Oak Hill College:hallway") == []
    assert (
        spatial.accessible_objects_str("the Ville:Oak Hill College:library") == "library sofa, library table, bookshelf"
    )
    assert spatial.arenas("the Ville:") == [] and spatial.objects("the Ville:Nowhere:room") == []
    studio = {"world": "the Ville", "sector": "Artist's co-living space", "arena": "studio", "game_object": "easel"}
    spatial.add_tile_info(studio)
    spatial.add_tile_info(studio)
    spatial.add_tile_info({"world": "the Ville", "sector": "Town Square", "arena": "", "game_object": ""})
    assert spatial.objects("the Ville:Artist's co-living space:studio") == ["easel"]
    assert spatial.arenas("the Ville:Town Square") == []
    assert spatial.accessible_sectors_str("the Ville").endswith("Hobbs Cafe, Artist's co-living space, Town Square")
    spatial.save(tmp_path / "s.json")
    assert SpatialMemory.load(tmp_path / "s.json").tree == spatial.tree


def test_the_tile_is_a_tuple_in_memory_and_a_list_in_the_file(isabella, tmp_path):
    """curr_tile and the planned path are (x, y) tuples however they are set; scratch.json keeps
    the original's lists, and a saved file loads back equal."""
    isabella.curr_tile = (72, 14)
    isabella.planned_path = [(72, 15), (72, 16)]
    isabella.save(tmp_path / "scratch.json")
    saved = json.loads((tmp_path / "scratch.json").read_text(encoding="utf-8"))
    assert saved["curr_tile"] == [72, 14] and saved["planned_path"] == [[72, 15], [72, 16]]
    again = Scratch.load(tmp_path / "scratch.json")
    assert again.curr_tile == (72, 14) and again.planned_path == [(72, 15), (72, 16)]
    assert again == isabella
    assert Scratch(curr_tile=[3, 4]).curr_tile == (3, 4)


def test_unknown_keys_are_ignored_and_nulls_take_the_defaults():
    s = Scratch.from_json({"name": "Ada", "act_event": None, "daily_req": None, "not_a_field": 1})
    assert s.name == "Ada" and s.act_event == NO_EVENT and s.daily_req == []
    assert s.to_json()["act_event"] == [None, None, None], "written as the original's list"
    assert "not_a_field" not in s.to_json()


def test_the_address_is_parsed(isabella):
    isabella.act_address = "<waiting> 20 14"
    assert isabella.address() == WaitingAt((20, 14)) and str(isabella.address()) == "<waiting> 20 14"
    isabella.act_address = "<persona> Klaus Mueller"
    assert isabella.address() == PersonaAt("Klaus Mueller")
    isabella.act_address = "the Ville:Hobbs Cafe:cafe:<random>"
    place = isabella.address()
    assert isinstance(place, Place) and place.is_random and place.arena == "the Ville:Hobbs Cafe:cafe"
    isabella.act_address = "the Ville:Hobbs Cafe:cafe:piano"
    assert not isabella.address().is_random and isabella.address().object == "piano"
    assert parse_address("<waiting> nowhere") == WaitingAt(None)
    assert parse_address(None) == Place("")
