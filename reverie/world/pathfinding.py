"""Shortest paths on the collision grid: breadth-first search, 4 neighbours.

The path is the one the original path finder returns when it finds the target (it walks
back from the end preferring up, left, down, right), but with no cap on the distance and
one pass over the grid instead of one full scan per wave.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from reverie.engine_time import timed
from reverie.world.maze import Maze, Tile

# The 4 neighbours a resident steps to, in the original's back-tracking preference: up, left, down, right.
NEIGHBOURS = ((0, -1), (-1, 0), (0, 1), (1, 0))


def distances(maze: Maze, start: Tile, stop: Tile | None = None) -> dict[Tile, int]:
    """Steps from ``start`` to every reachable free tile (stops early once ``stop`` is found)."""
    return distances_from(maze, [start], stop)


def distances_from(maze: Maze, starts: Iterable[Tile], stop: Tile | None = None) -> dict[Tile, int]:
    """Steps from the nearest of ``starts`` to every reachable free tile (stops early once ``stop`` is found)."""
    blocked, width, height = maze.collision, maze.width, maze.height
    dist = {(start[0], start[1]): 0 for start in starts}
    queue = deque(dist)
    while queue:
        x, y = queue.popleft()
        d = dist[(x, y)] + 1
        for dx, dy in NEIGHBOURS:
            nx, ny = x + dx, y + dy
            if 0 <= nx < width and 0 <= ny < height and not blocked[ny][nx] and (nx, ny) not in dist:
                dist[(nx, ny)] = d
                if (nx, ny) == stop:
                    return dist
                queue.append((nx, ny))
    return dist


def find_path(maze: Maze, start: Tile, end: Tile) -> list[Tile]:
    """Tiles from start to end, both included; [] when end cannot be reached."""
    with timed("path finding"):
        return _find_path(maze, start, end)


def _find_path(maze: Maze, start: Tile, end: Tile) -> list[Tile]:
    start, end = (int(start[0]), int(start[1])), (int(end[0]), int(end[1]))
    if start == end:
        return [start]
    dist = distances(maze, start, stop=end)
    if end not in dist:
        return []
    path = [end]
    x, y = end
    k = dist[end]
    while k > 0:
        for dx, dy in NEIGHBOURS:
            step = (x + dx, y + dy)
            if dist.get(step) == k - 1:
                x, y = step
                break
        path.append((x, y))
        k -= 1
    path.reverse()
    return path
