"""Test helpers for the planning/acting prompt units: the real LLM facade over a scripted chat model.

The scripted model returns fixed replies in order (the last one again when they run out)
and records every call, so a test can check what a unit sent and how it post-processes
the answer, including the fail-safe path when every reply is wrong.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from reverie import PROJECT_ROOT
from reverie.config import Settings
from reverie.llm import LLM
from reverie.tasks.registry import product_tasks


class ScriptedChat(BaseChatModel):
    """A scripted fake chat model (not a real model): fixed replies, every call recorded."""

    replies: list[str]
    calls: list = Field(default_factory=list)

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        self.calls.append((list(messages), kwargs))
        text = self.replies[min(len(self.calls), len(self.replies)) - 1]
        usage = {"input_tokens": 100, "output_tokens": 10, "total_tokens": 110}
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text, usage_metadata=usage))])

    @property
    def _llm_type(self) -> str:
        return "scripted"


def scripted_llm(*replies: str, ledger_path=None) -> tuple[LLM, ScriptedChat]:
    """The real facade (real prompt files, schemas, repair loop) over a scripted chat model."""
    settings = Settings()
    settings.paths.prompts = PROJECT_ROOT / "prompts"
    model = ScriptedChat(replies=list(replies))
    return LLM(settings, tasks=product_tasks(), chat_models={"strong": model, "cheap": model}, ledger_path=ledger_path), model


def last_user_text(model: ScriptedChat, call: int = -1) -> str:
    messages, _ = model.calls[call]
    return str(messages[-1].content)


def call_schema(model: ScriptedChat, call: int = -1) -> dict:
    _, kwargs = model.calls[call]
    return kwargs["response_format"]["schema"]
