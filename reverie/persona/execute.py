"""Execute: turn the planned address into a path and take one tile of it (LOOP.md §8)."""

from __future__ import annotations

import random

from reverie.world.pathfinding import find_path

PERSONA_TAG = "<persona>"
WAITING_TAG = "<waiting>"
RANDOM_TAG = "<random>"


def execute(persona, maze, personas: dict, plan_address: str, rng: random.Random):
    """Return ``(next_tile, pronunciatio, "<description> @ <address>")`` for this step."""
    s = persona.scratch
    if RANDOM_TAG in (plan_address or "") and not s.planned_path:
        s.act_path_set = False  # wander: a new random tile of the arena on every arrival

    if not s.act_path_set:
        targets = target_tiles(persona, maze, personas, plan_address, rng)
        s.planned_path = [list(t) for t in shortest_path_to_any(maze, tuple(s.curr_tile), targets, personas, rng)]
        s.act_path_set = True

    next_tile = tuple(s.curr_tile)
    if s.planned_path:
        next_tile = tuple(s.planned_path.pop(0))
    description = f"{s.act_description} @ {s.act_address}"
    return next_tile, s.act_pronunciatio, description


def target_tiles(persona, maze, personas: dict, address: str, rng: random.Random) -> list[tuple[int, int]]:
    s = persona.scratch
    here = tuple(s.curr_tile)
    address = address or ""
    if PERSONA_TAG in address:
        other = personas.get(address.split(PERSONA_TAG, 1)[1].strip())
        if other is None:
            return [here]
        path = find_path(maze, here, tuple(other.scratch.curr_tile))
        if len(path) <= 2:
            return [tuple(path[0]) if path else here]
        # Both partners walk toward the middle of the path between them.
        mid_a, mid_b = tuple(path[len(path) // 2]), tuple(path[len(path) // 2 + 1])
        return [min((mid_a, mid_b), key=lambda t: len(find_path(maze, here, t)) or 10**9)]
    if WAITING_TAG in address:
        parts = address.split()
        try:
            return [(int(parts[-2]), int(parts[-1]))]
        except (ValueError, IndexError):
            return [here]
    if RANDOM_TAG in address:
        arena = ":".join(address.split(":")[:-1])
        tiles = sorted(t for t in known_tiles(maze, arena, s.living_area) if not maze.is_blocked(t))
        return [rng.choice(tiles)] if tiles else [here]
    return sorted(known_tiles(maze, address, s.living_area) or [here])


def known_tiles(maze, address: str, living_area: str | None) -> set:
    """Tiles of ``address``; an invented place falls back to its nearest known parent."""
    # Fix: the original raised KeyError on an unknown (model-invented) address and aborted the step.
    candidate = address
    while candidate:
        tiles = maze.address_tiles.get(candidate)
        if tiles:
            return set(tiles)
        if ":" not in candidate:
            break
        candidate = candidate.rsplit(":", 1)[0]
        if candidate.count(":") < 1:  # never fall back to the whole world
            break
    if living_area and maze.address_tiles.get(living_area):
        return set(maze.address_tiles[living_area])
    return set()


def occupied(maze, tile: tuple[int, int], personas: dict) -> bool:
    x, y = tile
    return any(event[0] in personas for event in maze.tiles[y][x]["events"])


def shortest_path_to_any(maze, start: tuple[int, int], targets: list, personas: dict, rng: random.Random) -> list:
    """Path (without the start tile) to the nearest of up to 4 sampled, preferably free, targets."""
    if not targets:
        return []
    sample = rng.sample(targets, min(4, len(targets)))
    free = [t for t in sample if not occupied(maze, t, personas)]
    best = None
    for target in free or sample:
        path = find_path(maze, start, tuple(target))
        if path and (best is None or len(path) < len(best)):
            best = path
    return [tuple(t) for t in (best or [])[1:]]
