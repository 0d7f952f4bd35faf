"""What cognition asks of a language model: the :class:`LanguageModel` interface.

The prompt units, the personas and the simulation are written against this small
interface, not against :class:`reverie.llm.LLM` (the one that renders, repairs, records and
counts). One method does the work::

    reply = llm.ask(WAKE_UP_HOUR, WakeUpInputs(identity=..., lifestyle=..., first_name=...),
                    choices={"hours": [...]}, persona="Isabella Rodriguez")
    reply.hour  # a type checker knows reply is a WakeUpHourReply

``ask`` with a :class:`~reverie.llm.task.Task` and its inputs model returns the task's reply
model; ``ask`` with a prompt name and a dict of inputs (the prompt tools, replays of a trace)
returns the same object, typed only as a ``BaseModel``.

The other members are the run's dealings with the model server; an answerer without a
server (a test's stand-in that subclasses this class) keeps their defaults: nothing lost,
not replaying, nothing to check, to reconnect or to tell the time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, overload

from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel

from reverie.llm.server_errors import BackendLost
from reverie.llm.task import Choices, InputsT, ReplyT, Task

__all__ = ["LanguageModel"]


class LanguageModel(Protocol):
    """Typed asks, and the few things a run needs to know about the model behind them."""

    @overload
    def ask(
        self,
        task: Task[InputsT, ReplyT],
        inputs: InputsT,
        *,
        choices: Choices | None = None,
        persona: str | None = None,
        config: RunnableConfig | None = None,
    ) -> ReplyT:
        """The task's reply (its fail-safe when the model never gets it right); ``persona``:
        whose ask it is; ``config`` (callbacks, tags, metadata) reaches every model call. The
        interface gives only the typed forms: each answerer writes its own ``ask``."""

    @overload
    def ask(
        self,
        task: str,
        inputs: Mapping[str, Any],
        *,
        choices: Choices | None = None,
        persona: str | None = None,
        config: RunnableConfig | None = None,
    ) -> BaseModel: ...

    @property
    def backend_lost(self) -> BackendLost | None:
        """Set once the model server is lost or refuses for good (the run stops, its step not saved); else None."""
        return None

    @property
    def replaying(self) -> bool:
        """Answers come from a recording: no model is called."""
        return False

    @property
    def concurrent_calls(self) -> int:
        """How many calls the model answers at once: a resident's asks that need none of each
        other's answers are sent together up to this many (``reverie.llm.side_by_side``)."""
        return 1

    def check_backend(self) -> None:
        """Check the model server, or load the in-process model, before a run's first step (a
        wrong model name or a model that cannot load stops the run)."""

    def reconnect(self) -> None:
        """Ask the model server again after it was found unreachable (a new run)."""

    def set_clock(self, step: int, game_time: str) -> None:
        """The simulation step and game time of the following asks (for the ledger)."""
