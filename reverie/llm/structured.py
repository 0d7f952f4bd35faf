"""The structured chain: prompt file + task schema -> a checked Pydantic object.

``chain.invoke({"name", "inputs", "choices"?}, config)`` runs one ask as a LangChain run:
the :class:`~reverie.llm.repair_loop.RepairLoop` (prompt | model | parser, again with the
corrections) under the caller's ``RunnableConfig``. Out of attempts: the task's
fail-safe (logged), or :class:`StructuredOutputError` with ``[repair] strict``. A model server
that fails for good raises :class:`~reverie.llm.server_errors.BackendLost` instead: no fail-safe
stands in for an answer the server never gave, and every later ask raises it too. The run's
metadata says whose ask it is (``"persona"``) and when (``"step"``, ``"game_time"``).
When the ask is over the chain dispatches the custom event
:data:`~reverie.llm.ledger_callback.ASKED`, which the ledger's callback handler writes down
(and the call trace's, :mod:`reverie.llm.call_trace`, with the ask's inputs under ``"call"``).
"""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Callable
from typing import Any

from langchain_core.callbacks import CallbackManagerForChainRun, dispatch_custom_event
from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import ensure_config
from pydantic import BaseModel

from reverie.config import Settings
from reverie.engine_time import model_call
from reverie.errors import UserError
from reverie.llm.fail_safe_guard import fail_safe as guarded_fail_safe
from reverie.llm.ledger_callback import ASKED
from reverie.llm.prompt_size import Fitted
from reverie.llm.prompt_spec import PromptSpec, PromptStore
from reverie.llm.repair_loop import RepairLoop, render_messages
from reverie.llm.reply_parser import ReplyParser, extract_json
from reverie.llm.schema import NoChoices, call_schema, items_asked
from reverie.llm.server_errors import BackendLost
from reverie.llm.task import Task, TaskRegistry

__all__ = ["ReplyParser", "StructuredChain", "StructuredOutputError", "extract_json"]

log = logging.getLogger("reverie.llm")


class StructuredOutputError(UserError):
    """Strict mode: the model gave no valid reply within the allowed attempts."""


class StructuredChain(Runnable[dict, BaseModel]):
    """``invoke({"name", "inputs", "choices"?}, config) -> the task's schema instance``.

    ``models(role)`` gives the chat model a role's calls go to (a cassette's, when one
    records or replays); ``defaults()`` the config every ask starts from (the ledger's
    callback handler, the clock's metadata), merged under the caller's."""

    def __init__(
        self,
        settings: Settings,
        *,
        models: Callable[[str], Runnable[LanguageModelInput, BaseMessage]],
        prompts: PromptStore,
        tasks: TaskRegistry,
        replaying: bool = False,
        defaults: Callable[[], RunnableConfig] = lambda: {},
    ):
        self.settings, self.models, self.prompts, self.tasks = settings, models, prompts, tasks
        self.replaying, self.defaults = replaying, defaults
        self._checked: dict[str, PromptSpec] = {}  # the prompt files checked against their task's inputs
        # Set once the model server is lost (or refuses for good): this ask and every later one
        # raise it, no fail-safe is used, and the run stops without saving the step
        # (see reverie.llm.server_errors).
        self.backend_lost: BackendLost | None = None

    def task(self, name: str) -> Task:
        """The task of prompt ``name`` (the one place the chain looks tasks up), its prompt
        file checked to list exactly the task's inputs."""
        task = self.tasks[name]
        spec = self.prompts.get(name)
        if self._checked.get(name) is not spec:  # once per loaded prompt file (an edited file loads anew)
            task.check_prompt(spec)
            self._checked[name] = spec
        return task

    def invoke(self, input: dict, config: RunnableConfig | None = None, **kwargs: Any) -> BaseModel:
        return self._call_with_config(self._ask, input, self._with_defaults(config), run_type="chain", **kwargs)

    def ask(
        self, name: str, inputs: dict, *, choices: dict | None = None, config: RunnableConfig | None = None
    ) -> BaseModel:
        """``invoke`` with its input spelled out."""
        return self.invoke({"name": name, "inputs": inputs, "choices": choices}, config)

    def render(self, name: str, inputs: dict, *, choices: dict | None = None) -> list[BaseMessage]:
        """The messages of a first attempt, exactly as the model would get them."""
        task = self.task(name)
        return render_messages(
            self.prompts.get(name),
            task.completed(inputs),
            call_schema(task.schema, choices),
            grammar=self.settings.repair.grammar,
        )

    def max_tokens(self, name: str, *, choices: dict | None = None) -> int:
        """The reply limit of one call of this prompt (with these choices: the items they ask for)."""
        spec = self.prompts.get(name)
        items = items_asked(call_schema(self.task(name).schema, choices)) if choices else 0
        return spec.reply_tokens(getattr(self.settings.models, spec.role).max_tokens, items)

    def measure(self, name: str, inputs: dict, *, choices: dict | None = None) -> Fitted:
        """The first attempt's prompt as it would be sent: cut to the context window, with
        the tokens it had before (``prompt_tokens + trimmed_tokens``). Loads the model."""
        choices = {key: list(values) for key, values in (choices or {}).items()}
        task = self.task(name)
        return self._loop(name, call_schema(task.schema, choices), choices).fitted(task.completed(inputs), [])

    def parser(self, name: str, inputs: dict, *, choices: dict | None = None) -> ReplyParser:
        """The output parser of one call of prompt ``name``."""
        task = self.task(name)
        return ReplyParser(
            reply_model=task.schema,
            call_schema=call_schema(task.schema, choices),
            inputs=task.completed(inputs),
            choices=dict(choices or {}),
            task_name=name,
            task=task,
        )

    # -- one ask -----------------------------------------------------------------------

    def _with_defaults(self, config: RunnableConfig | None) -> RunnableConfig:
        """``config`` with the default metadata under its own and the default handlers added."""
        config, base = ensure_config(config), self.defaults()
        metadata = {**(base.get("metadata") or {}), **(config.get("metadata") or {})}
        callbacks, extra = config.get("callbacks"), list(base.get("callbacks") or [])
        if callbacks is None or isinstance(callbacks, list):
            callbacks = [*(callbacks or []), *(h for h in extra if h not in (callbacks or []))]
        else:  # a callback manager
            callbacks = callbacks.copy()
            for handler in extra:
                if handler not in callbacks.handlers:
                    callbacks.add_handler(handler, inherit=True)
        return {**config, "metadata": metadata, "callbacks": callbacks}

    def _loop(self, name: str, schema: dict, choices: dict) -> RepairLoop:
        spec = self.prompts.get(name)
        return RepairLoop(
            self.settings,
            task=self.task(name),
            spec=spec,
            schema=schema,
            choices=choices,
            model=lambda: self.models(spec.role),
            replaying=self.replaying,
        )

    def _ask(self, input: dict, run_manager: CallbackManagerForChainRun, config: RunnableConfig) -> BaseModel:
        name = input["name"]
        task, spec = self.task(name), self.prompts.get(name)
        inputs = task.completed(copy.deepcopy(dict(input["inputs"])))
        choices = {key: list(values) for key, values in (input.get("choices") or {}).items()}
        missing = [key for key in spec.inputs if key not in inputs]
        if missing:
            raise ValueError(f"prompt {name!r} needs inputs {missing}")

        started = time.perf_counter()
        try:
            schema = call_schema(task.schema, choices)
        except NoChoices as exc:
            result, attempts, errors, trimmed = None, 0, [str(exc)], 0
        else:
            if self.backend_lost is not None:  # another ask (another thread) lost the server
                raise type(self.backend_lost)(str(self.backend_lost))
            try:
                with model_call():
                    outcome = self._loop(name, schema, choices).invoke(inputs, config)
            except BackendLost as exc:
                self.backend_lost = exc
                raise
            result, attempts, errors, trimmed = outcome.result, outcome.attempts, outcome.errors, outcome.trimmed_tokens
        metadata = config.get("metadata") or {}
        entry = dict(
            prompt=name,
            role=spec.role,
            persona=metadata.get("persona"),
            step=metadata.get("step"),
            game_time=metadata.get("game_time"),
            attempts=attempts,
            errors=errors,
            latency_s=round(time.perf_counter() - started, 3),
            trimmed_tokens=trimmed,
            # For the call trace (reverie.llm.call_trace); the ledger keeps only its own fields.
            call=dict(
                inputs=inputs,
                choices=choices,
                prompt_file=spec.path.name,
                system_line=spec.system_line,
                user_line=spec.user_line,
            ),
        )
        if result is not None:
            dispatch_custom_event(ASKED, dict(entry, valid=True, fallback=False), config=config)
            return result
        if self.settings.repair.strict:
            dispatch_custom_event(ASKED, dict(entry, valid=False, fallback=False), config=config)
            raise StructuredOutputError(
                f"prompt '{name}': no valid reply after {attempts} attempt(s) — {' | '.join(errors[-3:])}"
            )
        log.warning("prompt %s: fail-safe used after %d attempt(s): %s", name, attempts, errors)
        dispatch_custom_event(ASKED, dict(entry, valid=False, fallback=True), config=config)
        return guarded_fail_safe(task, inputs, choices)
