"""Execute: one tile per step along a shortest path; invented places fall back to known ones."""

import random
from types import SimpleNamespace

import pytest

from reverie.memory import Scratch
from reverie.persona.execute import execute, known_tiles
from reverie.persona.step import Planned, StepContext
from reverie.world.maze import Maze
from reverie.world.pathfinding import find_path

BED = "the Ville:Isabella Rodriguez's apartment:main room:bed"


@pytest.fixture(scope="module")
def maze(smallville_dir):
    return Maze.load(smallville_dir / "static_dirs" / "assets", "the_ville")


def persona(name, tile, address, description="sleeping"):
    scratch = Scratch(
        name=name,
        curr_tile=tile,
        act_address=address,
        act_description=description,
        act_pronunciatio="z",
        living_area="the Ville:Isabella Rodriguez's apartment:main room",
    )
    return SimpleNamespace(name=name, scratch=scratch)


def walk(p, maze, personas, steps):
    tiles = []
    for i in range(steps):
        ctx = StepContext(maze=maze, llm=None, rng=random.Random(i), personas=personas)
        tile, emoji, description = execute(p, ctx.having(Planned(p.scratch.address()))).as_tuple()
        tiles.append(tile)
        p.scratch.move_to(tile)
    return tiles, emoji, description


def test_walks_one_free_tile_per_step_to_the_target(maze):
    p = persona("Isabella Rodriguez", (72, 14), BED)
    tiles, emoji, description = walk(p, maze, {p.name: p}, 40)
    assert description == f"sleeping @ {BED}" and emoji == "z"
    previous = (72, 14)
    for tile in tiles:
        assert abs(tile[0] - previous[0]) + abs(tile[1] - previous[1]) <= 1
        assert not maze.is_blocked(tile)
        previous = tile
    assert tiles[-1] in maze.address_tiles[BED]


def test_an_invented_arena_falls_back_to_its_sector(maze):
    # The original raised KeyError here and aborted the step.
    invented = "the Ville:Hobbs Cafe:rooftop garden:telescope"
    tiles = known_tiles(maze, invented, None)
    assert tiles == maze.address_tiles["the Ville:Hobbs Cafe"]
    p = persona("Isabella Rodriguez", (72, 14), invented)
    walked, _, _ = walk(p, maze, {p.name: p}, 3)
    assert walked[0] != (72, 14)


def test_unknown_world_goes_home(maze):
    p = persona("Isabella Rodriguez", (60, 20), "Atlantis:palace:hall:throne")
    assert known_tiles(maze, p.scratch.act_address, p.scratch.living_area) == maze.address_tiles[p.scratch.living_area]


def test_waiting_stays_and_chat_partners_meet_in_the_middle(maze):
    p = persona("Isabella Rodriguez", (72, 14), "<waiting> 72 14")
    tiles, _, _ = walk(p, maze, {p.name: p}, 2)
    assert tiles == [(72, 14), (72, 14)]

    a = persona("Isabella Rodriguez", (72, 14), "<persona> Maria Lopez")
    b = persona("Maria Lopez", (72, 19), "<persona> Isabella Rodriguez")
    personas = {a.name: a, b.name: b}
    path = find_path(maze, (72, 14), (72, 19))
    ctx = StepContext(maze=maze, llm=None, rng=random.Random(0), personas=personas)
    execute(a, ctx.having(Planned(a.scratch.address())))
    target = tuple(a.scratch.planned_path[-1]) if a.scratch.planned_path else (72, 14)
    assert target in (path[len(path) // 2], path[len(path) // 2 + 1])


def test_random_object_picks_a_tile_of_the_arena(maze):
    arena = "the Ville:Hobbs Cafe:cafe"
    p = persona("Isabella Rodriguez", (72, 14), f"{arena}:<random>")
    walk(p, maze, {p.name: p}, 1)
    assert tuple(p.scratch.planned_path[-1]) in maze.address_tiles[arena]
