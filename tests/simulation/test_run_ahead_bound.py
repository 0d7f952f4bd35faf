"""Who may run ahead: a resident next door behind a wall is as far as its walk into one's arena,
not as near as the straight line. On the original Smallville and on our town.

The scheduler's decision alone (``RunAhead._may_run``) on a real map, with two residents placed by
hand; the byte-for-byte runs in test_run_ahead.py show that the files stay the lockstep run's."""

from __future__ import annotations

import random
from datetime import datetime
from types import SimpleNamespace

import pytest

from reverie.memory.scratch import Scratch
from reverie.persona.sleep import lies_still_until
from reverie.simulation.run_ahead import MARGIN, RunAhead, chebyshev
from reverie.world.arena_walks import ArenaWalks
from reverie.world.maze import Maze

VISION = 4


@pytest.fixture(params=["the_ville", "willow_creek"])
def maze(request, smallville_dir, generated) -> Maze:
    if request.param == "the_ville":
        return Maze.load(smallville_dir / "static_dirs" / "assets", "the_ville")
    return Maze.load(generated[0], "willow_creek")


def neighbours_behind_a_wall(maze: Maze) -> tuple[tuple[int, int], tuple[int, int], int]:
    """A free indoor tile ``a`` and a free tile ``b`` of another arena within sight's straight line
    of it whose walk into ``a``'s arena is longest: (a, b, that walk)."""
    walks, best = ArenaWalks(maze), None
    indoor = [
        (x, y)
        for y in range(maze.height)
        for x in range(maze.width)
        if not maze.collision[y][x] and maze.arena_of((x, y)).split(":")[2]
    ]
    for a in indoor[::5]:  # a sample of the tiles is plenty
        for b in ((a[0] + dx, a[1]) for dx in range(-VISION, VISION + 1)):
            if maze.in_bounds(b) and not maze.is_blocked(b) and maze.arena_of(b) != maze.arena_of(a):
                walk = walks.steps(maze.arena_of(a), b)
                if walk != float("inf") and (best is None or walk > best[2]):
                    best = (a, b, int(walk))
    assert best is not None
    return best


def scheduler(maze: Maze, a, b, ahead: int) -> RunAhead:
    """Resident A standing on ``a`` from step 0 to ``ahead``, resident B on ``b`` at step 0."""
    sim = SimpleNamespace(personas={"A": None, "B": None}, maze=maze)
    run = RunAhead(sim, workers=2)
    run.clock = {"A": ahead, "B": 0}
    stand(run, "A", a, ahead)
    stand(run, "B", b, 0)
    run._links, run._vision, run._still = {"A": set(), "B": set()}, {"A": VISION, "B": VISION}, {}
    return run


def stand(run: RunAhead, name: str, tile, until: int) -> None:
    """``name`` on ``tile`` from step -1 to ``until``, as the scheduler records a step's tiles."""
    run.pos[name], run.runs[name] = {}, []
    for u in range(-1, until + 1):
        run._place_at(name, u, tile)


def test_a_neighbour_behind_a_wall_is_as_far_as_its_walk(maze):
    a, b, walk = neighbours_behind_a_wall(maze)
    assert chebyshev(a, b) <= VISION + MARGIN  # the straight-line bound alone would hold A at B's step
    assert walk > MARGIN + 1, "no neighbours behind a wall on this map: the test would not see the bound"
    free = walk - MARGIN - 1  # the last step B cannot have walked into A's arena by
    assert scheduler(maze, a, b, free)._may_run(["A"], free)
    assert not scheduler(maze, a, b, free + 1)._may_run(["A"], free + 1)


def test_residents_in_one_arena_wait_for_each_other(maze):
    """Side by side in one room: A may not run even one step ahead of B."""
    a = next(
        (x, y)
        for y in range(maze.height)
        for x in range(maze.width - 1)
        if not maze.collision[y][x]
        and not maze.collision[y][x + 1]
        and maze.arena_of((x, y)) == maze.arena_of((x + 1, y))
        and maze.arena_of((x, y)).split(":")[2]
    )
    b = (a[0] + 1, a[1])
    assert not scheduler(maze, a, b, 1)._may_run(["A"], 1)


def sleeper(**changes) -> Scratch:
    """Asleep in bed since 22:00 for 9 hours (until 07:00), the path walked."""
    s = Scratch(
        name="B",
        curr_time=datetime(2023, 2, 13, 6, 0),
        act_address="the Ville:B's house:bedroom:bed",
        act_start_time=datetime(2023, 2, 12, 22, 0),
        act_duration=9 * 60,
        act_description="sleeping",
        act_path_set=True,
    )
    for key, value in changes.items():
        setattr(s, key, value)
    return s


def test_a_sleeper_lies_still_until_its_sleep_ends():
    assert lies_still_until(sleeper()) == datetime(2023, 2, 13, 7, 0)
    assert lies_still_until(sleeper(planned_path=[(1, 2)])) is None  # still walking to bed
    assert lies_still_until(sleeper(act_description="reading in bed")) is None  # awake: may react
    assert lies_still_until(sleeper(act_address="the Ville:park:garden:<random>")) is None  # a wander moves
    assert lies_still_until(sleeper(chatting_with="A")) is None


def test_a_sleeper_next_door_lets_a_resident_run_on_until_it_wakes(maze):
    """B sleeps from step 0 until 06:10 (60 steps of 10 s after 06:00): A may run as far ahead as
    B's sleep plus its walk; once B may have woken and walked into A's arena, A waits."""
    a, b, walk = neighbours_behind_a_wall(maze)
    run = scheduler(maze, a, b, 0)
    run.sim.sec_per_step, run.start, run.start_time = 10, 0, datetime(2023, 2, 13, 6, 0)
    run.sim.personas = {"A": None, "B": SimpleNamespace(scratch=sleeper(act_duration=8 * 60 + 10))}
    woken = 60  # the first step whose time is 06:10
    assert run._still_until("B") == woken
    free = woken + walk - MARGIN - 1
    for ahead, may in ((free, True), (free + 1, False)):
        run.clock["A"] = ahead
        stand(run, "A", a, ahead)
        run._still = {"B": run._still_until("B")}
        assert run._may_run(["A"], ahead) is may
    awake = sleeper(act_description="lying awake in bed")
    run.sim.personas["B"] = SimpleNamespace(scratch=awake)
    assert run._still_until("B") == 0


def test_a_walkers_runs_of_tiles_decide_as_each_of_its_steps_would(maze):
    """The bound reads a resident's tiles as runs (one tile held for several steps is checked once,
    at its latest step). On a seeded random walk with pauses, near and far from B, every answer is
    the one the bound's definition gives step by step: some step ``u`` in ``[behind, step]`` whose
    tile is within ``reach + walk`` in a straight line and ``walk + MARGIN`` steps into its arena."""
    rng = random.Random(7)
    free = [(x, y) for y in range(maze.height) for x in range(maze.width) if not maze.is_blocked((x, y))]
    a, b = rng.choice(free), rng.choice(free)
    path, tile = [], a
    while len(path) < 120:
        step = rng.choice([(0, 0)] * 3 + [(1, 0), (-1, 0), (0, 1), (0, -1)])  # pauses make runs
        nxt = (tile[0] + step[0], tile[1] + step[1])
        if maze.in_bounds(nxt) and not maze.is_blocked(nxt):
            tile = nxt
        path.append(tile)
    run = scheduler(maze, path[0], b, 0)
    stand(run, "B", b, len(path))
    run.pos["A"], run.runs["A"] = {}, []
    for u, t in enumerate([path[0], *path], start=-1):
        run._place_at("A", u, t)

    def by_steps(step: int, behind: int, still: int) -> bool:
        reach = VISION + MARGIN
        return any(
            chebyshev(run.pos["A"][u], b) <= reach + max(0, u - still)
            and run.walks.steps(maze.arena_of(run.pos["A"][u]), b) <= max(0, u - still) + MARGIN
            for u in range(behind, step + 1)
        )

    answers = set()
    for _ in range(400):
        behind = rng.randrange(0, 100)
        step = rng.randrange(behind + 1, 120)
        still = rng.choice([behind, behind + rng.randrange(0, 40)])
        expected = by_steps(step, behind, still)
        assert run._could_meet("A", step, "B", behind, still) is expected, (step, behind, still)
        answers.add(expected)
    assert answers == {True, False}, "the walk never came near B, or never left it: the test would see nothing"
