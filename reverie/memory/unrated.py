"""New memories whose poignancy is still to be asked (ours; the original asks it on storing).

A persona's new events and thoughts wait here, with a provisional score, until something
reads their scores (``reverie/persona/ratings.py`` says when); then they are rated together.
The list is saved beside the persona's memory (``bootstrap_memory/unrated.json``), so a run
resumed from a save asks them as the uninterrupted run would have.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

from reverie.jsonio import write_json_atomic

UNRATED_FILE = "unrated.json"

log = logging.getLogger(__name__)


@dataclass
class Unrated:
    """Node id → the text its poignancy is judged on, oldest first."""

    texts: dict[str, str] = field(default_factory=dict)

    def add(self, node_id: str, text: str) -> None:
        self.texts[node_id] = text

    def take(self) -> dict[str, str]:
        """All waiting memories, oldest first; the list is empty afterwards."""
        taken, self.texts = self.texts, {}
        return taken

    def __len__(self) -> int:
        return len(self.texts)

    # -- files ---------------------------------------------------------------------------
    @classmethod
    def load(cls, path: Path) -> Unrated:
        """The saved list; none when the file is missing. An unreadable file is logged: its
        memories keep their provisional scores."""
        path = Path(path)
        if not path.is_file():
            return cls()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(texts={str(k): str(v) for k, v in dict(data).items()})
        except (OSError, ValueError, TypeError) as exc:
            log.warning("%s is unreadable (%s): its memories keep their provisional poignancy", path, exc)
            return cls()

    def save(self, path: Path) -> None:
        path = Path(path)
        if self.texts:
            write_json_atomic(path, self.texts, indent=1)
        else:
            path.unlink(missing_ok=True)
