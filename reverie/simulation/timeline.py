"""``timeline.md`` beside a run: who did what, when, and every conversation."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from reverie.errors import naming


class Timeline:
    """Appends a line when an agent's action changes and the transcript of each new chat."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.last: dict[str, str] = {}
        self.chats_seen: set[str] = set()
        self.day: str | None = None

    def _append(self, text: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        new = not self.path.exists()
        with naming(self.path), open(self.path, "a", encoding="utf-8") as fh:
            if new:
                fh.write(f"# Timeline of {self.path.parent.name}\n\n")
            fh.write(text)
            fh.flush()

    def note(self, text: str) -> None:
        self._append(f"\n*{text}*\n\n")

    def record(self, step: int, when: datetime, movements: dict) -> None:
        lines = []
        day = when.strftime("%A %B %d, %Y")
        if day != self.day:
            self.day = day
            lines.append(f"\n## {day}\n\n")
        clock = when.strftime("%H:%M:%S")
        for name, move in movements.items():
            description = move.get("description") or ""
            if self.last.get(name) != description:
                self.last[name] = description
                lines.append(f"- {clock} (step {step}) **{name}** {move.get('pronunciatio') or ''}: {description}\n")
            chat = move.get("chat")
            if chat:
                key = repr(chat)
                if key not in self.chats_seen:
                    self.chats_seen.add(key)
                    lines.append(f"\n  Conversation at {clock} (step {step}):\n\n")
                    lines.extend(f"  > **{speaker}**: {utterance}\n" for speaker, utterance in chat)
                    lines.append("\n")
        if lines:
            self._append("".join(lines))
