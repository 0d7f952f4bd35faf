"""Steps into an arena: never more than a resident really walks (the run-ahead bound relies on it),
and through walls far more than the straight line. On the original Smallville and on our town."""

from __future__ import annotations

import math
import random

import pytest

from reverie.world.arena_walks import ArenaWalks
from reverie.world.maze import Maze
from reverie.world.pathfinding import distances


@pytest.fixture(params=["the_ville", "willow_creek"])
def maze(request, the_ville, generated) -> Maze:
    return the_ville if request.param == "the_ville" else Maze.load(generated[0], "willow_creek")


def walked(maze: Maze, start, arena_tiles) -> float:
    """Brute force: the shortest real walk from ``start`` onto a free tile of the arena (paths cross free tiles)."""
    if start in arena_tiles:
        return 0
    reach = distances(maze, start)
    return min((reach[t] for t in arena_tiles if t in reach and not maze.is_blocked(t)), default=math.inf)


def test_steps_are_the_shortest_walk_into_the_arena(maze):
    walks, rng = ArenaWalks(maze), random.Random(7)
    free = [(x, y) for y in range(maze.height) for x in range(maze.width) if not maze.collision[y][x]]
    arenas: dict[str, set] = {}
    for y in range(maze.height):
        for x in range(maze.width):
            arenas.setdefault(maze.arena_of((x, y)), set()).add((x, y))
    indoor = sorted(a for a in arenas if a.split(":")[2])
    blocked = [(x, y) for y in range(maze.height) for x in range(maze.width) if maze.collision[y][x]]
    for arena in rng.sample(indoor, 6):
        for start in rng.sample(free, 20) + rng.sample(blocked, 5):  # a resident may stand on a blocked tile
            assert walks.steps(arena, start) == walked(maze, start, arenas[arena]), (arena, start)


def test_a_wall_makes_the_walk_longer_than_the_line(maze):
    """Next door is close in a straight line and far on foot: some indoor pair of arenas within 6
    tiles of each other lies more than 15 steps apart."""
    walks = ArenaWalks(maze)
    found = False
    for (x, y), arena in ((t, maze.arena_of(t)) for t in _free_indoor(maze)):
        if (x + y) % 7:
            continue  # a sample of the tiles is plenty
        for other in ((x + dx, y) for dx in range(-6, 7)):
            if maze.in_bounds(other) and _indoor(maze.arena_of(other)) and maze.arena_of(other) != arena:
                found = found or walks.steps(arena, other) > 15
    assert found


def test_a_walled_in_arena_cannot_be_walked_into(maze):
    walks = ArenaWalks(maze)
    start = next(iter(_free_indoor(maze)))
    assert walks.steps("no such world:nowhere:void", start) == math.inf


def _indoor(arena: str) -> bool:
    return bool(arena.split(":")[2])


def _free_indoor(maze: Maze):
    for y in range(maze.height):
        for x in range(maze.width):
            if not maze.collision[y][x] and _indoor(maze.arena_of((x, y))):
                yield (x, y)
