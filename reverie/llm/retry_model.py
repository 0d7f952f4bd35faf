"""A chat model whose calls are tried again when the model server fails them.

``RetryingModel(model, RetryPolicy.of(settings.backend))`` answers as ``model`` does; a call
that fails with a busy (429) or failing (5xx) server, or a dropped, refused or timed-out
connection, is made again after a pause that doubles, up to ``[backend] retries`` more times
(:mod:`reverie.llm.server_errors` says which failure is which). This is about the transport
only: a reply that arrives but does not fit the task's schema is the repair loop's business
(:mod:`reverie.llm.repair_loop`), which sends it back with a correction.

Each try is a whole call of the wrapped model (with its callbacks), so a recording cassette
inside keeps only the reply that came.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig

from reverie.config import BackendSettings
from reverie.llm.prompt_size import estimate_tokens
from reverie.llm.server_errors import AskFailed, BackendLost, Failure, classify, describe, stop_for_good

log = logging.getLogger("reverie.llm")

T = TypeVar("T")

RETRIES = 3  # further tries after the first ([backend] retries)
FIRST_PAUSE_S = 0.5  # doubled after each try ([backend] retry_pause_s)
MAX_PAUSE_S = 8.0


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to try. ``server``: the model is a remote server, so a
    reply the client cannot parse (no choices) is the server's fault, not a bug of ours."""

    server: bool
    where: str
    retries: int = RETRIES
    first_pause_s: float = FIRST_PAUSE_S

    @classmethod
    def of(cls, backend: BackendSettings) -> RetryPolicy:
        return cls(server=backend.kind.server, where=backend.base_url, retries=backend.retries,
                   first_pause_s=backend.retry_pause_s)

    def call(self, call: Callable[[], T], *, sleep: Callable[[float], None] = time.sleep) -> T:
        """``call()``, tried again on server failures."""
        pause = self.first_pause_s
        for attempt in range(self.retries + 1):
            try:
                return call()
            except Exception as exc:  # sorted below; anything else is ours and propagates
                kind = classify(exc)
                if kind is None and self.server and isinstance(exc, (IndexError, KeyError, TypeError,
                                                                     json.JSONDecodeError)):
                    kind = Failure.RETRY_THEN_FAIL  # e.g. a 200 with no or null "choices", or a body that is not JSON
                if kind is None:
                    raise
                if kind is Failure.FAIL:
                    stop_for_good(exc, self.where)
                    raise AskFailed(f"{kind.value} ({describe(exc)})") from exc
                if attempt == self.retries:
                    if kind is Failure.CONNECTION:
                        raise BackendLost(
                            f"[backend] the model server at {self.where} cannot be reached ({describe(exc)}) — "
                            "start it or fix [backend] base_url, then continue with --resume"
                        ) from exc
                    raise AskFailed(f"{kind.value} after {self.retries + 1} tries ({describe(exc)})") from exc
                log.warning("model server: %s (%s); retrying in %.1f s", kind.value, describe(exc), pause)
                sleep(pause)
                pause = min(MAX_PAUSE_S, pause * 2)
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
