"""The default world written by our generator: deterministic, complete, and sound."""

from __future__ import annotations

import csv
import hashlib
import json
import shutil
import subprocess

import pytest
from PIL import Image

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.world import checks
from reverie.worldgen.generate import generate
from reverie.world.maze import Maze
from reverie.worldgen.personas_data import PERSONAS


def _tree(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _pixels(path):
    with Image.open(path) as img:
        return img.mode, img.size, img.tobytes()


def test_generator_is_deterministic(tmp_path, generated):
    generate(tmp_path / "assets", tmp_path / "storage")
    for first, second in zip(generated, (tmp_path / "assets", tmp_path / "storage")):
        assert _tree(first) == _tree(second)


def test_shipped_files_are_what_the_generator_writes(generated):
    """The committed default world is up to date with the code that makes it."""
    settings = load_settings(PROJECT_ROOT / "config.toml", check_files=False)
    assets, storage = generated
    for fresh_root, shipped_root in ((assets, settings.paths.assets), (storage, settings.paths.storage)):
        for rel, data in _tree(fresh_root).items():
            shipped = shipped_root / rel
            assert shipped.is_file(), f"{rel} is not shipped: run python -m reverie.worldgen.generate"
            if rel.endswith(".png"):  # compare pixels: another zlib may pack the same image differently
                assert _pixels(shipped) == _pixels(fresh_root / rel), f"{rel} is stale: regenerate the world"
            else:
                assert shipped.read_bytes() == data, f"{rel} is stale: run python -m reverie.worldgen.generate"


def test_no_file_is_a_copy_of_the_original(generated, smallville_dir):
    original = {line.split()[0] for line in (smallville_dir / "SHA256SUMS").read_text().splitlines() if line.strip()}
    for root in generated:
        for path in root.rglob("*"):
            if path.is_file():
                assert hashlib.sha256(path.read_bytes()).hexdigest() not in original, path


def test_world_passes_the_checks(generated):
    assets, storage = generated
    assert checks.check_simulation(assets, storage, "base_willow_creek") == []


def test_world_has_the_places_a_town_needs(generated):
    maze = Maze.load(generated[0], "willow_creek")
    assert (maze.width, maze.height) == (60, 45)
    sectors = {a.split(":")[1] for a in maze.address_tiles if a.count(":") == 1}
    homes = {s for s in sectors if s.endswith("'s house")}
    assert len(homes) >= 3
    assert {"Willow Bean Cafe", "Creek Corner Shop", "Willow Creek Park", "Willow Creek Town Hall"} <= sectors
    objects = {a.rsplit(":", 1)[1] for a in maze.address_tiles if a.count(":") == 3}
    assert {"bed", "desk", "stove", "cafe counter", "shop counter", "park bench", "office desk"} <= objects
    assert sum(map(sum, maze.collision)) > 300
    # Walls, water and furniture block; object tiles never do.
    for y, row in enumerate(maze.tiles):
        for x, tile in enumerate(row):
            if tile["game_object"]:
                assert not tile["collision"], (x, y)
    spawns = maze.address_tiles["<spawn_loc>sp-A"] | maze.address_tiles["<spawn_loc>sp-B"]
    assert len(spawns) == 6


def test_tiled_map_matches_the_matrix(generated):
    visuals = generated[0] / "willow_creek" / "visuals"
    data = json.loads((visuals / "willow_creek.json").read_text())
    assert data["orientation"] == "orthogonal" and data["tilewidth"] == 32
    names = [layer["name"] for layer in data["layers"]]
    for name in (
        "Bottom Ground",
        "Wall",
        "Interior Furniture L2 ",
        "Foreground L1",
        "Collisions",
        "Object Interaction Blocks",
        "Arena Blocks",
        "Sector Blocks",
        "Spawning Blocks",
    ):
        assert name in names
    hidden = {layer["name"] for layer in data["layers"] if not layer["visible"]}
    assert {"Arena Blocks", "Sector Blocks", "World Blocks", "Spawning Blocks", "Special Blocks Registry"} <= hidden
    top = 0
    for ts in data["tilesets"]:
        img = Image.open(visuals / ts["image"])
        assert img.size == (ts["imagewidth"], ts["imageheight"])
        assert ts["tilecount"] == (img.width // 32) * (img.height // 32)
        top = max(top, ts["firstgid"] + ts["tilecount"])
    assert all(0 <= gid < top for layer in data["layers"] for gid in layer["data"])
    collisions = next(layer["data"] for layer in data["layers"] if layer["name"] == "Collisions")
    matrix = generated[0] / "willow_creek" / "matrix" / "maze" / "collision_maze.csv"
    assert [int(v) for v in matrix.read_text().split(", ")] == collisions
    assert not matrix.read_text().endswith("\n")


def test_characters_and_bubble(generated):
    assets = generated[0]
    atlas = json.loads((assets / "characters" / "atlas.json").read_text())
    frames = {f["filename"]: f["frame"] for f in atlas["frames"]}
    assert len(frames) == 20
    assert frames["down"] == {"w": 32, "h": 32, "x": 32, "y": 0}
    assert frames["up-walk.003"] == {"w": 32, "h": 32, "x": 32, "y": 96}
    for p in PERSONAS:
        file = p.name.replace(" ", "_") + ".png"
        sheet = Image.open(assets / "characters" / file)
        assert sheet.size == (96, 128) and sheet.mode == "RGBA"
        assert Image.open(assets / "characters" / "profile" / file).size == (32, 32)
    assert Image.open(assets / "speech_bubble" / "v3.png").mode == "RGBA"


def test_base_simulation_layout(generated):
    assets, storage = generated
    sim = storage / "base_willow_creek"
    meta = json.loads((sim / "reverie" / "meta.json").read_text())
    assert meta["maze_name"] == "willow_creek" and meta["sec_per_step"] == 10 and meta["step"] == 0
    assert meta["start_date"] == "February 13, 2023"
    assert meta["persona_names"] == [p.name for p in PERSONAS]
    env = json.loads((sim / "environment" / "0.json").read_text())
    maze = Maze.load(assets, "willow_creek")
    for name in meta["persona_names"]:
        mem = sim / "personas" / name / "bootstrap_memory"
        scratch = json.loads((mem / "scratch.json").read_text())
        assert len(scratch) == 47 and scratch["name"] == name
        assert len(name.split()) == 2
        tile = (env[name]["x"], env[name]["y"])
        assert maze.get_tile_path(tile, "arena") == scratch["living_area"]
        assert json.loads((mem / "associative_memory" / "nodes.json").read_text()) == {}
        assert json.loads((mem / "associative_memory" / "kw_strength.json").read_text()) == {
            "kw_strength_event": {},
            "kw_strength_thought": {},
        }
    with open(assets / "willow_creek" / "agent_history_init_n3.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["Name", "Whisper"]
    assert {r[0] for r in rows[1:]} == set(meta["persona_names"])
    assert all(len(r[1].split(";")) >= 2 for r in rows[1:])


def test_gitignore_tracks_our_sprites_and_ignores_imported_ones():
    if shutil.which("git") is None or not (PROJECT_ROOT / ".git").exists():
        pytest.skip("needs a git checkout")
    assets = "environment/frontend_server/static_dirs/assets"

    def ignored(rel):
        return subprocess.run(["git", "check-ignore", "-q", "--no-index", rel], cwd=PROJECT_ROOT).returncode == 0

    for p in PERSONAS:
        file = p.name.replace(" ", "_") + ".png"
        assert not ignored(f"{assets}/characters/{file}") and not ignored(f"{assets}/characters/profile/{file}")
    assert not ignored(f"{assets}/characters/atlas.json") and not ignored(f"{assets}/speech_bubble/v3.png")
    assert not ignored(f"{assets}/willow_creek/visuals/willow_creek.json")
    assert not ignored("environment/frontend_server/storage/base_willow_creek/reverie/meta.json")
    for imported in (
        "characters/Klaus_Mueller.png",
        "characters/profile/Klaus_Mueller.png",
        "speech_bubble/v1.png",
        "the_ville/matrix/maze_meta_info.json",
    ):
        assert ignored(f"{assets}/{imported}")
    assert ignored("environment/frontend_server/storage/base_the_ville_isabella_maria_klaus/reverie/meta.json")
