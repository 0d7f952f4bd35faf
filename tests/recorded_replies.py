"""The bundled model's replies, recorded once and committed, for tests where the real model
only drives our code (a conversation, 25 residents stepping, whispers rated).

``recorded_llm(settings, "name", ...)`` is an :class:`~reverie.llm.LLM` whose chat model
is the real one (loaded: it counts tokens, so prompts are cut to the window exactly as in the
recorded run) but whose replies come from ``tests/recordings/<name>.jsonl`` while the
conversations match the recording. A call the recording does not hold (a prompt, its inputs
or the code changed since) goes to the real model, with a warning naming the file: the test
still runs on the real model's answers, only slower. Record again with

    REVERIE_RECORD_REPLIES=1 .venv/bin/python -m pytest tests/... -p no:cacheprovider

A recording keeps what replay needs (the call's key, its prompt and attempt, the reply, its
token counts) and leaves out the conversation, so it stays small.
"""

from __future__ import annotations

import json
import os
import threading
import warnings
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from reverie.llm import LLM
from reverie.llm.cassette import call_key
from reverie.llm.cassette_model import CassetteModel, Taped
from reverie.llm.models import build_chat_models
from reverie.llm.safe_text import json_line
from reverie.tasks.registry import product_tasks

RECORDINGS = Path(__file__).resolve().parent / "recordings"
RECORD = "REVERIE_RECORD_REPLIES"


class Replies:
    """One recording: replayed in order per key; calls it lacks are counted (``misses``) and,
    when recording, appended."""

    def __init__(self, path: Path, *, recording: bool):
        self.path, self.recording = path, recording
        self.misses, self.hits = 0, 0
        self._lock = threading.Lock()
        self._replies: dict[str, list[dict]] = {}
        self._seen: dict[str, int] = {}
        if recording:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("", encoding="utf-8")
        elif path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                item = json.loads(line)
                self._replies.setdefault(item["key"], []).append(item)

    def replay(self, key: str) -> dict | None:
        with self._lock:
            recorded = self._replies.get(key)
            if not recorded:
                return None
            index = min(self._seen.get(key, 0), len(recorded) - 1)
            self._seen[key] = self._seen.get(key, 0) + 1
            self.hits += 1
            return recorded[index]

    def missed(self, taped: Taped, item: dict) -> None:
        with self._lock:
            self.misses += 1
            if self.recording:
                with self.path.open("a", encoding="utf-8") as fh:
                    fh.write(json_line(item) + "\n")
            elif self.misses == 1:
                warnings.warn(
                    f"{self.path.name}: no recorded reply for prompt '{taped.prompt}' (attempt "
                    f"{taped.attempt}); this and later calls go to the bundled model — record again "
                    f"with {RECORD}=1",
                    stacklevel=1,
                )


class RecordedModel(CassetteModel):
    """The real chat model (``inner``), answering from ``replies`` where they hold the call."""

    replies: Any  # Replies

    @property
    def _llm_type(self) -> str:
        return "recorded-replies"

    @property
    def replaying(self) -> bool:
        return False  # the chain cuts prompts to the window with the real tokenizer, as when recording

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        taped: Taped | None = kwargs.pop("taped", None)
        if taped is None:
            raise ValueError("a recorded model needs each call's prompt and attempt (the keyword taped)")
        key = call_key(taped.prompt, list(taped.conversation), taped.attempt)
        item = None if self.replies.recording else self.replies.replay(key)
        if item is not None:
            message = AIMessage(
                content=item["reply"],
                usage_metadata=item.get("usage"),
                response_metadata={"finish_reason": item.get("finish_reason")},
            )
            return ChatResult(generations=[ChatGeneration(message=message)])
        result = self.inner._generate(messages, stop=stop, run_manager=run_manager, **kwargs)
        generation = result.generations[0]
        metadata = {**(generation.generation_info or {}), **generation.message.response_metadata}
        usage = generation.message.usage_metadata
        self.replies.missed(
            taped,
            {
                "key": key,
                "prompt": taped.prompt,
                "attempt": taped.attempt,
                "reply": generation.message.content,
                "usage": dict(usage) if usage else None,
                "finish_reason": metadata.get("finish_reason"),
            },
        )
        return result


def recorded_llm(settings, name: str, *, ledger_path: Path, trace_path: Path | None = None) -> LLM:
    """The project's LLM on the configured models, replies replayed from ``tests/recordings/<name>.jsonl``
    (``.replies`` on the result: how many calls were replayed and how many went to the model)."""
    replies = Replies(RECORDINGS / f"{name}.jsonl", recording=bool(os.environ.get(RECORD)))
    real = build_chat_models(settings)
    models = {role: RecordedModel(cassette=None, inner=model, replies=replies) for role, model in real.items()}
    llm = LLM(settings, tasks=product_tasks(), chat_models=models, ledger_path=ledger_path, trace_path=trace_path)
    llm.replies = replies
    return llm
