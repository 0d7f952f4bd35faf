"""The scripted town model: a chat model that answers every prompt by rule, from that prompt's
own inputs.

It receives the messages and the call's keywords like any model (the grammar's
``response_format`` names the prompt and carries the call's schema, its choices as enums),
reads the inputs back from the messages (:mod:`.unrender`) and hands them to the prompt's
rule (:mod:`.rules`). The chain around it (prompt files, grammar, parsing, validators,
repair, fail-safes, ledger) runs unchanged. It knows nothing of any world or seed: what it
says is made of what the prompt shows it. A retry (a reply the validators sent back) gets
the schema's plain answer (:mod:`.fill`), so a rule's slip costs one more call, not a fail-safe.

It is what a world designer runs first ("can news travel in my town, and can people
gather?") and what tests use to prove the plumbing. It is no model of behaviour: no figure
about the agents' behaviour may come from it.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import PrivateAttr

from reverie.config import SCRIPTED
from reverie.llm.prompt_size import estimate_tokens
from reverie.llm.prompt_spec import PromptSpec, PromptStore
from reverie.llm.scripted.call import ScriptedCall
from reverie.llm.scripted.fill import plain_answer
from reverie.llm.scripted.rules import RULES
from reverie.llm.scripted.unrender import prompt_inputs, read_template


class ScriptedChatModel(BaseChatModel):
    """Answers by rule from the prompt's inputs (see the module). ``prompts``: the prompt folder."""

    prompts: Path
    _store: Any = PrivateAttr(default=None)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)

    def _spec(self, name: str | None, messages: list[BaseMessage]) -> PromptSpec | None:
        with self._lock:
            if self._store is None:
                self._store = PromptStore(self.prompts)
            store = self._store
        if name:
            return store.get(name)
        system = str(messages[0].content) if messages else ""  # no grammar: the prompt is told by its system text
        for path in sorted(Path(self.prompts).glob("*.toml")):
            spec = store.get(path.stem)
            if spec.system.strip() and read_template(spec.system, system) is not None:
                return spec
        return None

    def count_prompt_tokens(self, messages: list[BaseMessage]) -> int:
        return estimate_tokens(messages)

    def _generate(self, messages: list[BaseMessage], stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        response_format = kwargs.get("response_format") or {}
        spec = self._spec(response_format.get("name"), messages)
        schema = response_format.get("schema") or {}
        call = ScriptedCall(
            name=spec.name if spec else "",
            inputs=prompt_inputs(spec, messages) if spec else {},
            schema=schema,
            attempt=1 + _replies_so_far(spec, messages),
        )
        rule = RULES.get(call.name)
        answer = rule(call) if rule is not None and call.attempt == 1 else plain_answer(call)
        text = answer if isinstance(answer, str) else json.dumps(answer)
        usage = {"input_tokens": estimate_tokens(messages), "output_tokens": max(1, len(text) // 4)}
        usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
        message = AIMessage(content=text, usage_metadata=usage)
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return SCRIPTED


def _replies_so_far(spec: PromptSpec | None, messages: list[BaseMessage]) -> int:
    """The replies already sent back in this ask (after the prompt's few-shot examples)."""
    shown = 1 + 2 * len(spec.examples) + (1 if spec.system.strip() else 0) if spec else 0
    return sum(isinstance(m, AIMessage) for m in messages[shown:])


def scripted_models(settings) -> dict[str, BaseChatModel]:
    """Both roles answered by one scripted model."""
    model = ScriptedChatModel(prompts=Path(settings.paths.prompts))
    return {"strong": model, "cheap": model}
