"""The ledger as a LangChain callback handler: one ``llm_calls.jsonl`` line per ask.

Each attempt's chat model run ends with ``on_llm_end``; its reply's usage metadata (input,
output and cache-read tokens) is added up under the ask's run (the chat model's parent
run). When the ask is over, the structured chain dispatches the custom event
:data:`ASKED` with what only it knows (prompt, role, attempts, errors, outcome, …); the
handler then writes the line with the tokens it summed, in :class:`Ledger`'s format.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.outputs import LLMResult

from reverie.llm.ledger import Ledger

# The custom event of one finished ask (data: the ledger fields the chain knows).
ASKED = "reverie_ask"


@dataclass
class Tokens:
    prompt: int = 0
    completion: int = 0
    cached: int | None = 0  # None once a reply did not say (e.g. a server that does not report it)
    servers: list[str] = field(default_factory=list)  # the servers that answered, in order, once each

    def add(self, usage: dict[str, Any]) -> None:
        self.prompt += usage.get("input_tokens", 0)
        self.completion += usage.get("output_tokens", 0)
        cached = (usage.get("input_token_details") or {}).get("cache_read")
        self.cached = None if cached is None or self.cached is None else self.cached + cached


def reply_server(response: LLMResult) -> str | None:
    """The server that answered a chat model run (its reply's ``response_metadata["server"]``)."""
    for generations in response.generations:
        for generation in generations:
            server = (getattr(getattr(generation, "message", None), "response_metadata", None) or {}).get("server")
            if isinstance(server, str) and server:
                return server
    return None


def reply_usage(response: LLMResult) -> dict[str, Any]:
    """The usage metadata of a chat model run's reply ({} when it has none)."""
    for generations in response.generations:
        for generation in generations:
            message = getattr(generation, "message", None)
            if message is not None:
                return dict(getattr(message, "usage_metadata", None) or {})
    return {}


class LedgerCallback(BaseCallbackHandler):
    """Accounts every ask that runs with this handler in its callbacks."""

    raise_error = True  # a ledger that cannot be written stops the run
    run_inline = True

    def __init__(self, ledger: Ledger):
        self.ledger = ledger
        self._tokens: dict[UUID, Tokens] = {}
        self._lock = threading.Lock()

    def on_llm_end(
        self, response: LLMResult, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        if parent_run_id is None:
            return
        usage, server = reply_usage(response), reply_server(response)
        with self._lock:
            tokens = self._tokens.setdefault(parent_run_id, Tokens())
            tokens.add(usage)
            if server is not None and server not in tokens.servers:
                tokens.servers.append(server)

    def on_custom_event(self, name: str, data: Any, *, run_id: UUID, **kwargs: Any) -> None:
        if name != ASKED:
            return
        with self._lock:
            tokens = self._tokens.pop(run_id, Tokens())
        self.ledger.record(
            **data,
            prompt_tokens=tokens.prompt,
            completion_tokens=tokens.completion,
            cached_tokens=tokens.cached if data.get("attempts") else None,
            server=", ".join(tokens.servers) or None,
        )

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self._forget(run_id)

    def on_chain_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self._forget(run_id)  # e.g. a replay that misses: no line, as no answer came

    def _forget(self, run_id: UUID) -> None:
        with self._lock:
            self._tokens.pop(run_id, None)
