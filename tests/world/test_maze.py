"""The maze loader on the original the_ville files (counts from the smallville README)."""

from __future__ import annotations

from reverie.world.maze import Maze


def test_the_ville_loads_with_the_original_counts(the_ville):
    m = the_ville
    assert (m.width, m.height, m.sq_tile_size) == (140, 100, 32)
    assert m.world == "the Ville"
    assert sum(map(sum, m.collision)) == 2064
    assert all(cell in ("0", "32125") for row in m.collision_maze for cell in row)
    spawn_tiles = [(x, y) for y, row in enumerate(m.tiles) for x, t in enumerate(row) if t["spawning_location"]]
    assert len(spawn_tiles) == 40
    spawn_addresses = {a for a in m.address_tiles if a.startswith("<spawn_loc>")}
    assert spawn_addresses == {"<spawn_loc>sp-A", "<spawn_loc>sp-B"}
    assert sum(len(m.address_tiles[a]) for a in spawn_addresses) == 40
    sectors = {a for a in m.address_tiles if a.count(":") == 1}
    assert len(sectors) == 19
    # Stray spaces in the block tables are stripped.
    assert "the Ville:Ryan Park's apartment" in sectors


def test_tile_fields_and_addresses(the_ville):
    tile = the_ville.access_tile((72, 14))
    assert tile["sector"] == "Isabella Rodriguez's apartment"
    assert tile["arena"] == "main room"
    assert tile["game_object"] == "bed"
    assert tile["spawning_location"] == "sp-A"
    assert tile["collision"] is False
    address = "the Ville:Isabella Rodriguez's apartment:main room:bed"
    assert (72, 14) in the_ville.address_tiles[address]
    assert the_ville.get_tile_path((72, 14), "world") == "the Ville"
    assert the_ville.get_tile_path((72, 14), "sector") == "the Ville:Isabella Rodriguez's apartment"
    assert the_ville.get_tile_path((72, 14), "arena") == "the Ville:Isabella Rodriguez's apartment:main room"
    assert the_ville.get_tile_path((72, 14), "game_object") == address


def test_object_tiles_start_with_their_blank_event(the_ville):
    object_tiles = [(x, y) for y, row in enumerate(the_ville.tiles) for x, t in enumerate(row) if t["game_object"]]
    assert len(object_tiles) == 680
    for x, y in object_tiles:
        events = the_ville.access_tile((x, y))["events"]
        assert events == {(the_ville.get_tile_path((x, y), "game_object"), None, None, None)}
    assert not the_ville.access_tile((0, 0))["events"]


def test_nearby_tiles_include_the_last_row_and_column(the_ville):
    corner = the_ville.get_nearby_tiles((139, 99), 2)
    assert (139, 99) in corner and (137, 97) in corner
    assert len(corner) == 9
    middle = the_ville.get_nearby_tiles((50, 50), 3)
    assert len(middle) == 49 and len(set(middle)) == 49
    assert min(middle) == (47, 47) and max(middle) == (53, 53)
    assert len(the_ville.get_nearby_tiles((0, 0), 1)) == 4


def test_event_helpers(smallville_dir):
    m = Maze.load(smallville_dir / "static_dirs" / "assets", "the_ville")
    tile = (72, 14)
    bed = m.get_tile_path(tile, "game_object")
    walk = ("Isabella Rodriguez", "is", "sleeping", "sleeping")
    m.add_event_to_tile(list(walk), tile)
    assert walk in m.access_tile(tile)["events"]
    m.remove_event_from_tile(walk, tile)
    assert walk not in m.access_tile(tile)["events"]
    used = (bed, "is", "used", "the bed is used")
    m.remove_subject_events_from_tile(bed, tile)
    m.add_event_to_tile(used, tile)
    m.turn_event_from_tile_idle(used, tile)
    assert m.access_tile(tile)["events"] == {(bed, None, None, None)}
    m.add_event_to_tile(walk, tile)
    m.remove_subject_events_from_tile(bed, tile)
    assert m.access_tile(tile)["events"] == {walk}
