"""Tilesets assembled on demand: each distinct drawn tile gets the next index."""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image

from reverie.worldgen.art.paint import T, slices

COLUMNS = 16


class TileSet:
    def __init__(self, name: str):
        self.name = name
        self.index: dict[str, int] = {}
        self.images: list[Image.Image] = []

    def ref(self, key: str, draw: Callable[[], Image.Image]) -> tuple[str, int]:
        """The (tileset, index) of a tile, drawing it the first time its key is asked for."""
        if key not in self.index:
            img = draw()
            assert img.size == (T, T), (key, img.size)
            self.index[key] = len(self.images)
            self.images.append(img)
        return self.name, self.index[key]

    def ref_piece(self, key: str, draw: Callable[[], Image.Image]) -> dict[tuple[int, int], tuple[str, int]]:
        """A multi-tile drawing cut into tiles: {(column, row): (tileset, index)}."""
        if f"{key}@0,0" not in self.index:
            for (cx, cy), tile in slices(draw()).items():
                self.ref(f"{key}@{cx},{cy}", _drawn(tile))
        out = {}
        for k, i in self.index.items():
            if k.startswith(f"{key}@"):
                cx, cy = map(int, k.rsplit("@", 1)[1].split(","))
                out[(cx, cy)] = (self.name, i)
        return out

    def image(self) -> Image.Image:
        rows = max(1, -(-len(self.images) // COLUMNS))
        sheet = Image.new("RGBA", (COLUMNS * T, rows * T), (0, 0, 0, 0))
        for i, tile in enumerate(self.images):
            sheet.paste(tile, ((i % COLUMNS) * T, (i // COLUMNS) * T))
        return sheet


def _drawn(tile: Image.Image) -> Callable[[], Image.Image]:
    """A drawing of a tile already drawn."""
    return lambda: tile
