"""The chat model of a role on an OpenAI-compatible server (``[backend] kind = "openai"``).

Its own module, imported only when a server is configured: the OpenAI client is not loaded
in a process that loads a local model (on a CUDA build of llama.cpp, a model loaded after
``openai``'s import was seen to crash the process; models/README.md, "On a GPU").
"""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from langchain_openai import ChatOpenAI

from reverie.backend_settings import NO_KEY
from reverie.config import ModelSettings, ServerSettings, Settings
from reverie.llm.prompt_size import PER_MESSAGE_TOKENS, estimate_tokens
from reverie.llm.server_errors import NotACompletionReply, completion_problem
from reverie.llm.servers import cached_tokens, persona_of
from reverie.llm.zeroed_heap import zero_new_allocations

log = logging.getLogger(__name__)


class ServerChatModel(ChatOpenAI):
    """ChatOpenAI for an OpenAI-compatible server (llama-server, vLLM, Ollama, LM Studio, …).

    The schema goes in the request body as ``response_format``, in the form the server
    documents (:mod:`reverie.llm.servers`; the server is found on first use by
    :mod:`reverie.llm.server_probe`); it is not handed to the OpenAI client's parse helpers.
    The limit is sent as ``max_tokens``, which local servers honour (llama-cpp-python's
    server ignores ``max_completion_tokens``). Token counts come from the response's
    usage, never from a local tokenizer.
    """

    def _get_request_payload(self, input_, *, stop=None, **kwargs: Any) -> dict:
        payload = super()._get_request_payload(input_, stop=stop, **kwargs)
        if "max_completion_tokens" in payload:
            payload["max_tokens"] = payload.pop("max_completion_tokens")
        return payload

    exact_above: int = 1 << 30  # estimates above this many tokens are checked with the server's tokenizer
    _tokenize_url: Any = None  # the server's tokenize endpoint once found ("" when it has none)
    _tokenize_client: Any = None  # one client for every count: a client's set-up (TLS context) is not cheap

    def count_prompt_tokens(self, messages: list[BaseMessage]) -> int:
        """A safe estimate (the server renders its own template, which we do not see); near
        the window's edge, the server's own tokenizer counts the text when it has one."""
        estimate = estimate_tokens(messages)
        if estimate <= self.exact_above:
            return estimate
        text = "\n".join(str(m.content) for m in messages)
        counted = self._server_count(text)
        return estimate if counted is None else counted + PER_MESSAGE_TOKENS * len(messages)

    def _server_count(self, text: str) -> int | None:
        import httpx

        from reverie.llm.deadline import deadline_client

        base = str(self.openai_api_base or "").rstrip("/")
        root = base.removesuffix("/v1")
        # llama.cpp's server and vLLM: /tokenize at the root; llama-cpp-python's: /extras/tokenize.
        candidates = (
            [self._tokenize_url] if self._tokenize_url is not None else [f"{root}/tokenize", f"{base}/extras/tokenize"]
        )
        for url in filter(None, candidates):
            body = {"content": text, "input": text, "prompt": text, "model": self.model_name}
            if self._tokenize_client is None:
                self._tokenize_client = deadline_client(10.0, base)
            try:
                reply = self._tokenize_client.post(url, json=body)
                tokens = reply.json().get("tokens") if reply.status_code == 200 else None
            except (httpx.HTTPError, ValueError, AttributeError):
                tokens = None
            if isinstance(tokens, list):
                self._tokenize_url = url
                return len(tokens)
        self._tokenize_url = ""
        return None

    session: Any = None  # reverie.llm.server_probe.ServerSession: which server, checked on first use
    prompt_cache: bool = True

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        kwargs = self.shape(kwargs, persona_of(run_manager))
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)

    def shape(self, kwargs: dict[str, Any], persona: str | None) -> dict[str, Any]:
        """The call's keyword arguments with this server's own request fields: the chain asks in
        one form ({"type": "json_object", "schema": ...}); the server gets its own."""
        kwargs = dict(kwargs)
        response_format = kwargs.pop("response_format", None)
        repeat_penalty = kwargs.pop("repeat_penalty", None)  # a prompt's own; not an OpenAI field
        extra = dict(kwargs.get("extra_body") or {})
        if self.session is not None:
            server = self.session.found.server
            pins = self.session.pins
            extra.update(server.extra_body(prompt_cache=self.prompt_cache, slot=pins.slot(persona) if pins else None))
            if repeat_penalty is not None:
                if server.repeat_penalty_field:
                    extra[server.repeat_penalty_field] = repeat_penalty
                elif not self.session.warned_repeat_penalty:
                    self.session.warned_repeat_penalty = True
                    log.warning(
                        "%s takes no repeat_penalty on /v1: the prompts that set one are asked without it "
                        "(a Modelfile's PARAMETER repeat_penalty sets it for every prompt)",
                        server.label,
                    )
            if response_format and "schema" in response_format:
                extra.update(server.constraint(response_format["schema"], response_format.get("name") or "reply"))
                response_format = None
        if response_format:
            extra["response_format"] = response_format
        if extra:
            kwargs["extra_body"] = extra
        return kwargs

    def request_body(self, messages: list[BaseMessage], stop: list[str] | None, kwargs: dict, persona: str | None):
        """The request this server gets for a call (model, messages, sampling, ``extra_body``):
        what :meth:`_generate` sends, for a router that sends it."""
        return self._get_request_payload(messages, stop=stop, **self.shape(kwargs, persona))

    def _create_chat_result(self, response, generation_info=None) -> ChatResult:
        problem = completion_problem(response)
        if problem is not None:  # a web page, an empty choices list: the server's failure, not the model's answer
            raise NotACompletionReply(f"not a chat completion: {problem}")
        result = super()._create_chat_result(response, generation_info)
        for generation in result.generations:  # which server answered (the ledger's "server")
            generation.message.response_metadata["server"] = str(self.openai_api_base or "")
        reply = response if isinstance(response, dict) else response.model_dump()
        cached = cached_tokens(reply)  # usage.prompt_tokens_details, or llama-server's timings
        for generation in result.generations:
            usage = getattr(generation.message, "usage_metadata", None)
            if usage and cached is not None:
                usage["input_token_details"] = {
                    **(usage.get("input_token_details") or {}),
                    "cache_read": min(cached, usage["input_tokens"]),
                }
        return result


def server_models(settings: Settings, roles: tuple[str, ...]) -> dict[str, BaseChatModel]:
    """One chat model per role: a :class:`ServerChatModel` for one server, or for several
    (``[[backend.servers]]``) a :class:`~reverie.llm.server_router.RoutedChatModel`, LiteLLM's
    Router over one :class:`ServerChatModel` per server and role."""
    backend = settings.backend
    per_server = [_server_models(settings, roles, entry) for entry in backend.endpoints()]
    if len(per_server) == 1:
        return dict(per_server[0])
    from reverie.llm.server_router import HomeFirst, RoutedChatModel

    router = HomeFirst(per_server, [entry.parallel_slots for entry in backend.endpoints()])
    return {role: RoutedChatModel(role=role, router=router) for role in roles}


def _server_models(settings: Settings, roles: tuple[str, ...], entry: ServerSettings) -> dict[str, ServerChatModel]:
    """One :class:`ServerChatModel` per role on the server ``entry``, sharing one session with it."""
    from reverie.llm.deadline import deadline_client
    from reverie.llm.server_probe import ServerSession

    backend = settings.backend
    key = backend.key_for(entry)  # from the environment when named; never printed
    if key and key != NO_KEY:
        zero_new_allocations()  # freed requests carrying the key must not reach a file
    here = backend.model_copy(
        update={
            "base_url": entry.base_url,
            "server": entry.server,
            "servers": [],
            "parallel_slots": entry.parallel_slots,
            "api_key": key,
            "api_key_env": "",
        }
    )
    names = {role: entry.server_model or getattr(settings.models, role).server_model for role in roles}
    session = ServerSession(here, names, pin_slots=backend.slot_pinning)
    models: dict[str, ServerChatModel] = {}
    # One client for both roles: each request ends within [backend] timeout_s, its whole reply read.
    http_client = deadline_client(backend.timeout_s, entry.base_url)
    for role in roles:
        model: ModelSettings = getattr(settings.models, role)
        models[role] = ServerChatModel(
            session=session,
            prompt_cache=backend.prompt_cache,
            base_url=entry.base_url,
            api_key=key,
            model=names[role],
            temperature=model.temperature,
            top_p=model.top_p,
            max_tokens=model.max_tokens,
            seed=model.seed,
            timeout=backend.timeout_s,
            http_client=http_client,
            max_retries=0,  # retries are reverie.llm.retry_model's ([backend] retries)
            exact_above=model.n_ctx - model.max_tokens,
        )
    return models
