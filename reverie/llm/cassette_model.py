"""A chat model that wraps another and records its replies, or answers from a recording.

``CassetteModel(cassette=Cassette(path, "record"), inner=model)`` passes every call through
to ``inner`` and appends the reply to the recording; ``CassetteModel(cassette=Cassette(path,
"replay"))`` needs no model: it answers from the recording (see :mod:`reverie.llm.cassette`
for the file and its keys). The recording keys on the prompt's name, the attempt and the
conversation before it was cut to the context window; the structured chain hands those
over as the call keyword ``taped`` (a :class:`Taped`), which never reaches ``inner``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from reverie.llm.cassette import Cassette
from reverie.llm.prompt_size import estimate_tokens


@dataclass(frozen=True)
class Taped:
    """What one call is recorded under: ``conversation`` is the untrimmed one (what the
    model was sent may be shorter)."""

    prompt: str
    attempt: int
    conversation: tuple[BaseMessage, ...]

    def __repr__(self) -> str:  # shown in callbacks' invocation params
        return f"Taped({self.prompt!r}, attempt={self.attempt})"


class CassetteModel(BaseChatModel):
    """Record (``inner`` given) or replay (``inner`` None) the replies of a chat model."""

    cassette: Any  # reverie.llm.cassette.Cassette
    inner: BaseChatModel | None = None

    @property
    def _llm_type(self) -> str:
        return f"cassette-{self.cassette.mode}"

    @property
    def replaying(self) -> bool:
        return self.cassette.replaying

    def count_prompt_tokens(self, messages: list[BaseMessage]) -> int:
        count = getattr(self.inner, "count_prompt_tokens", None)
        return count(messages) if count else estimate_tokens(messages)

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        taped: Taped | None = kwargs.pop("taped", None)
        if taped is None:
            raise ValueError("a cassette needs each call's prompt and attempt (the keyword taped)")
        conversation = list(taped.conversation)
        cassette: Cassette = self.cassette
        if cassette.replaying:
            reply = cassette.replay(taped.prompt, conversation, taped.attempt)
            return ChatResult(generations=[ChatGeneration(message=reply)])
        if self.inner is None:
            raise ValueError("a recording cassette needs the chat model it records")
        result = self.inner._generate(messages, stop=stop, run_manager=run_manager, **kwargs)
        generation = result.generations[0]
        metadata = {**(generation.generation_info or {}), **generation.message.response_metadata}
        cassette.record(
            taped.prompt,
            conversation,
            taped.attempt,
            generation.message.model_copy(update={"response_metadata": metadata}),
        )
        return result


def taped_model(model: BaseChatModel | None, cassette: Cassette | None) -> BaseChatModel:
    """``model`` as the chain calls it: wrapped in the cassette when there is one."""
    if cassette is None:
        if model is None:
            raise ValueError("no chat model to call")
        return model
    return CassetteModel(cassette=cassette, inner=None if cassette.replaying else model)
