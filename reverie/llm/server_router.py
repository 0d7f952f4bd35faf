"""One run over several OpenAI-compatible servers (``[[backend.servers]]``), through LiteLLM's Router.

Each server is one LiteLLM deployment per role (model group ``"strong"``, ``"cheap"``), and LiteLLM
makes every call: it picks a deployment with :class:`HomeFirst` (our routing strategy), cools a
server down when a call fails on it, and makes the call again on another (its retries). Per call:

- the persona's home server (the least homed one, per slot, on its first call) while it is
  healthy and has a free slot: a resident's calls keep landing where its prompt prefix is cached;
- else the least busy healthy server (calls in flight per slot), so that every slot is used;
- a server LiteLLM cooled down (refused or dropped connection, no reply within ``[backend]
  timeout_s``, 5xx) gets no calls until its cooldown ends; its residents find another home. Only
  when no server is left does the call fail, with one line naming them
  (:class:`~reverie.llm.server_errors.ServerFailing`: the run stops without saving the step).

The request body is the picked server's own (:meth:`ServerChatModel.request_body`: llama-server's
grammar and slot, vLLM's, Ollama's, LM Studio's ``json_schema``), sent through that server's OpenAI
client, whose deadline is ``[backend] timeout_s``; its reply is read by the same server's chat model,
so the ledger gets the answering server, its tokens and cached tokens as from one server.

LiteLLM is imported here only, and only when several servers are configured: one server needs no
router, and its import takes seconds. It is kept offline (:func:`_litellm`).
"""

from __future__ import annotations

import itertools
import logging
import os
import sys
import threading
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult

from reverie.llm.server_errors import BackendLost, Failure, ServerFailing, classify, describe, unwrap
from reverie.llm.servers import persona_of

log = logging.getLogger("reverie.llm")

# A server that failed is out of the picks this long (LiteLLM's cooldown); then it is asked again.
COOLDOWN_S = 60.0
# LiteLLM's own sources the import would otherwise fetch from the internet.
_LOCAL_SOURCES = (
    "LITELLM_LOCAL_MODEL_COST_MAP",
    "LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS",
    "LITELLM_LOCAL_AUTOROUTER_PRESETS",
    "LITELLM_LOCAL_BLOG_POSTS",
    "LITELLM_LOCAL_POLICY_TEMPLATES",
)


def _litellm() -> Any:
    """LiteLLM, offline: its bundled tables instead of downloads, no callbacks, no debug lines
    (which could show a request's headers)."""
    for name in _LOCAL_SOURCES:
        os.environ[name] = "True"
    import litellm

    litellm.suppress_debug_info = True
    litellm.turn_off_message_logging = True
    litellm.disable_hf_tokenizer_download = True
    litellm.success_callback, litellm.failure_callback, litellm.callbacks = [], [], []
    for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy"):  # its debug lines show requests
        logging.getLogger(name).setLevel(logging.WARNING)
    return litellm


def _base() -> type:
    from litellm.types.router import CustomRoutingStrategyBase

    return CustomRoutingStrategyBase


class HomeFirst:
    """Which server takes a call (LiteLLM's custom routing strategy; thread-safe).

    ``routes[i][role]`` is server ``i``'s chat model of a role. Calls are registered by
    :class:`RoutedChatModel` under a token in their metadata (``"reverie_call"``), so that the pick
    can write the picked server's own request into LiteLLM's request, on every retry."""

    def __init__(self, routes: list[dict[str, Any]], slots: list[int]):
        self.routes = routes
        self.slots = [max(1, int(n)) for n in slots]
        self.urls = [str(next(iter(r.values())).openai_api_base) for r in routes]
        self.sessions = [next(iter(r.values())).session for r in routes]
        self.busy = [0] * len(routes)
        self._home: dict[str, int] = {}
        self._homed = [0] * len(routes)
        self._held: dict[int, int] = {}  # call token -> the server its current try is on
        self._asks: dict[
            int, tuple[list[BaseMessage], list[str] | None, dict[str, Any], str | None, list[str]]
        ] = {}  # call token -> (messages, stop, kwargs, persona, keys set)
        self._down: dict[int, str] = {}  # servers said to be lost, and why
        self._tokens = itertools.count()
        self._lock = threading.Lock()
        self.router: Any = None
        self.build()

    @staticmethod
    def deployment_id(server: int, role: str) -> str:
        return f"{role}@{server}"

    def build(self) -> None:
        """A new LiteLLM Router over the servers (cooldowns forgotten: every server asked again)."""
        litellm = _litellm()
        deployments = [
            {
                "model_name": role,
                "litellm_params": {
                    "model": f"openai/{model.model_name}",
                    "api_base": url,
                    "api_key": model.openai_api_key.get_secret_value() if model.openai_api_key else "none",
                    "timeout": model.request_timeout,
                },
                "model_info": {"id": self.deployment_id(i, role)},
            }
            for i, (url, models) in enumerate(zip(self.urls, self.routes))
            for role, model in models.items()
        ]
        router = litellm.Router(
            model_list=deployments,
            num_retries=len(self.routes) - 1,  # each server tried at most once per call
            retry_after=0,
            allowed_fails=0,  # one failed call cools its server down
            cooldown_time=COOLDOWN_S,
        )
        router.register_plugin(type("HomeFirstStrategy", (_base(),), {"get_available_deployment": self._pick})())
        self._deployments = {d["model_info"]["id"]: d for d in router.registry().deployments(source="group")}
        with self._lock:
            self._down.clear()
            self.router = router

    def register(
        self, messages: list[BaseMessage], stop: list[str] | None, kwargs: dict[str, Any], persona: str | None
    ) -> int:
        token = next(self._tokens)
        self._asks[token] = (messages, stop, kwargs, persona, [])
        return token

    def done(self, token: int) -> None:
        self._asks.pop(token, None)
        with self._lock:
            held = self._held.pop(token, None)
            if held is not None:
                self.busy[held] -= 1

    def cooling(self, why: str | None = None) -> set[int]:
        """Servers LiteLLM has cooled down (any of their deployments); each said once, with why."""
        ids = list(self._deployments)
        cold = {int(i.rsplit("@", 1)[1]) for i, _ in self.router.health().cooldowns.get_active_cooldowns(ids, None)}
        with self._lock:
            for server in sorted(cold - set(self._down)):
                self._down[server] = why or "a call failed on it"
                self._say(server, self._down[server], len(self.routes) - len(cold))
            for server in set(self._down) - cold:
                del self._down[server]  # its cooldown is over: asked again
        return cold

    def _say(self, server: int, why: str, left: int) -> None:
        for persona in [p for p, i in self._home.items() if i == server]:
            del self._home[persona]  # re-homed on its next call
        line = (
            f"[backend] model server {self.urls[server]} lost ({why}); "
            f"cooled down for {COOLDOWN_S:g} s, {left} of {len(self.routes)} left"
        )
        print(line, file=sys.stderr)
        log.warning("%s", line)

    def _pick(
        self,
        model: str,
        messages: Any = None,
        input: Any = None,
        specific_deployment: bool | None = False,
        request_kwargs: dict[str, Any] | None = None,
    ) -> Any:
        request = request_kwargs if request_kwargs is not None else {}
        metadata = request.get("metadata") or {}
        token = int(metadata["reverie_call"])
        tried = metadata.get("previous_models") or ()  # LiteLLM's record of this call's failed tries
        cold = self.cooling(" ".join(str(tried[-1].get("exception_string", "")).split())[:160] if tried else None)
        with self._lock:
            held = self._held.pop(token, None)
            if held is not None:
                self.busy[held] -= 1  # its try there failed: LiteLLM asks again
            live = [i for i in range(len(self.routes)) if i not in cold]
            if not live:
                raise self.none_left()
            messages_, stop, kwargs, persona, keys = self._asks[token]
            server = self._choose(persona, live)
            self.busy[server] += 1
            self._held[token] = server
        body = self.routes[server][model].request_body(messages_, stop, kwargs, persona)
        for key in keys:  # the fields of a server tried before
            request.pop(key, None)
        keys[:] = [k for k in body if k not in ("model", "messages", "stream")]
        request.update({k: body[k] for k in keys})
        request["client"] = self.routes[server][model].root_client  # its deadline, its key
        return self._deployments[self.deployment_id(server, model)]

    def _choose(self, persona: str | None, live: list[int]) -> int:
        home = self._home.get(persona) if persona is not None else None
        if persona is not None and home not in live:
            home = min(live, key=lambda i: (self._homed[i] / self.slots[i], self.busy[i] / self.slots[i], i))
            self._home[persona] = home
            self._homed[home] += 1
        if home is not None and self.busy[home] < self.slots[home]:
            return home
        return min(live, key=lambda i: (self.busy[i] / self.slots[i], self._homed[i] / self.slots[i], i))

    def none_left(self) -> ServerFailing:
        return ServerFailing(
            f"[backend] every model server is lost ({', '.join(self.urls)}) — start them again and run again; "
            "this step was not saved"
        )

    def revive(self) -> None:
        """Ask every server again (a new run after they were lost)."""
        self.build()

    def check(self) -> None:
        """Check every server before the run's first step (identity, model, the structured-output
        probe): one that cannot serve is cooled down with a line; none left stops the run."""
        for index, session in enumerate(self.sessions):
            try:
                session.check()
            except BackendLost as exc:
                if type(exc) is not BackendLost and not isinstance(exc, ServerFailing):
                    raise  # a refused key, a missing model, a refused schema: the configuration is wrong
                for role in self.routes[index]:
                    self.router.health().cooldowns.add_deployment_to_cooldown(
                        self.deployment_id(index, role), exc, 503, COOLDOWN_S
                    )
                self.cooling(str(exc).split(" — ", 1)[0])
        if len(self.cooling()) == len(self.routes):
            raise self.none_left()


class _Checks:
    """What ``LLM.check_backend`` calls: every server checked (see :meth:`HomeFirst.check`)."""

    def __init__(self, router: HomeFirst):
        self.router = router

    def check(self) -> None:
        self.router.check()


class RoutedChatModel(BaseChatModel):
    """A role's chat model over several servers: each call made by LiteLLM's Router."""

    role: str
    router: Any  # HomeFirst, shared by the roles

    @property
    def _llm_type(self) -> str:
        return "reverie-routed"

    @property
    def session(self) -> _Checks:
        return _Checks(self.router)

    def count_prompt_tokens(self, messages: list[BaseMessage]) -> int:
        counted: int = self.router.routes[0][self.role].count_prompt_tokens(messages)
        return counted

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        router: HomeFirst = self.router
        token = router.register(messages, stop, kwargs, persona_of(run_manager))
        try:
            sent = router.routes[0][self.role]._get_request_payload(messages, stop=stop)["messages"]
            reply = router.router.completion(model=self.role, messages=sent, metadata={"reverie_call": token})
        except BackendLost:
            raise
        except Exception as exc:
            real = unwrap(exc)  # the OpenAI client's error: what the retry policy and the stops read
            cold = router.cooling(describe(real))
            if len(cold) == len(router.routes) and classify(real) not in (Failure.AUTH, Failure.REFUSED):
                raise router.none_left() from exc
            raise real from real.__cause__  # its own cause kept: classify reads what the client saw
        finally:
            router.done(token)
        server = int(str(reply._hidden_params["model_id"]).rsplit("@", 1)[1])
        result: ChatResult = router.routes[server][self.role]._create_chat_result(reply.model_dump())
        return result
