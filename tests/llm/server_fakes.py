"""Fake model servers on loopback for contract tests (fakes, not models): each answers the GET
endpoints its server documents with that server's documented body, records every chat request,
and replies with a documented chat response, or with the documented error reply when the
request asks for a model it does not serve or a structured-output form it refuses.

The bodies below follow each server's own documentation:

- llama.cpp ``llama-server`` (tools/server/README.md of the vendored llama.cpp): ``GET /props``
  with ``total_slots``, ``model_path``, ``build_info``; chat replies carry ``usage`` with
  ``prompt_tokens_details.cached_tokens`` and ``timings`` (``cache_n``, ``prompt_n``, …); errors are
  ``{"error": {"code", "message", "type"}}``.
- vLLM (docs.vllm.ai, OpenAI-compatible server): ``GET /version``; ``/v1/models`` with
  ``owned_by = "vllm"`` and ``max_model_len``; errors ``{"error": {"message", "type", "param", "code"}}``,
  404 for an unknown model.
- Ollama (docs.ollama.com, OpenAI compatibility): ``GET /api/version``; a model missing:
  404 ``model "x" not found, try pulling it first``; usage without cache details.
- LM Studio (lmstudio.ai/docs, REST API v0 and structured output): ``GET /api/v0/models`` with
  ``type``, ``state``, ``compatibility_type``; ``response_format`` must be ``json_schema``.
- llama-cpp-python's server (its FastAPI app): ``/openapi.json`` titled "🦙 llama.cpp Python API";
  a ``json_schema`` request is a 422 validation error on ``response_format.type``.
"""

from __future__ import annotations

import json
from typing import Callable

from tests.loopback_server import LoopbackFake, QuietHandler

REPLY = '{"hour": 8, "place": "kitchen"}'
NOT_FOUND = 404, {"error": "not found"}


def chat_reply(model: str, *, usage: dict, extra: dict | None = None, content: str = REPLY) -> dict:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1757141666,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": usage,
        **(extra or {}),
    }


def error_reply(status: int, message: str, kind: str, **fields: object) -> tuple[int, dict]:
    """An OpenAI-style error reply: ``{"error": {"message", "type", ...fields}}`` with ``status``."""
    return status, {"error": {"message": message, "type": kind, **fields}}


class FakeServer(LoopbackFake):
    """``gets``: path -> JSON body (200); ``chat(request) -> (status, body)``. Records chat requests."""

    def __init__(self, gets: dict[str, object], chat: Callable[[dict], tuple[int, object]]):
        super().__init__()
        self.gets, self.chat = gets, chat
        self.requests: list[dict] = []

    def handle(self, handler: QuietHandler, method: str) -> None:
        if method == "GET":
            handler.send_json(*((200, self.gets[handler.path]) if handler.path in self.gets else NOT_FOUND))
            return
        request = json.loads(self.read_body(handler))
        if handler.path != "/v1/chat/completions":
            handler.send_json(*NOT_FOUND)
            return
        self.requests.append(request)
        handler.send_json(*self.chat(request))


# -- one fake per server ------------------------------------------------------------------------


def llama_server(*, slots: int = 4, timings_only: bool = False) -> FakeServer:
    def chat(request):
        schema = (request.get("response_format") or {}).get("json_schema", {}).get("schema")
        if request.get("response_format") and not isinstance(schema, dict):
            return error_reply(400, "JSON schema conversion failed", "invalid_request_error", code=400)
        if "grammar" in request and (request.get("response_format") or not isinstance(request["grammar"], str)):
            return error_reply(400, "Cannot use both json_schema and grammar", "invalid_request_error", code=400)
        usage = {"completion_tokens": 12, "prompt_tokens": 120, "total_tokens": 132}
        if not timings_only:
            usage["prompt_tokens_details"] = {"cached_tokens": 96}
        timings = {
            "cache_n": 96,
            "prompt_n": 24,
            "prompt_ms": 30.9,
            "prompt_per_token_ms": 1.3,
            "prompt_per_second": 776.0,
            "predicted_n": 12,
            "predicted_ms": 66.1,
            "predicted_per_token_ms": 5.5,
            "predicted_per_second": 181.5,
        }
        return 200, chat_reply("gpt-3.5-turbo", usage=usage, extra={"timings": timings})

    props = {
        "default_generation_settings": {"n_ctx": 2048, "params": {}},
        "total_slots": slots,
        "model_path": "/models/SmolLM2-135M-Instruct.Q4_1.gguf",
        "chat_template": "...",
        "build_info": "b6999-0c1e570",
        "modalities": {"vision": False},
        "is_sleeping": False,
    }
    models = {
        "object": "list",
        "data": [
            {
                "id": "SmolLM2-135M-Instruct.Q4_1.gguf",
                "object": "model",
                "created": 1757141666,
                "owned_by": "llamacpp",
                "meta": {},
            }
        ],
    }
    return FakeServer({"/props": props, "/v1/models": models}, chat)


def vllm(model: str = "Qwen/Qwen2.5-7B-Instruct") -> FakeServer:
    def chat(request):
        if request.get("model") != model:
            message = f"The model `{request.get('model')}` does not exist."
            return error_reply(404, message, "NotFoundError", param="model", code=404)
        if (request.get("response_format") or {}).get("type") not in (None, "text", "json_object", "json_schema"):
            return error_reply(400, "response_format: invalid type", "BadRequestError", param=None, code=400)
        usage = {
            "prompt_tokens": 120,
            "total_tokens": 132,
            "completion_tokens": 12,
            "prompt_tokens_details": {"cached_tokens": 64},
        }
        return 200, chat_reply(model, usage=usage, extra={"prompt_logprobs": None})

    models = {
        "object": "list",
        "data": [
            {
                "id": model,
                "object": "model",
                "created": 1757141666,
                "owned_by": "vllm",
                "root": model,
                "parent": None,
                "max_model_len": 32768,
                "permission": [],
            }
        ],
    }
    return FakeServer({"/version": {"version": "0.11.0"}, "/v1/models": models}, chat)


def ollama(model: str = "llama3.2:latest") -> FakeServer:
    def chat(request):
        if request.get("model") not in (model, model.removesuffix(":latest")):
            message = f'model "{request.get("model")}" not found, try pulling it first'
            return error_reply(404, message, "api_error", param=None, code=None)
        usage = {"prompt_tokens": 120, "completion_tokens": 12, "total_tokens": 132}
        return 200, chat_reply(model, usage=usage, extra={"system_fingerprint": "fp_ollama"})

    models = {
        "object": "list",
        "data": [{"id": model, "object": "model", "created": 1757141666, "owned_by": "library"}],
    }
    return FakeServer({"/api/version": {"version": "0.12.3"}, "/v1/models": models}, chat)


def lmstudio(model: str = "qwen2.5-7b-instruct") -> FakeServer:
    def chat(request):
        if request.get("model") != model:
            message = f"Model '{request.get('model')}' not found"
            return error_reply(404, message, "invalid_request_error", param="model", code="model_not_found")
        kind = (request.get("response_format") or {}).get("type")
        if kind not in (None, "json_schema", "text"):
            return 400, {"error": "'response_format.type' must be 'json_schema' or 'text'"}
        usage = {"prompt_tokens": 120, "completion_tokens": 12, "total_tokens": 132}
        return 200, chat_reply(model, usage=usage, extra={"stats": {}, "system_fingerprint": model})

    native = {
        "object": "list",
        "data": [
            {
                "id": model,
                "object": "model",
                "type": "llm",
                "publisher": "lmstudio-community",
                "arch": "qwen2",
                "compatibility_type": "gguf",
                "quantization": "Q4_K_M",
                "state": "loaded",
                "max_context_length": 32768,
            }
        ],
    }
    models = {"object": "list", "data": [{"id": model, "object": "model", "owned_by": "organization_owner"}]}
    return FakeServer({"/api/v0/models": native, "/v1/models": models}, chat)


def llama_cpp_python() -> FakeServer:
    def chat(request):
        kind = (request.get("response_format") or {}).get("type")
        if kind not in (None, "text", "json_object"):
            return 422, {
                "detail": [
                    {
                        "type": "literal_error",
                        "loc": ["body", "response_format", "type"],
                        "msg": "Input should be 'text' or 'json_object'",
                        "input": kind,
                    }
                ]
            }
        usage = {"prompt_tokens": 120, "completion_tokens": 12, "total_tokens": 132}
        return 200, chat_reply("model.gguf", usage=usage)

    spec = {"openapi": "3.1.0", "info": {"title": "🦙 llama.cpp Python API", "version": "0.0.1"}, "paths": {}}
    models = {"object": "list", "data": [{"id": "model.gguf", "object": "model", "owned_by": "me", "permissions": []}]}
    return FakeServer({"/openapi.json": spec, "/v1/models": models}, chat)


# Each kind of server: its fake and the model name a configuration asks it for.
SERVERS = {
    "llama.cpp": (llama_server, "local"),
    "vllm": (vllm, "Qwen/Qwen2.5-7B-Instruct"),
    "ollama": (ollama, "llama3.2"),
    "lmstudio": (lmstudio, "qwen2.5-7b-instruct"),
    "llama-cpp-python": (llama_cpp_python, "local"),
}
