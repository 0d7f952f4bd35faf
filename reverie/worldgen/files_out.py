"""Where the generated world's files go: ``generate.Writer`` writes them, the parts that draw and
describe the world only name them."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from PIL import Image


class Out(Protocol):
    def text(self, path: Path, text: str) -> None: ...
    def json(self, path: Path, obj: Any, compact: bool = False) -> None: ...
    def png(self, path: Path, img: Image.Image) -> None: ...
