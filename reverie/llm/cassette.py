"""Record / replay of raw model replies, so a whole run replays with no model loaded.

A reply is keyed by the prompt name, the rendered conversation (before any cut to the
context window) and the attempt number; :mod:`reverie.llm.cassette_model` is the chat
model that records and replays through it. The file is JSON lines: ``{"key", "prompt", "attempt", "messages",
"reply", "usage", "finish_reason"}``. When the same key occurs several times in a run, the n-th
occurrence replays the n-th recorded reply (the last one once they run out).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from reverie.errors import UserError, naming
from reverie.llm.safe_text import json_line


def message_dicts(messages: list[BaseMessage]) -> list[dict[str, Any]]:
    return [{"role": m.type, "content": m.content} for m in messages]


def call_key(prompt: str, messages: list[BaseMessage], attempt: int) -> str:
    blob = json.dumps([prompt, message_dicts(messages), attempt], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


class CassetteMiss(UserError):
    """Replay was asked for a call that the recording does not hold."""


class Cassette:
    """``mode`` is ``"record"`` (a fresh ``path``, every reply appended) or ``"replay"``."""

    def __init__(self, path: Path, mode: str):
        if mode not in ("record", "replay"):
            raise ValueError(f"cassette mode must be record or replay, not {mode!r}")
        self.path, self.mode = Path(path), mode
        self._replies: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self._seen: dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()
        if mode == "replay":
            self._load()
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text("", encoding="utf-8")  # a recording starts fresh

    @property
    def replaying(self) -> bool:
        return self.mode == "replay"

    def _load(self) -> None:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise UserError(f"{self.path}: cannot read the recorded calls ({exc.strerror or exc})") from None
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                self._replies[item["key"]].append(item)
            except (ValueError, KeyError, TypeError):
                raise UserError(f"{self.path} line {number}: not a recorded call — record the run again") from None

    def replay(self, prompt: str, messages: list[BaseMessage], attempt: int) -> AIMessage:
        key = call_key(prompt, messages, attempt)
        with self._lock:
            recorded = self._replies.get(key)
            if not recorded:
                raise CassetteMiss(
                    f"{self.path}: no recorded reply for prompt '{prompt}' (attempt {attempt}) with these messages — "
                    "the prompt, inputs or settings changed since recording; record again"
                )
            index = min(self._seen[key], len(recorded) - 1)
            self._seen[key] += 1
        item = recorded[index]
        metadata = {"finish_reason": item.get("finish_reason")}
        return AIMessage(content=item["reply"], usage_metadata=item.get("usage"), response_metadata=metadata)

    def record(self, prompt: str, messages: list[BaseMessage], attempt: int, reply: AIMessage) -> None:
        item = {
            "key": call_key(prompt, messages, attempt),
            "prompt": prompt,
            "attempt": attempt,
            "messages": message_dicts(messages),
            "reply": reply.content,
            "usage": dict(reply.usage_metadata) if reply.usage_metadata else None,
            "finish_reason": (reply.response_metadata or {}).get("finish_reason"),
        }
        with self._lock, naming(self.path), self.path.open("a", encoding="utf-8") as fh:
            fh.write(json_line(item) + "\n")
