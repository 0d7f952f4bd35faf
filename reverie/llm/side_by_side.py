"""One resident's asks that need none of each other's answers, in flight together.

A step asks some questions whose inputs are all known before the first is answered: an action's
emoji and its event triple once its place is chosen, the triple of each new thought, a
reflection's insights for each of its questions, a conversation's two notes. On a model server
that answers several requests at once (``LanguageModel.concurrent_calls`` > 1) they are sent
together, each on a thread of its own in a copy of the caller's context (the step's clock for
the ledger); the answers come back in the order the asks were given, so whatever is built from
them (memories, the action) is what asking them one after another builds. An in-process model,
or a replayed recording, answers one at a time: there they are asked one after another, in
that order.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def concurrent_calls(llm: Any) -> int:
    """How many calls ``llm`` answers at once (1 when it does not say)."""
    return max(1, int(getattr(llm, "concurrent_calls", 1) or 1))


def side_by_side(llm: Any, asks: list[Callable[[], T]]) -> list[T]:
    """``[ask() for ask in asks]``, the asks in flight together when ``llm`` answers several at once.

    Every ask runs to its end; the first failure in the asks' order is then raised, as asking them
    one after another would raise it (the later asks' answers are not used)."""
    width = min(len(asks), concurrent_calls(llm))
    if width <= 1:
        return [ask() for ask in asks]
    with ThreadPoolExecutor(max_workers=width, thread_name_prefix="ask") as pool:
        futures = [pool.submit(contextvars.copy_context().run, ask) for ask in asks]
        return [future.result() for future in futures]
