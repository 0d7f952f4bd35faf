"""What the Phaser page needs to draw a maze: read from the Tiled map file itself.

The map is the Tiled JSON in <assets>/<maze>/visuals/; tileset images and layer names
come from that file, so any maze exported the same way works (our default world and
the original "the_ville").
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from django.urls import reverse

from translator.sources import NotFound, maze_names, paths, underscore

# Layers that carry simulation data (collision, block ids), not art.
TECHNICAL_LAYER = re.compile(r"collision|block|registry", re.IGNORECASE)
FOREGROUND_LAYER = re.compile(r"^foreground", re.IGNORECASE)


def asset_url(path: Path) -> str:
    rel = path.resolve().relative_to(paths().assets.resolve())
    return reverse("asset", kwargs={"relpath": rel.as_posix()})


def _is_tiled_map(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if isinstance(data, dict) and isinstance(data.get("layers"), list) and isinstance(data.get("tilesets"), list):
        return data
    return None


@lru_cache(maxsize=8)
def _map_summary(path_str: str, stamp: int) -> dict:
    path = Path(path_str)
    data = _is_tiled_map(path)
    if data is None:
        raise NotFound(f"{path.name} is not a Tiled map.")
    visuals = path.parent
    root = paths().assets.resolve()
    tilesets = []
    largest = 0
    for ts in data["tilesets"]:
        image = ts.get("image")
        name = ts.get("name")
        if not isinstance(image, str) or not isinstance(name, str):
            continue  # external (.tsx) tilesets are not supported by Phaser's loader
        img = (visuals / image).resolve()
        if img.is_file() and img.is_relative_to(root):
            tilesets.append({"name": name, "key": f"tiles_{len(tilesets)}", "url": asset_url(img)})
            largest = max(largest, *(int(ts.get(k) or 0) for k in ("imagewidth", "imageheight")))
    layers = []
    collision = next(
        (
            layer.get("name")
            for layer in data["layers"]
            if layer.get("type") == "tilelayer" and re.search("collision", layer.get("name", ""), re.I)
        ),
        None,
    )
    for layer in data["layers"]:
        if layer.get("type") != "tilelayer" or not layer.get("visible", True):
            continue
        name = layer.get("name", "")
        if TECHNICAL_LAYER.search(name):
            continue
        layers.append({"name": name, "depth": 2 if FOREGROUND_LAYER.match(name) else 0})
    return {
        "map_url": asset_url(path),
        "tile_size": int(data.get("tilewidth", 32)),
        "width": int(data.get("width", 0)),
        "height": int(data.get("height", 0)),
        "tilesets": tilesets,
        "layers": layers,
        "collision_layer": collision,
        # WebGL cannot hold textures above its size limit; the page then draws with Canvas.
        "largest_image": largest,
    }


def find_map(maze: str) -> Path:
    """The Tiled map of a maze: the map JSON in visuals/ (one named after the maze first)."""
    if maze not in maze_names():
        raise NotFound(
            f"The maze '{maze}' is not in the assets folder. Generate or import it "
            "(python -m reverie assets) before opening this page."
        )
    visuals = paths().assets / maze / "visuals"
    candidates = sorted(p for p in visuals.glob("*.json") if p.is_file())
    candidates.sort(key=lambda p: (not p.name.startswith(maze), p.name))
    for path in candidates:
        if _is_tiled_map(path) is not None:
            return path
    raise NotFound(f"No Tiled map (.json) was found in {maze}/visuals.")


def map_config(maze: str) -> dict:
    path = find_map(maze)
    return dict(_map_summary(str(path), path.stat().st_mtime_ns), maze=maze)


def sprite_urls(names: list[str]) -> dict[str, str]:
    """{underscore name: sprite sheet URL}; a persona without its own sheet borrows one."""
    chars = paths().assets / "characters"
    sheets = sorted(p for p in chars.glob("*.png") if p.is_file()) if chars.is_dir() else []
    out = {}
    for i, name in enumerate(names):
        own = chars / f"{underscore(name)}.png"
        if own.is_file():
            out[underscore(name)] = asset_url(own)
        elif sheets:
            out[underscore(name)] = asset_url(sheets[i % len(sheets)])
    return out


def optional_asset(*parts: str) -> str | None:
    path = paths().assets.joinpath(*parts)
    return asset_url(path) if path.is_file() else None


def game_config(maze: str, names: list[str]) -> dict:
    """Everything the page's scene loads, as one JSON object."""
    cfg = map_config(maze)
    cfg["sprites"] = sprite_urls(names)
    cfg["atlas_url"] = optional_asset("characters", "atlas.json")
    cfg["bubble_url"] = optional_asset("speech_bubble", "v3.png")
    return cfg


def profile_url(name: str) -> str | None:
    return optional_asset("characters", "profile", f"{underscore(name)}.png")
