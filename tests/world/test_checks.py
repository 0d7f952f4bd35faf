"""The world checks find real problems, on any world."""

from __future__ import annotations

from reverie.world import checks
from reverie.world.maze import Maze


def test_the_original_world_and_personas_pass(smallville_dir):
    assets = smallville_dir / "static_dirs" / "assets"
    assert checks.check_simulation(assets, smallville_dir / "storage", "base_the_ville_isabella_maria_klaus") == []


def test_a_walled_in_arena_is_reported(generated):
    maze = Maze.load(generated[0], "willow_creek")
    cafe = "Willow Creek:Willow Bean Cafe:cafe"
    # Brick up the cafe's front door (the door tile is the only cafe sector tile on its bottom wall that is free).
    door = next(
        (x, y)
        for (x, y) in maze.address_tiles["Willow Creek:Willow Bean Cafe"]
        if not maze.collision[y][x]
        and maze.collision[y][x - 1]
        and maze.collision[y][x + 1]
        and y == max(t[1] for t in maze.address_tiles["Willow Creek:Willow Bean Cafe"])
    )
    maze.collision[door[1]][door[0]] = True
    problems = checks.check_maze(maze)
    assert any(f"arena '{cafe}' cannot be reached" in p for p in problems)


def test_object_on_a_collision_and_unknown_places_are_reported(generated):
    maze = Maze.load(generated[0], "willow_creek")
    x, y = next(iter(maze.address_tiles["Willow Creek:Nora Bennett's house:bedroom:bed"]))
    maze.collision[y][x] = True
    maze.access_tile((x, y))["collision"] = True
    assert any("is a collision tile" in p for p in checks.check_maze(maze))
    problems = checks.check_persona(
        maze,
        "Nora Bennett",
        {"living_area": "Willow Creek:Nora Bennett's house:attic"},
        {"Willow Creek": {"Willow Bean Cafe": {"cafe": ["piano"]}}},
    )
    assert len(problems) == 2
    assert "living area" in problems[0] and "piano" in problems[1]
