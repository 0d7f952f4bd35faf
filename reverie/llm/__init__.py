"""Typed answers from local chat models: ``LLM.ask(TASK, TASK.inputs(...)) -> the task's reply model``.

    llm: LanguageModel = LLM.from_settings(settings, tasks=product_tasks(),
                                           ledger_path=sim / "reverie" / "llm_calls.jsonl",
                                           trace_path=sim / "reverie" / "llm_trace.jsonl")
    answer = llm.ask(WAKE_UP_HOUR, WakeUpInputs(identity=..., lifestyle=..., first_name=...),
                     persona="Isabella Rodriguez")  # a WakeUpHourReply, for a type checker too

``LLM`` is the :class:`~reverie.llm.language_model.LanguageModel` cognition is written against
(the interface declares the typed forms of ``ask``).

Everything else (prompt files, grammar, repair, fail-safe, accounting, record/replay)
happens inside; see :mod:`reverie.llm.structured`. Each ask is a LangChain run: a
``config={"callbacks": [...], "metadata": {...}}`` given to ``ask`` reaches every model
call; the ledger is such a handler (:mod:`reverie.llm.ledger_callback`), the cassette
a chat model wrapping the real one (:mod:`reverie.llm.cassette_model`), and the retries on
server failures another (:mod:`reverie.llm.retry_model`).
"""

from __future__ import annotations

import contextvars
import json
import sys
import threading
from pathlib import Path
from typing import Any, TypedDict, Unpack, cast

from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig
from pydantic import BaseModel

from reverie.config import BackendKind, Settings
from reverie.errors import naming
from reverie.llm.call_trace import TraceCallback
from reverie.llm.cassette import Cassette, CassetteMiss
from reverie.llm.cassette_model import taped_model
from reverie.llm.language_model import LanguageModel
from reverie.llm.ledger import Ledger
from reverie.llm.ledger_callback import LedgerCallback
from reverie.llm.prompt_spec import PromptStore
from reverie.llm.retry_model import RetryingModel, RetryPolicy, ServerHealth
from reverie.llm.server_errors import BackendLost
from reverie.llm.structured import StructuredChain, StructuredOutputError
from reverie.llm.task import Choices, Task, TaskRegistry, given_values

__all__ = ["LLM", "CassetteMiss", "LanguageModel", "RunFiles", "StructuredOutputError"]


class RunFiles(TypedDict, total=False):
    """Where an :class:`LLM` keeps a run's files (each optional): the ledger of its calls, the
    calls kept whole, and a cassette to record every reply to or to replay them from."""

    ledger_path: Path | None
    trace_path: Path | None
    record: Path | None
    replay: Path | None


class LLM(LanguageModel):
    """The facade cognition uses. ``tasks``: the prompts it can ask (``reverie.tasks.registry``);
    ``chat_models`` (tests): ``{"strong": m, "cheap": m}``; ``files``: :class:`RunFiles`."""

    def __init__(
        self,
        settings: Settings,
        *,
        tasks: TaskRegistry,
        chat_models: dict[str, BaseChatModel] | None = None,
        **files: Unpack[RunFiles],
    ):
        # An unknown keyword fails as it would on a signature written out (mypy checks typed callers).
        for name in files.keys() - RunFiles.__annotations__.keys():
            raise TypeError(f"LLM() got an unexpected keyword argument {name!r}")
        record, replay, trace_path = files.get("record"), files.get("replay"), files.get("trace_path")
        if record and replay:
            raise ValueError("record and replay cannot both be set")
        self.settings, self.tasks = settings, tasks
        self.ledger = Ledger(files.get("ledger_path"))
        self._ledger_handler = LedgerCallback(self.ledger)
        # Each call kept whole (with [trace] calls = true and a path): see reverie.llm.call_trace.
        self.trace = (
            TraceCallback(trace_path, int(settings.trace.max_mb * 1024 * 1024))
            if trace_path and settings.trace.calls
            else None
        )
        self._models = dict(chat_models) if chat_models else None
        self._models_lock = threading.Lock()
        self._metadata: dict = {}  # merged into every ask's metadata (the clock)
        # The clock of the thread that asks, when it set its own (residents who run ahead of
        # each other think at different steps at once); else the shared one above.
        self._clock: contextvars.ContextVar[dict | None] = contextvars.ContextVar(f"llm_clock_{id(self)}", default=None)
        self.cassette = Cassette(record, "record") if record else Cassette(replay, "replay") if replay else None
        self._taped: dict[str, BaseChatModel] = {}
        self._health = ServerHealth()  # the server's failures in a row, across roles and threads
        self.chain = StructuredChain(
            settings,
            models=self._chat_model,
            prompts=PromptStore(settings.paths.prompts),
            replaying=self.replaying,
            tasks=tasks,
            defaults=lambda: {
                "callbacks": [self._ledger_handler, *([self.trace] if self.trace else [])],
                "metadata": self._clock.get() or self._metadata,
            },
        )

    @classmethod
    def from_settings(cls, settings: Settings, *, tasks: TaskRegistry, **files: Unpack[RunFiles]) -> LLM:
        """Models are loaded by :meth:`check_backend` at a run's start, or by the first call that
        needs one (never when replaying)."""
        return cls(settings, tasks=tasks, **files)

    def _model(self, role: str) -> BaseChatModel:
        with self._models_lock:
            if self._models is None:
                from reverie.llm.models import build_chat_models

                self._models = build_chat_models(self.settings)
                self._announce_templates()
        return self._models[role]

    def _chat_model(self, role: str) -> Runnable[LanguageModelInput, BaseMessage]:
        """What the chain calls for ``role``: the model, wrapped in the cassette when there is
        one, its calls retried on server failures unless they are replayed."""
        if self.replaying:
            return self._taped_model(role)
        return RetryingModel(self._taped_model(role), RetryPolicy.of(self.settings.backend, self._health))

    def _taped_model(self, role: str) -> BaseChatModel:
        if self.cassette is None:
            return self._model(role)
        if role not in self._taped:
            inner = None if self.cassette.replaying else self._model(role)
            with self._models_lock:
                self._taped.setdefault(role, taped_model(inner, self.cassette))
        return self._taped[role]

    def _announce_templates(self) -> None:
        """Say once how each role's chat template treats the system text, and keep it
        beside the ledger (``chat_templates.json``)."""
        reports = {
            role: model.template
            for role, model in (self._models or {}).items()
            if getattr(model, "template", None) is not None
        }
        for line in dict.fromkeys(report.line() for report in reports.values()):
            print(line, file=sys.stderr)
        if reports and self.ledger.path:
            target = self.ledger.path.with_name("chat_templates.json")
            with naming(target):
                target.write_text(
                    json.dumps({role: r.as_dict() for role, r in reports.items()}, indent=2), encoding="utf-8"
                )

    def ask(
        self,
        task: Any,
        inputs: Any,
        *,
        choices: Choices | None = None,
        persona: str | None = None,
        config: RunnableConfig | None = None,
    ) -> Any:
        """The task's reply (fail-safe when the model never gets it right). ``task``: a task of
        this LLM's registry with its inputs model, or a prompt name with a dict of inputs (the
        typed forms are :class:`LanguageModel`'s).

        ``persona`` is a shortcut for ``config={"metadata": {"persona": ...}}``; ``config``
        (callbacks, tags, metadata) reaches every model call of this ask."""
        if isinstance(task, Task):
            if self.tasks.get(task.name) is not task:
                raise KeyError(f"task {task.name!r} is not the one this LLM was given under that name")
            task = task.name
        if isinstance(inputs, BaseModel):
            inputs = given_values(inputs)
        if persona is not None:
            metadata = {**((config or {}).get("metadata") or {}), "persona": persona}
            config = cast(RunnableConfig, {**(config or {}), "metadata": metadata})
        return self.chain.ask(task, inputs, choices=choices, config=config)

    @property
    def backend_lost(self) -> BackendLost | None:
        """The :class:`~reverie.llm.server_errors.BackendLost` once the model server is lost, else None."""
        return self.chain.backend_lost

    def check_backend(self) -> None:
        """A model server is identified and checked now, before a run's first step: a server
        that cannot be reached or says nothing within the probe's deadline, a refused API key,
        a wrong model name or a refused schema stops the run at once (see
        reverie.llm.server_probe), before anything is asked or saved. An in-process model is
        loaded now, so a model that cannot load stops the run before its first step rather
        than at its first call (after the embedding model has loaded)."""
        if self.replaying:
            return
        # Builds both roles' models (build_chat_models): an in-process model loads here, and has no session.
        session = getattr(self._model("strong"), "session", None)
        if session is not None:
            session.check()

    def reconnect(self) -> None:
        """Ask the model server again after it was lost (a new ``run``)."""
        self.chain.backend_lost = None
        self._health.answered()
        for model in (self._models or {}).values():
            getattr(getattr(model, "router", None), "revive", lambda: None)()  # several servers: all asked again

    @property
    def replaying(self) -> bool:
        """Answers come from a recording: no model is called."""
        return bool(self.cassette and self.cassette.replaying)

    @property
    def concurrent_calls(self) -> int:
        """The slots of the model servers together; 1 for an in-process model, which answers one
        call at a time, and for a replayed recording, which stays in the run's order."""
        backend = self.settings.backend
        if backend.kind != BackendKind.OPENAI or self.replaying:
            return 1
        return max(1, int(backend.total_slots))

    def set_clock(self, step: int, game_time: str) -> None:
        """The simulation step and game time of the following asks: merged into their
        metadata (``"step"``, ``"game_time"``), so the ledger lines and callbacks see them."""
        self._metadata = {"step": step, "game_time": game_time}
        self._clock.set(self._metadata)
