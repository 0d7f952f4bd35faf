"""How one attempt of the repair loop reaches the chat model: live, recorded or replayed.

The repair loop (:mod:`reverie.llm.repair_loop`) hands each attempt over as a :class:`Turn`
and knows nothing of recordings; the :class:`ModelTurns` it was given decide the rest:

- :class:`LiveTurns` send the prompt cut to the context window. When the model is a
  recording cassette, the turn's key (prompt, attempt, the conversation before it was cut)
  goes with the call as the keyword ``taped``, which never reaches the recorded model.
- :class:`ReplayedTurns` send the conversation uncut, keyed the same way: a recording keys on
  the untrimmed conversation, and there is no model to count its tokens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig

from reverie.llm.cassette_model import CassetteModel, Taped
from reverie.llm.retry_model import unwrapped

ChatModel = Runnable[LanguageModelInput, BaseMessage]


@dataclass(frozen=True)
class Turn:
    """One attempt as the model gets it: ``sent`` is what it is sent (cut to the context window),
    ``conversation`` the same before it was cut, ``params`` what the model is bound to."""

    prompt: str
    attempt: int
    sent: list[BaseMessage]
    conversation: list[BaseMessage]
    params: dict[str, Any]

    def taped(self) -> Taped:
        """What a cassette records this turn's reply under."""
        return Taped(self.prompt, self.attempt, tuple(self.conversation))


class ModelTurns(Protocol):
    """How a loop's turns reach the model."""

    @property
    def trims(self) -> bool:
        """Whether the prompt is cut to the context window before it is sent."""
        ...

    def send(self, turn: Turn, config: RunnableConfig) -> BaseMessage:
        """The model's reply to ``turn``."""
        ...


class LiveTurns:
    """Turns sent to the role's chat model (``model()`` gives it), the prompt cut to fit."""

    trims = True  # the prompt is cut to the context window before it is sent

    def __init__(self, model: Callable[[], ChatModel]):
        self.model = model

    def send(self, turn: Turn, config: RunnableConfig) -> BaseMessage:
        model = self.model()
        params = turn.params
        if isinstance(unwrapped(model), CassetteModel):
            params = {**params, "taped": turn.taped()}
        return model.bind(**params).invoke(turn.sent, config=config)


class ReplayedTurns(LiveTurns):
    """Turns answered from a recording: sent uncut (the recording keys on the untrimmed conversation)."""

    trims = False


def model_turns(model: Callable[[], ChatModel], *, replaying: bool) -> ModelTurns:
    """The turns of a loop whose model ``model()`` gives: replayed when answers come from a recording."""
    return ReplayedTurns(model) if replaying else LiveTurns(model)
