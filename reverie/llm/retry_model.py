"""A chat model whose calls are tried again when the model server fails them.

``RetryingModel(model, RetryPolicy.of(settings.backend, health))`` answers as ``model`` does; a
call that fails with a busy (429) or failing (5xx) server, a refused or dropped connection, or a
reply that is not a chat completion, is made again after a pause that doubles (or the server's
``Retry-After``), up to ``[backend] retries`` more times. What cannot be cured stops the run
(:mod:`reverie.llm.server_errors` says which failure is which). This is about the transport
only: a reply that arrives but does not fit the task's schema is the repair loop's business
(:mod:`reverie.llm.repair_loop`), which sends it back with a correction.

Each try is a whole call of the wrapped model (with its callbacks), so a recording cassette
inside keeps only the reply that came.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig

from reverie.config import BackendSettings
from reverie.llm.prompt_size import estimate_tokens
from reverie.llm.server_errors import IN_A_ROW, AskFailed, Failure, classify, describe, lost, stop_for_good

log = logging.getLogger("reverie.llm")

T = TypeVar("T")

RETRIES = 3  # further tries after the first ([backend] retries)
FIRST_PAUSE_S = 0.5  # doubled after each try ([backend] retry_pause_s)
MAX_PAUSE_S = 8.0
MAX_RETRY_AFTER_S = 60.0  # a server's Retry-After is honoured up to this


class ServerHealth:
    """Failures in a row across the calls of one run (its threads share it): replies that are
    not chat completions, and asks refused with a 4xx. Any chat completion resets both."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.bad_replies = 0
        self.refusals = 0

    def answered(self) -> None:
        with self._lock:
            self.bad_replies = self.refusals = 0

    def bad_reply(self) -> int:
        with self._lock:
            self.bad_replies += 1
            return self.bad_replies

    def refused(self) -> int:
        with self._lock:
            self.refusals += 1
            return self.refusals


def retry_after(exc: BaseException) -> float | None:
    """The pause a 429 or 503 asks for in its ``Retry-After`` header (seconds), if any."""
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    raw = headers.get("retry-after")
    if raw is None:
        return None
    try:
        value = float(raw)
    except (TypeError, ValueError):
        return None
    return min(MAX_RETRY_AFTER_S, max(0.0, value))


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to try. ``server``: the model is a remote server, so a
    reply the client cannot parse (no choices) is the server's fault, not a bug of ours."""

    server: bool
    where: str
    retries: int = RETRIES
    first_pause_s: float = FIRST_PAUSE_S
    deadline_s: float = 0.0  # [backend] timeout_s, for the message of a call past it
    health: ServerHealth = field(default_factory=ServerHealth, compare=False)

    @classmethod
    def of(cls, backend: BackendSettings, health: ServerHealth | None = None) -> RetryPolicy:
        return cls(
            server=backend.kind.server,
            where=", ".join(e.base_url for e in backend.endpoints()),
            retries=backend.retries,
            first_pause_s=backend.retry_pause_s,
            deadline_s=backend.timeout_s,
            health=health or ServerHealth(),
        )

    def call(self, call: Callable[[], T], *, sleep: Callable[[float], None] = time.sleep) -> T:
        """``call()``, tried again on server failures; a failure that cannot be cured raises
        :class:`~reverie.llm.server_errors.BackendLost` (the run stops), a refused request
        :class:`~reverie.llm.server_errors.AskFailed` (the ask's fail-safe)."""
        pause = self.first_pause_s
        for attempt in range(1, self.retries + 2):
            try:
                result = call()
            except Exception as exc:  # sorted below; anything else is ours and propagates
                kind = classify(exc, server=self.server)
                if kind is None:
                    raise
                if kind in (Failure.AUTH, Failure.REFUSED):
                    stop_for_good(exc, self.where)
                    refused = self.health.refused()
                    if refused >= IN_A_ROW:
                        raise lost(kind, exc, self.where, tries=refused, deadline_s=self.deadline_s) from exc
                    raise AskFailed(f"{kind.value} ({describe(exc)})") from exc
                bad = self.health.bad_reply() if kind is Failure.NOT_A_COMPLETION else 0
                if not kind.retried or attempt > self.retries or bad >= IN_A_ROW:
                    raise lost(kind, exc, self.where, tries=bad or attempt, deadline_s=self.deadline_s) from exc
                wait = retry_after(exc) if kind is Failure.BUSY else None
                wait = pause if wait is None else wait
                log.warning("model server: %s (%s); retrying in %.1f s", kind.value, describe(exc), wait)
                sleep(wait)
                pause = min(MAX_PAUSE_S, pause * 2)
            else:
                self.health.answered()
                return result
        raise AssertionError("unreachable")  # pragma: no cover


class RetryingModel(Runnable[LanguageModelInput, BaseMessage]):
    """``model`` (a chat model, or one bound to a call's parameters), its calls retried under ``policy``."""

    def __init__(self, model: Runnable[LanguageModelInput, BaseMessage], policy: RetryPolicy):
        self.model, self.policy = model, policy

    def bind(self, **kwargs: Any) -> RetryingModel:
        """The wrapped model bound to ``kwargs`` (max_tokens, temperature, …), still retried."""
        return RetryingModel(self.model.bind(**kwargs), self.policy)

    def invoke(self, input: LanguageModelInput, config: RunnableConfig | None = None, **kwargs: Any) -> BaseMessage:
        return self.policy.call(lambda: self.model.invoke(input, config=config, **kwargs))

    def count_prompt_tokens(self, messages: list[BaseMessage]) -> int:
        count = getattr(self.model, "count_prompt_tokens", None)
        return count(messages) if count else estimate_tokens(messages)


def unwrapped(model: Runnable) -> Runnable:
    """The model inside any retry wrappers."""
    while isinstance(model, RetryingModel):
        model = model.model
    return model
