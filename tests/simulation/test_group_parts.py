"""Within a group of residents who see each other, when a member's parts of a step may start
(reverie/simulation/group_step.py): its first part once nobody before it can still write it, its
second part beside an earlier member's when neither can touch the other this step."""

from __future__ import annotations

from types import SimpleNamespace

from reverie.persona.step import Retrieved, StartedMove, StepContext
from reverie.simulation.group_step import may_finish, may_start, reaches

GROUP = ["Ann", "Ben", "Cal"]


def test_a_second_part_starts_beside_an_earlier_members_when_neither_touches_the_other():
    reach = {"Ann": frozenset(), "Ben": frozenset(), "Cal": frozenset()}
    assert may_finish("Ben", GROUP, reach=reach, done=set())
    assert may_finish("Cal", GROUP, reach=reach, done=set())


def test_a_second_part_waits_for_an_earlier_member_it_touches_or_that_touches_it_or_a_third_both_touch():
    # Ann may talk to Ben (she perceived him anew): Ben's second part waits for her whole step.
    reach = {"Ann": frozenset({"Ben"}), "Ben": frozenset(), "Cal": frozenset()}
    assert not may_finish("Ben", GROUP, reach=reach, done=set())
    assert may_finish("Ben", GROUP, reach=reach, done={"Ann"})
    assert may_finish("Cal", GROUP, reach=reach, done=set())  # Cal and the two: neither touches
    # Ann and Cal may both talk to Ben: Cal waits for Ann, who goes first in the step loop.
    reach = {"Ann": frozenset({"Ben"}), "Ben": frozenset(), "Cal": frozenset({"Ben"})}
    assert not may_finish("Cal", GROUP, reach=reach, done={"Ben"})
    assert may_finish("Cal", GROUP, reach=reach, done={"Ann", "Ben"})
    # Cal walks to Ann: Cal's second part reads her, so it waits for her step.
    reach = {"Ann": frozenset(), "Ben": frozenset(), "Cal": frozenset({"Ann"})}
    assert not may_finish("Cal", GROUP, reach=reach, done=set())
    assert may_finish("Cal", GROUP, reach=reach, done={"Ann"})


def test_a_second_part_waits_for_its_own_first_part_and_the_earlier_members_first_parts():
    assert not may_finish("Ben", GROUP, reach={"Ann": frozenset()}, done=set())  # Ben's own not done
    assert not may_finish("Ben", GROUP, reach={"Ben": frozenset()}, done=set())  # Ann's own not done
    assert may_finish("Ann", GROUP, reach={"Ann": frozenset()}, done=set())


def test_a_first_part_starts_once_nobody_before_it_can_write_it():
    assert may_start("Ann", GROUP, alone=False, reach={}, done=set())  # the first member
    assert may_start("Cal", GROUP, alone=True, reach={}, done=set())  # alone: at once
    assert not may_start("Ben", GROUP, alone=False, reach={}, done=set())  # Ann's own part not done
    assert may_start("Ben", GROUP, alone=False, reach={"Ann": frozenset({"Cal"})}, done=set())
    assert not may_start("Ben", GROUP, alone=False, reach={"Ann": frozenset({"Ben"})}, done=set())
    assert may_start("Ben", GROUP, alone=False, reach={"Ann": frozenset({"Ben"})}, done={"Ann"})


def event_of(subject: str) -> dict:
    return {"curr_event": SimpleNamespace(subject=subject), "events": [], "thoughts": []}


def test_a_member_reaches_the_residents_it_perceived_anew_its_partner_and_the_one_it_walks_to():
    def started(*subjects: str) -> StartedMove:
        ctx = StepContext(maze=None, llm=None, rng=None)  # type: ignore[arg-type]
        by_event = {f"{s} is here": event_of(s) for s in subjects}
        return StartedMove(ctx.having(Retrieved(by_event)))

    def ann(chatting_with=None, act_address="the_ville:cafe:counter"):
        return SimpleNamespace(
            name="Ann", scratch=SimpleNamespace(chatting_with=chatting_with, act_address=act_address)
        )

    names = ["Ann", "Ben", "Cal", "Dee"]
    assert reaches(ann(), started("Ben", "the_ville:cafe:counter", "Ann"), names) == {"Ben"}
    assert reaches(ann(chatting_with="Cal"), started(), names) == {"Cal"}
    assert reaches(ann(act_address="<persona> Dee"), started(), names) == {"Dee"}
    assert reaches(ann(), started("Eve"), names) == frozenset()  # not a member of the group
