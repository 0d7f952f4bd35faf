"""Execute: turn the planned address into a path and take one tile of it (docs/LOOP.md §8)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from reverie.address import Address, PersonaAt, Place, WaitingAt, movement_text
from reverie.memory.scratch import Tile
from reverie.persona.agent import Agent
from reverie.persona.step import Moved, Planned, StepContext
from reverie.world.pathfinding import find_path

if TYPE_CHECKING:
    from reverie.world.maze import Maze


def execute(persona: Agent, ctx: StepContext) -> Moved:
    """Take one tile of the path to the planned address: the tile, the emoji and "<description> @ <address>"."""
    s = persona.scratch
    plan_address = ctx.result(Planned).address
    if isinstance(plan_address, Place) and plan_address.is_random and not s.planned_path:
        s.replan_path()  # wander: a new random tile of the arena on every arrival

    if not s.act_path_set:
        targets = target_tiles(persona, ctx, plan_address)
        taken = ctx.occupied or (lambda tile: occupied(ctx.maze, tile, ctx.personas))
        s.set_path(shortest_path_to_any(ctx.maze, s.here(), targets, taken, ctx.rng))

    next_tile = s.next_tile()
    return Moved(next_tile, s.act_pronunciatio, movement_text(s.act_description, s.act_address))


def target_tiles(persona: Agent, ctx: StepContext, address: Address) -> list[Tile]:
    s, maze = persona.scratch, ctx.maze
    here = s.here()
    if isinstance(address, PersonaAt):
        other = ctx.personas.get(address.name)
        if other is None:
            return [here]
        path = find_path(maze, here, other.scratch.here())  # find_path's tiles are tuples already
        if len(path) <= 2:
            return [path[0] if path else here]
        # Both partners walk toward the middle of the path between them.
        mid_a, mid_b = path[len(path) // 2], path[len(path) // 2 + 1]
        return [min((mid_a, mid_b), key=lambda t: len(find_path(maze, here, t)) or 10**9)]
    if isinstance(address, WaitingAt):
        return [address.tile or here]
    if address.is_random:
        tiles = sorted(t for t in known_tiles(maze, address.arena, s.living_area) if not maze.is_blocked(t))
        return [ctx.rng.choice(tiles)] if tiles else [here]
    return sorted(known_tiles(maze, address.text, s.living_area) or [here])


def known_tiles(maze: Maze, address: str, living_area: str | None) -> set:
    """Tiles of ``address``; an invented place falls back to its nearest known parent."""
    # A model-invented address never stops the step (docs/FIDELITY.md).
    for candidate in Place(address).widening():
        tiles = maze.address_tiles.get(candidate)
        if tiles:
            return set(tiles)
    if living_area and maze.address_tiles.get(living_area):
        return set(maze.address_tiles[living_area])
    return set()


def occupied(maze: Maze, tile: Tile, personas: Mapping[str, Agent]) -> bool:
    x, y = tile
    return any(event[0] in personas for event in maze.tiles[y][x]["events"])


def shortest_path_to_any(
    maze: Maze, start: Tile, targets: list[Tile], taken: Callable[[Tile], bool], rng: random.Random
) -> list[Tile]:
    """Path (without the start tile) to the nearest of up to 4 sampled targets, preferably
    free ones (``taken``: whether a persona stands on a tile now)."""
    if not targets:
        return []
    sample = rng.sample(targets, min(4, len(targets)))
    free = [t for t in sample if not taken(t)]
    best = None
    for target in free or sample:
        path = find_path(maze, start, target)
        if path and (best is None or len(path) < len(best)):
            best = path
    return (best or [])[1:]  # find_path's tiles are tuples
