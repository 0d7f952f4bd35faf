"""Render a Tiled JSON map (any world) to one PNG, for looking at a map without a browser.

python -m reverie.worldgen.preview MAP.json OUT.png [--scale 0.5]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from PIL import Image

FLIP_MASK = 0x1FFFFFFF
SKIP = {"Collisions", "Object Interaction Blocks"}


def render(map_path: Path, scale: float = 1.0) -> Image.Image:
    m = json.loads(Path(map_path).read_text(encoding="utf-8"))
    tw, th, w, h = m["tilewidth"], m["tileheight"], m["width"], m["height"]
    sets = []
    for ts in sorted(m["tilesets"], key=lambda t: t["firstgid"]):
        img = Image.open(Path(map_path).parent / ts["image"]).convert("RGBA")
        sets.append((ts["firstgid"], ts["columns"], img))
    cache: dict[int, Image.Image] = {}

    def tile(gid: int) -> Image.Image:
        if gid not in cache:
            first, cols, img = max((s for s in sets if s[0] <= gid), key=lambda s: s[0])
            i = gid - first
            x, y = (i % cols) * tw, (i // cols) * th
            cache[gid] = img.crop((x, y, x + tw, y + th))
        return cache[gid]

    out = Image.new("RGBA", (w * tw, h * th), (0, 0, 0, 255))
    for layer in m["layers"]:
        if layer.get("type") != "tilelayer" or not layer.get("visible", True) or layer["name"] in SKIP:
            continue
        for i, gid in enumerate(layer["data"]):
            gid &= FLIP_MASK
            if gid:
                out.alpha_composite(tile(gid), ((i % w) * tw, (i // w) * th))
    if scale != 1.0:
        out = out.resize((int(out.width * scale), int(out.height * scale)), Image.NEAREST)
    return out


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m reverie.worldgen.preview`` (also read by the docs' reference)."""
    parser = argparse.ArgumentParser(prog="python -m reverie.worldgen.preview", description=__doc__.splitlines()[0])
    parser.add_argument(
        "map", help="a Tiled JSON map (the world's map file, such as <assets>/<world>/visuals/<world>.json)"
    )
    parser.add_argument("out", help="the PNG file to write")
    parser.add_argument(
        "--scale", type=float, default=1.0, help="size of the image against the map's tiles (default 1.0)"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    render(Path(args.map), args.scale).save(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
