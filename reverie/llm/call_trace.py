"""The call trace as a LangChain callback handler: each ask kept whole, one JSON line per ask.

Beside the ledger (which counts), the trace keeps what a prompt engineer needs to look at a
call again or to ask it again (``prompts capture``)::

    {"prompt", "role", "persona", "step", "game_time", "ts", "latency_s",
     "prompt_file", "system_line", "user_line",        # the file and where its templates start
     "inputs", "choices",                              # the task's inputs, as the code gave them
     "messages": [{"role", "content"}, ...],           # the first attempt's prompt, as sent
     "attempts": [{"attempt", "reply", "problems", "correction"}, ...],
     "outcome": "valid" | "repaired" | "fallback" | "failed",
     "value": {...}, "fallback": bool, "errors": [...]}

Each attempt's prompt reaches ``on_chat_model_start`` and its reply ``on_llm_end`` (both
children of the ask's run); a refused reply ends the parser's run with ``on_chain_error``
whose ``observation`` is the correction sent back. The chain's custom event
:data:`~reverie.llm.ledger_callback.ASKED` brings the inputs and the ledger's fields; the ask's
own ``on_chain_end`` brings the value used (the fail-safe's when ``fallback``). The file stops
growing at ``max_bytes``: a trace is for looking, never a reason to stop a run.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.exceptions import OutputParserException
from langchain_core.messages import BaseMessage
from langchain_core.outputs import LLMResult
from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from reverie.llm.ledger_callback import ASKED
from reverie.llm.safe_text import clean, json_line

log = logging.getLogger("reverie.llm")

CONTEXT = ("prompt", "role", "persona", "step", "game_time", "latency_s", "errors", "fallback")


def outcome_of(valid: bool, fallback: bool, attempts: int) -> str:
    """``valid`` (first reply kept), ``repaired``, ``fallback`` or ``failed`` (strict mode)."""
    if valid:
        return "valid" if attempts <= 1 else "repaired"
    return "fallback" if fallback else "failed"


def _message(message: BaseMessage) -> dict[str, Any]:
    return {"role": message.type, "content": clean(message.content)}


def _reply_text(response: LLMResult) -> str:
    for generations in response.generations:
        for generation in generations:
            message = getattr(generation, "message", None)
            return str(message.content if message is not None else generation.text)
    return ""


class TraceCallback(BaseCallbackHandler):
    """Writes one line per ask that runs with this handler in its callbacks to ``path``."""

    raise_error = False  # a trace that cannot be written is logged; the run goes on
    run_inline = True

    def __init__(self, path: Path, max_bytes: int | None = None):
        self.path = Path(path)
        self.max_bytes = max_bytes or None
        self.full = False
        self._asks: dict[UUID, dict[str, Any]] = {}  # the ask's run id -> what is known of it so far
        self._attempt_of: dict[UUID, dict[str, Any]] = {}  # a chat model run's id -> its attempt
        self._lock = threading.Lock()
        self.path.parent.mkdir(parents=True, exist_ok=True)

    # -- the attempts ------------------------------------------------------------------

    def on_chain_start(self, serialized: dict[str, Any], inputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        if isinstance(inputs, dict) and "name" in inputs and "inputs" in inputs:  # a structured chain's ask
            with self._lock:
                self._asks[run_id] = {"attempts": []}

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        with self._lock:
            ask = self._asks.get(parent_run_id) if parent_run_id else None
            if ask is None:
                return
            attempt = {
                "attempt": (metadata or {}).get("attempt", len(ask["attempts"]) + 1),
                "reply": None,
                "problems": [],
                "correction": None,
            }
            if not ask["attempts"]:
                ask["messages"] = [_message(m) for m in (messages[0] if messages else [])]
            ask["attempts"].append(attempt)
            self._attempt_of[run_id] = attempt

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            attempt = self._attempt_of.pop(run_id, None)
            if attempt is not None:
                attempt["reply"] = clean(_reply_text(response))

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            attempt = self._attempt_of.pop(run_id, None)
            if attempt is not None:
                attempt["problems"] = [f"model call failed: {error}"]

    def on_chain_error(
        self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        with self._lock:
            ask = self._asks.get(parent_run_id) if parent_run_id else None
            if ask is not None and isinstance(error, OutputParserException) and ask["attempts"]:
                last = ask["attempts"][-1]  # the parser refused this attempt's reply
                last["problems"] = [str(p) for p in getattr(error, "problems", [])] or [str(error)]
                last["correction"] = clean(str(error.observation)) if error.observation else None
                return
            ask = self._asks.pop(run_id, None)
        if ask is not None and "entry" in ask:  # strict mode: the ask raised
            self._write(ask, None)

    # -- the ask -----------------------------------------------------------------------

    def on_custom_event(self, name: str, data: Any, *, run_id: UUID, **kwargs: Any) -> None:
        if name == ASKED:
            with self._lock:
                if run_id in self._asks:
                    self._asks[run_id]["entry"] = data

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            ask = self._asks.pop(run_id, None)
        if ask is not None and "entry" in ask:
            self._write(ask, outputs)

    def _write(self, ask: dict[str, Any], value: Any) -> None:
        entry = ask["entry"]
        call = entry.get("call") or {}
        if isinstance(value, dict) and set(value) == {"output"}:
            value = value["output"]
        line = {key: entry.get(key) for key in CONTEXT}
        line.update(
            prompt_file=call.get("prompt_file"),
            system_line=call.get("system_line"),
            user_line=call.get("user_line"),
            inputs=to_jsonable_python(call.get("inputs"), fallback=str),
            choices=to_jsonable_python(call.get("choices") or {}, fallback=str),
            messages=ask.get("messages", []),
            attempts=ask["attempts"],
            outcome=outcome_of(bool(entry.get("valid")), bool(entry.get("fallback")), int(entry.get("attempts") or 0)),
            value=value.model_dump(mode="json")
            if isinstance(value, BaseModel)
            else to_jsonable_python(value, fallback=str),
        )
        text = json_line(clean(line)) + "\n"
        with self._lock:
            if self.full:
                return
            if self.max_bytes and self._size() + len(text.encode("utf-8")) > self.max_bytes:
                self.full = True
                log.warning(
                    "call trace %s reached its bound of %d bytes: later calls are not traced ([trace] max_mb)",
                    self.path,
                    self.max_bytes,
                )
                return
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(text)

    def _size(self) -> int:
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return 0
