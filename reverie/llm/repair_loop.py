"""The repair loop of one call: ``prompt | model.bind(...) | parser``, again with corrections.

Each attempt renders the prompt (stable text first, the format line and the variable user
text last; a prompt may leave the format line to the grammar, ``format_line_with_grammar``),
cuts it to the context window, calls the role's chat model (retried on server failures by
:class:`~reverie.llm.retry_model.RetryingModel`, outside this loop) bound to
``max_tokens``, the temperature and, with ``[repair] grammar``, the JSON-schema grammar,
and hands the reply to the call's :class:`~reverie.llm.reply_parser.ReplyParser`. A reply
the parser refuses goes back to the model, followed by the parser's correction, up to
``[repair] max_attempts``; retries sample a little hotter. The caller's ``RunnableConfig``
(callbacks, tags, metadata) reaches the chat model and the parser on every attempt, with
``"prompt"`` and ``"attempt"`` added to its metadata. A reply that repeats an earlier
attempt's word for word means the correction did not reach the model: the prompt is asked
once more afresh (without the refused replies, hotter, with another seed), and a second repeat
ends the loop (the fail-safe is used).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import ensure_config
from pydantic import BaseModel

from reverie.config import Settings
from reverie.llm.cassette_model import CassetteModel, Taped
from reverie.llm.prompt_size import Fitted, estimate_tokens, fit
from reverie.llm.prompt_spec import PromptSpec
from reverie.llm.reply_parser import ReplyParser, ReplyProblems
from reverie.llm.retry_model import unwrapped
from reverie.llm.safe_text import clean
from reverie.llm.schema import format_instruction, items_asked
from reverie.llm.task import Task

log = logging.getLogger("reverie.llm")

# Temperature added per retry (capped at 1.2).
RETRY_WARMING = 0.3
# A refused reply goes back to the model cut to what its max_tokens could hold, at this many
# characters a token (generous: English runs about 4): a server that ignores max_tokens must not
# push the repair turn past the context window with a reply of 100 KB.
ECHO_CHARS_PER_TOKEN = 6


def render_messages(spec: PromptSpec, inputs: dict, schema: dict, *, grammar: bool = False) -> list[BaseMessage]:
    """The prompt's messages for these inputs, the format line put before the last user text
    (left out when ``grammar`` holds the reply to the schema and the prompt says it may be)."""
    messages = spec.template().format_messages(**{key: inputs[key] for key in spec.inputs})
    if grammar and not spec.format_line_with_grammar:
        return messages
    user = messages[-1]
    messages[-1] = HumanMessage(content=f"{format_instruction(schema)}\n\n{user.content}")
    return messages


@dataclass
class Outcome:
    result: BaseModel | None = None
    attempts: int = 0
    errors: list[str] = field(default_factory=list)
    trimmed_tokens: int = 0  # prompt tokens cut so that the prompt fits the context window


class RepairLoop(Runnable[dict, Outcome]):
    """``invoke(inputs, config) -> Outcome`` for one prompt, schema and set of choices.

    It opens no run of its own: the chat model's and the parser's runs are children of
    whatever run ``config`` belongs to (the structured chain's ask)."""

    def __init__(
        self,
        settings: Settings,
        *,
        task: Task,
        spec: PromptSpec,
        schema: dict,
        choices: dict,
        model: Callable[[], Runnable[LanguageModelInput, BaseMessage]],
        replaying: bool = False,
    ):
        self.settings, self.task, self.spec, self.schema, self.choices = settings, task, spec, schema, choices
        self.model, self.replaying = model, replaying

    def invoke(self, input: dict, config: RunnableConfig | None = None, **kwargs: Any) -> Outcome:
        config = ensure_config(config)
        outcome = Outcome()
        base = self.render(input)
        exchanges: list[BaseMessage] = []  # the replies so far, each followed by its correction
        replies: list[str] = []
        resampled = False  # a repeated reply was answered by asking afresh
        for attempt in range(1, self.settings.repair.max_attempts + 1):
            outcome.attempts = attempt
            conversation = [*base, *exchanges]  # what a cassette keys on, trimmed or not
            attempt_config = self._attempt_config(config, attempt)
            try:
                sent, shown = self._fit(input, exchanges, outcome)
                reply = self._call(sent, conversation, attempt, attempt_config, afresh=resampled and not exchanges)
            except ValueError as exc:  # e.g. instructions alone longer than the context window, a server's 400
                outcome.errors.append(f"attempt {attempt}: model call failed: {exc}")
                return outcome
            parser = ReplyParser(
                reply_model=self.task.schema,
                call_schema=self.schema,
                inputs=shown,
                choices=self.choices,
                task_name=self.task.name,
                task=self.task,
            )
            try:
                outcome.result = parser.invoke(reply, config=attempt_config)
            except ReplyProblems as problems:
                log.debug("prompt %s attempt %d: %r -> %s", self.spec.name, attempt, reply.content, problems.problems)
                outcome.errors += [f"attempt {attempt}: {p}" for p in problems.problems]
                text = str(reply.content).strip()
                if text in replies:
                    if resampled or attempt == self.settings.repair.max_attempts:
                        outcome.errors.append(
                            f"attempt {attempt}: the same reply as attempt {replies.index(text) + 1}; not asked again"
                        )
                        return outcome
                    # The correction did not reach the model: ask the prompt afresh, hotter and with
                    # another seed, once.
                    outcome.errors.append(
                        f"attempt {attempt}: the same reply as attempt {replies.index(text) + 1}; "
                        "asked afresh with another seed"
                    )
                    resampled, exchanges = True, []
                    continue
                replies.append(text)
                exchanges = [
                    *exchanges,
                    AIMessage(content=self.echoed(reply.content)),
                    HumanMessage(content=problems.observation),
                ]
                continue
            log.debug("prompt %s attempt %d: %r -> valid", self.spec.name, attempt, reply.content)
            return outcome
        return outcome

    # -- the parts of one attempt --------------------------------------------------------

    def _attempt_config(self, config: RunnableConfig, attempt: int) -> RunnableConfig:
        """The caller's config for one attempt's runs: its own run's id and name left out."""
        kept = {key: value for key, value in config.items() if key not in ("run_id", "run_name", "metadata")}
        metadata = {**(config.get("metadata") or {}), "prompt": self.spec.name, "attempt": attempt}
        return RunnableConfig(**kept, metadata=metadata)

    def render(self, inputs: dict) -> list[BaseMessage]:
        """The first attempt's messages (the format line as the grammar setting decides)."""
        return render_messages(self.spec, inputs, self.schema, grammar=self.settings.repair.grammar)

    def _call(
        self,
        sent: list[BaseMessage],
        conversation: list[BaseMessage],
        attempt: int,
        config: RunnableConfig,
        *,
        afresh: bool = False,
    ) -> BaseMessage:
        """``sent`` goes to the model; a cassette keys on the untrimmed ``conversation``."""
        model = self.model()
        params = self.afresh(attempt) if afresh else self.warmer(attempt)
        if isinstance(unwrapped(model), CassetteModel):
            params["taped"] = Taped(self.spec.name, attempt, tuple(conversation))
        return model.bind(**params).invoke(sent, config=config)

    def _fit(self, inputs: dict, exchanges: list[BaseMessage], outcome: Outcome) -> tuple[list[BaseMessage], dict]:
        """The messages to send and the inputs they show, cut to the context window."""
        if self.replaying:
            return [*self.render(inputs), *exchanges], inputs
        fitted = self.fitted(inputs, exchanges)
        if fitted.trimmed_tokens:
            log.info(
                "prompt %s: %d tokens of growing inputs cut to fit the context window",
                self.spec.name,
                fitted.trimmed_tokens,
            )
        outcome.trimmed_tokens = max(outcome.trimmed_tokens, fitted.trimmed_tokens)
        return fitted.messages, fitted.inputs

    def fitted(self, inputs: dict, exchanges: list[BaseMessage]) -> Fitted:
        """The prompt with ``exchanges`` after it, cut to the context window (loads the model)."""
        model = self.model()
        count = getattr(model, "count_prompt_tokens", None) or estimate_tokens
        budget = getattr(self.settings.models, self.spec.role).n_ctx - self.params()["max_tokens"]
        return fit(self.render, inputs, self.task.trim, exchanges, count, budget)

    def echoed(self, content) -> str:
        """A refused reply as the repair turn shows it: cleaned, and cut to what ``max_tokens`` could hold."""
        text = clean(content if isinstance(content, str) else str(content))
        limit = self.max_tokens() * ECHO_CHARS_PER_TOKEN
        return text if len(text) <= limit else text[:limit] + " …"

    def max_tokens(self) -> int:
        return self.spec.reply_tokens(
            getattr(self.settings.models, self.spec.role).max_tokens, items_asked(self.schema)
        )

    def params(self) -> dict:
        """What the model is bound to on a first attempt."""
        params: dict[str, Any] = {"max_tokens": self.max_tokens()}
        if self.spec.temperature is not None:
            params["temperature"] = self.spec.temperature
        if self.spec.repeat_penalty is not None:
            params["repeat_penalty"] = self.spec.repeat_penalty
        if self.settings.repair.grammar:
            params["response_format"] = {"type": "json_object", "schema": self.schema, "name": self.spec.name}
        return params

    def warmer(self, attempt: int) -> dict:
        """Retries sample a little hotter: a small model otherwise repeats its invalid reply."""
        params = self.params()
        if attempt == 1:
            return params
        base = params.get("temperature", getattr(self.settings.models, self.spec.role).temperature)
        return {**params, "temperature": min(1.2, base + RETRY_WARMING * (attempt - 1))}

    def afresh(self, attempt: int) -> dict:
        """The prompt asked again after a repeated reply: hotter still, and another seed (the role's
        seed plus the attempt, so a run stays reproducible)."""
        params = self.warmer(attempt)
        seed = getattr(self.settings.models, self.spec.role).seed
        return {
            **params,
            "temperature": min(1.2, params["temperature"] + RETRY_WARMING),
            "seed": (seed if seed is not None and seed >= 0 else 0) + attempt,
        }
