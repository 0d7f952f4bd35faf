"""Breadth-first path finding on the collision grid."""

from __future__ import annotations

import time
from types import SimpleNamespace

from reverie.world.pathfinding import distances, find_path


def grid(text: str):
    rows = [r for r in text.strip().splitlines()]
    collision = [[c == "#" for c in r] for r in rows]
    return SimpleNamespace(collision=collision, width=len(rows[0]), height=len(rows))


def assert_walkable(maze, path):
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        assert abs(x0 - x1) + abs(y0 - y1) == 1
    assert not any(maze.collision[y][x] for x, y in path[1:])


def test_path_on_the_ville_is_a_shortest_walk(the_ville):
    start, end = (72, 14), (126, 46)  # Isabella's bed to Klaus's room
    path = find_path(the_ville, start, end)
    assert path[0] == start and path[-1] == end
    assert_walkable(the_ville, path)
    assert len(path) - 1 == distances(the_ville, start)[end]
    assert find_path(the_ville, start, end) == path


def test_long_paths_have_no_round_cap(the_ville):
    start, far = (20, 70), (124, 20)  # Adam Smith's shower to Oak Hill College
    reach = distances(the_ville, start)
    assert reach[far] > 150  # the original gave up after 150 waves
    path = find_path(the_ville, start, far)
    assert len(path) == reach[far] + 1
    assert_walkable(the_ville, path)


def test_whole_map_search_is_fast(the_ville):
    began = time.process_time()
    for _ in range(10):
        distances(the_ville, (72, 14))
    assert (time.process_time() - began) / 10 < 0.5  # CPU seconds: a busy machine does not count


def test_back_tracking_prefers_up_left_down_right():
    maze = grid("""
.....
.....
.....
""")
    # Equal-length walks exist; walking back from the end the original goes up first, then left.
    assert find_path(maze, (0, 0), (2, 2)) == [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]
    assert find_path(maze, (2, 2), (0, 0)) == [(2, 2), (1, 2), (0, 2), (0, 1), (0, 0)]


def test_walls_unreachable_and_trivial_cases():
    maze = grid("""
..#..
..#..
.....
""")
    path = find_path(maze, (0, 0), (4, 0))
    assert path[0] == (0, 0) and path[-1] == (4, 0) and len(path) == 9
    assert_walkable(maze, path)
    assert find_path(maze, (1, 1), (1, 1)) == [(1, 1)]
    assert find_path(maze, (0, 0), (2, 0)) == []  # the end is a wall
    closed = grid("""
..#..
..#..
..#..
""")
    assert find_path(closed, (0, 0), (4, 2)) == []
