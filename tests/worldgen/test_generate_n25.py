"""The 25-person Willow Creek: the grown map, its residents and its base simulation."""

from __future__ import annotations

import csv
import json
from collections import Counter

from reverie.world import checks
from reverie.world.maze import Maze
from reverie.worldgen.personas_data import PERSONAS
from reverie.worldgen.personas_n25 import PERSONAS_N25, SEEDS

BASE = "base_willow_creek_n25"
MAZE = "willow_creek_n25"


def _meta(storage, sim):
    return json.loads((storage / sim / "reverie" / "meta.json").read_text())


def test_the_grown_town_passes_the_checks(generated):
    """Every persona reaches every place it knows, no spawn is blocked, every table entry has tiles."""
    assets, storage = generated
    assert checks.check_simulation(assets, storage, BASE) == []


def test_the_grown_town_has_homes_and_workplaces_for_25(generated):
    maze = Maze.load(generated[0], MAZE)
    small = Maze.load(generated[0], "willow_creek")
    assert maze.width > small.width and maze.height == small.height
    sectors = {a.split(":")[1] for a in maze.address_tiles if a.count(":") == 1}
    assert {"Willow Creek School", "Willow Creek Library", "Creekside Apartments"} <= sectors
    assert len({s for s in sectors if s.endswith("'s house")}) == 7
    # The small town's part of the map is the same, tile for tile.
    for y in range(small.height):
        for x in range(small.width - 2):  # its east border of trees is now a street
            for layer in ("sector", "arena", "game_object", "spawning_location"):
                assert maze.tiles[y][x][layer] == small.tiles[y][x][layer], (x, y, layer)


def test_25_residents_in_households_with_their_own_beds(generated):
    assets, storage = generated
    meta = _meta(storage, BASE)
    assert meta["maze_name"] == MAZE and len(meta["persona_names"]) == 25 == len(set(meta["persona_names"]))
    assert meta["persona_names"][:3] == [p.name for p in PERSONAS]
    env = json.loads((storage / BASE / "environment" / "0.json").read_text())
    tiles = [(env[n]["x"], env[n]["y"]) for n in meta["persona_names"]]
    assert len(set(tiles)) == 25  # nobody starts on someone else's tile
    maze = Maze.load(assets, MAZE)
    homes = Counter()
    for name in meta["persona_names"]:
        mem = storage / BASE / "personas" / name / "bootstrap_memory"
        scratch = json.loads((mem / "scratch.json").read_text())
        spatial = json.loads((mem / "spatial_memory.json").read_text())["Willow Creek"]
        assert maze.get_tile_path((env[name]["x"], env[name]["y"]), "arena") == scratch["living_area"]
        _, home, room = scratch["living_area"].split(":")
        homes[home] += 1
        assert "bed" in spatial[home][room]
        if home == "Creekside Apartments":  # a flat: one knows one's own room only
            assert list(spatial[home]) == [room] and room == f"{name}'s room"
    assert homes["Creekside Apartments"] == 12
    assert sorted(homes.values()) == [1, 1, 1, 2, 2, 3, 3, 12]


def test_the_three_first_residents_are_the_same_persons(generated):
    """The same persons; only the reflection trigger is the town's size's, as in the original's
    two bases (150 for 3 residents, 250 for 25)."""
    storage = generated[1]
    for p in PERSONAS:
        for file in ("scratch.json", "spatial_memory.json"):
            small = storage / "base_willow_creek" / "personas" / p.name / "bootstrap_memory" / file
            grown = storage / BASE / "personas" / p.name / "bootstrap_memory" / file
            small_data, grown_data = json.loads(small.read_text()), json.loads(grown.read_text())
            if file == "scratch.json":
                assert (small_data["importance_trigger_max"], grown_data["importance_trigger_max"]) == (150, 250)
                for data in (small_data, grown_data):
                    del data["importance_trigger_max"], data["importance_trigger_curr"]
            assert grown_data == small_data


def test_relationships_cross_households(generated):
    """Every newcomer's whispers name someone outside their own household."""
    names = {p.name for p in PERSONAS_N25}
    for p in PERSONAS_N25[3:]:
        named = {n for n in names for w in p.whispers if n in w and n != p.name}
        outside = {n for n in named if n.split()[-1] != p.last_name}
        assert outside, p.name


def test_history_seeds_and_sprites(generated):
    assets, storage = generated
    with open(assets / MAZE / "agent_history_init_n25.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["Name", "Whisper"] and [r[0] for r in rows[1:]] == [p.name for p in PERSONAS_N25]
    seeds = json.loads((storage / BASE / "reverie" / "seeds.json").read_text())
    assert seeds == list(SEEDS) and len(seeds) == 2
    party = next(s for s in seeds if s.get("event"))
    assert party["persona"] == "Nora Bennett" and party["event"]["sector"] == "Willow Bean Cafe"
    assert not (storage / "base_willow_creek" / "reverie" / "seeds.json").exists()
    for p in PERSONAS_N25:
        assert (assets / "characters" / (p.name.replace(" ", "_") + ".png")).is_file()
