"""A chat model that is not a model: scripted replies, or only replies that never validate.

For failure paths and fast smoke tests, where a real model would be slow or would not
say what the test needs. It is a LangChain ``BaseChatModel``, so the real chain (prompt
files, grammar keywords, repair loop, fail-safes, ledger) runs around it unchanged.

    FakeChatModel()                                   # fail-safe only: every ask ends in its fail-safe
    FakeChatModel(replies=['{"hour": 7}', "no"])      # in order; the last one again when they run out
    FakeChatModel(replies={"wake_up_hour": [{"hour": 7}]})  # per prompt; other prompts never validate
    FakeChatModel(replies=lambda call: {...} or None) # by rule, from what the call shows

A reply is text, or a dict / Pydantic object sent as its JSON. ``None`` (or a prompt the
script does not name) gets :data:`NEVER_VALID`: no JSON at all, so no task accepts it.
Every call is kept in ``calls``; ``peak_in_flight`` is the most calls answered at once.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import BaseModel, Field, PrivateAttr

# A reply no task accepts: not JSON, so the chain corrects, retries and ends in the fail-safe.
NEVER_VALID = "I would rather not say."
USAGE = {"input_tokens": 100, "output_tokens": 10, "total_tokens": 110}

Reply = str | dict[str, Any] | BaseModel | None


class FakeCall(NamedTuple):
    """One call the fake model answered: the messages and the call's keywords (``max_tokens``,
    ``temperature``, ``response_format``...)."""

    messages: list[BaseMessage]
    kwargs: dict[str, Any]

    @property
    def prompt(self) -> str | None:
        """The prompt file's name, when the call says it (the grammar's ``response_format``)."""
        return (self.kwargs.get("response_format") or {}).get("name")

    @property
    def schema(self) -> dict[str, Any]:
        """The JSON schema the reply is constrained to ({} without a grammar)."""
        return (self.kwargs.get("response_format") or {}).get("schema") or {}

    @property
    def user_text(self) -> str:
        """The last message's text: the user turn, or the latest correction."""
        return str(self.messages[-1].content) if self.messages else ""


def as_text(reply: Reply) -> str:
    if reply is None:
        return NEVER_VALID
    if isinstance(reply, BaseModel):
        return reply.model_dump_json()
    if isinstance(reply, dict):
        return json.dumps(reply)
    return str(reply)


class FakeChatModel(BaseChatModel):
    """Scripted replies (``replies``: a list in order, a mapping prompt name -> list, or a
    callable of the :class:`FakeCall`), or none at all (fail-safe only). Not a real model."""

    # Sequence[Reply] | Mapping[str, Reply | Sequence[Reply]] | Callable[[FakeCall], Reply] | None, kept as given
    replies: Any = None
    usage: dict[str, int] | None = Field(default_factory=lambda: dict(USAGE))  # None: replies carry no token counts
    delay_s: float = 0.0  # each call takes this long (to watch calls overlap)
    calls: list[FakeCall] = Field(default_factory=list)
    peak_in_flight: int = 0

    _lock: Any = PrivateAttr(default_factory=threading.Lock)
    _in_flight: int = PrivateAttr(default=0)
    _per_prompt: Counter[str | None] = PrivateAttr(default_factory=Counter)

    @property
    def call_count(self) -> int:
        return len(self.calls)

    def prompts(self) -> Counter[str | None]:
        """How many calls each prompt made (by the name the calls carry)."""
        return Counter(call.prompt for call in self.calls)

    def _generate(
        self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        call = FakeCall(list(messages), dict(kwargs))
        with self._lock:
            self.calls.append(call)
            self._in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self._in_flight)
            reply = self._script(call)
        try:
            if self.delay_s:
                time.sleep(self.delay_s)
            text = as_text(reply(call) if callable(reply) else reply)
        finally:
            with self._lock:
                self._in_flight -= 1
        message = AIMessage(content=text, usage_metadata=dict(self.usage) if self.usage else None)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _script(self, call: FakeCall) -> Any:
        """The reply for this call (a callable script is applied outside the lock)."""
        script = self.replies
        if script is None or callable(script):
            return script
        if isinstance(script, Mapping):
            name = call.prompt
            self._per_prompt[name] += 1
            script = script.get(name) if name is not None else None
            if script is None or isinstance(script, (str, dict, BaseModel)):
                return script
            return _nth(script, self._per_prompt[name])
        return _nth(script, len(self.calls))

    @property
    def _llm_type(self) -> str:
        return "fake"


def _nth(replies: Sequence[Reply], n: int) -> Reply:
    """The n-th reply (from 1); the last one again once they run out."""
    return replies[min(n, len(replies)) - 1] if replies else None
