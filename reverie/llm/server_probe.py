"""Find out, once per run, which model server answers at ``[backend] base_url`` and whether it can serve us.

- ``[backend] server = "auto"``: the server is recognised by what it exposes: llama.cpp's
  ``GET /props`` (``total_slots``), Ollama's ``GET /api/version``, LM Studio's
  ``GET /api/v0/models``, vLLM's ``GET /version``, llama-cpp-python's OpenAPI title. A server
  none of these match gets OpenAI's ``json_schema`` request, and the start line says so.
- Nothing answers, or the server says nothing within the probe's deadline (``[backend]
  probe_timeout_s``, each request whole): :class:`~reverie.llm.server_errors.BackendLost`.
- The server refuses the API key (401, 403): :class:`~reverie.llm.server_errors.AuthRefused`.
- A server that serves several models and not the configured ``server_model``:
  :class:`~reverie.llm.server_errors.ModelMissing`.
- A server that refuses the structured-output request (checked with one tiny request
  before a run's first step, and on any later refusal):
  :class:`~reverie.llm.server_errors.SchemaRefused`; one whose answer to it is not a chat
  completion (a web page, no ``choices``): :class:`~reverie.llm.server_errors.NotAChatCompletion`.
  The tiny request gets the probe's deadline too; one that takes longer (a model still
  loading) is left to the run's first call and its deadline.

Each stops the run before its first step, with one line naming ``[backend]`` and what to fix.
The line saying what was found is printed once, on stderr.
"""

from __future__ import annotations

import logging
import sys
import threading
from typing import Any

from reverie.llm.deadline import deadline_client
from reverie.llm.server_errors import (
    AuthRefused,
    BackendLost,
    ModelMissing,
    NotAChatCompletion,
    SchemaRefused,
    completion_problem,
    refuses_schema,
)
from reverie.llm.servers import Found, Server, SlotPins, is_offline

log = logging.getLogger("reverie.llm")

PROBE_SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


def root_of(base_url: str) -> str:
    return base_url.rstrip("/").removesuffix("/v1")


def _json(client, url: str, *, first: bool = False) -> Any:
    """The JSON of a 200 reply to ``GET url``, else None. ``first``: the first request, whose
    failure to answer propagates (nothing answers at all, or it says nothing in time), as
    does its refusal of the API key."""
    import httpx

    try:
        reply = client.get(url)
    except httpx.TransportError:
        if first:
            raise
        return None
    if first and reply.status_code in (401, 403):
        raise AuthRefused(
            f"[backend] the model server at {url.rsplit('/', 1)[0]} refused the API key "
            f"(HTTP {reply.status_code} on GET {url}: {' '.join(reply.text.split())[:120]}) — "
            "set [backend] api_key to a key it accepts"
        )
    if reply.status_code != 200:
        return None
    try:
        return reply.json()
    except ValueError:
        return None


def _model_ids(listing: Any) -> list[str] | None:
    if isinstance(listing, dict) and isinstance(listing.get("data"), list):
        return [str(m.get("id")) for m in listing["data"] if isinstance(m, dict) and m.get("id") is not None]
    return None


def identify(base_url: str, configured: str = "auto", *, timeout_s: float = 10.0, api_key: str | None = None) -> Found:
    """What answers at ``base_url`` (``configured``: a server name, or ``"auto"``)."""
    import httpx

    base = base_url.rstrip("/")
    root = root_of(base)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        with deadline_client(timeout_s, base, headers=headers) as client:
            models = _model_ids(_json(client, f"{base}/models", first=True))
            props = _json(client, f"{root}/props")
            if configured != "auto":
                found = Found(Server(configured), base, "as set in [backend] server", models=models)
            else:
                found = _recognise(client, root, base, props, models)
    except httpx.TimeoutException as exc:
        raise BackendLost(
            f"[backend] the model server at {base} accepted the connection but sent no complete reply to "
            f"GET {base}/models within {timeout_s:g} s ({exc.__class__.__name__}) — check that it is running "
            "and not stuck ([backend] probe_timeout_s)"
        ) from None
    except httpx.TransportError as exc:
        raise BackendLost(
            f"[backend] no model server answers at {base} ({exc.__class__.__name__}) — "
            "start it or fix [backend] base_url"
        ) from None
    if found.server is Server.LLAMA_CPP and isinstance(props, dict):
        slots = props.get("total_slots")
        found.slots = int(slots) if isinstance(slots, int) else None
        if found.slots:
            found.facts.append(f"{found.slots} slot{'s' if found.slots != 1 else ''}")
        if props.get("build_info"):
            found.facts.append(f"build {props['build_info']}")
        if props.get("model_path"):
            found.facts.append(f"model {str(props['model_path']).replace(chr(92), '/').rsplit('/', 1)[-1]}")
    return found


def _by_version(client, root: str, path: str, server: Server, base: str, models: list[str] | None) -> Found | None:
    """``server`` when ``GET <root><path>`` answers an object with a ``version``, else None."""
    version = _json(client, f"{root}{path}")
    if isinstance(version, dict) and "version" in version:
        return Found(server, base, f"identified from {path}", models=models, facts=[f"version {version['version']}"])
    return None


def _recognise(client, root: str, base: str, props: Any, models: list[str] | None) -> Found:
    if isinstance(props, dict) and ("total_slots" in props or "default_generation_settings" in props):
        return Found(Server.LLAMA_CPP, base, "identified from /props", models=models)
    if found := _by_version(client, root, "/api/version", Server.OLLAMA, base, models):
        return found
    native = _json(client, f"{root}/api/v0/models")
    if isinstance(native, dict) and any(
        isinstance(m, dict) and ("state" in m or "compatibility_type" in m) for m in native.get("data") or []
    ):
        return Found(Server.LMSTUDIO, base, "identified from /api/v0/models", models=models)
    if found := _by_version(client, root, "/version", Server.VLLM, base, models):
        return found
    spec = _json(client, f"{root}/openapi.json")
    title = str(((spec or {}).get("info") or {}).get("title", "")) if isinstance(spec, dict) else ""
    if "llama.cpp python" in title.lower():
        return Found(Server.LLAMA_CPP_PYTHON, base, "identified from /openapi.json", models=models)
    return Found(
        Server.VLLM,
        base,
        "not recognised: sending OpenAI's json_schema request; "
        "set [backend] server if it is one of " + ", ".join(s.value for s in Server),
        models=models,
        label="an OpenAI-compatible server",
    )


def check_models(found: Found, names: dict[str, str]) -> None:
    """``names``: ``{role: server_model}``. A multi-model server must serve each one."""
    if not found.server.checks_model_name or not found.models:
        return
    served = set(found.models) | {m.removesuffix(":latest") for m in found.models}
    for role, name in names.items():
        if name not in served:
            raise ModelMissing(
                f"[backend] {found.server.label} at {found.url} serves no model '{name}' "
                f"([models.{role}] server_model) — set it to one of: {', '.join(found.models[:8])}"
            )


def check_schema(found: Found, model: str, *, api_key: str | None, timeout_s: float) -> None:
    """One tiny structured request: a server that refuses the request form stops the run now."""
    import httpx

    body = {
        "model": model,
        "messages": [{"role": "user", "content": 'Answer {"ok": true}'}],
        "max_tokens": 8,
        "temperature": 0,
        "response_format": found.server.response_format(PROBE_SCHEMA, "probe"),
    }
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        with deadline_client(timeout_s, found.url, headers=headers) as client:
            reply = client.post(f"{found.url}/chat/completions", json=body)
    except httpx.HTTPError:
        return  # a model still loading, or a drop: left to the run's first call, its deadline and retries
    if reply.status_code in (401, 403):
        raise AuthRefused(
            f"[backend] {found.server.label} at {found.url} refused the API key "
            f"(HTTP {reply.status_code}: {' '.join(reply.text.split())[:160]}) — "
            "set [backend] api_key to a key it accepts"
        )
    if reply.status_code == 200 and not is_chat_completion(reply):
        raise NotAChatCompletion(
            f"[backend] the server at {found.url} answered a chat request with something that is not a chat "
            f"completion (HTTP 200, {reply.headers.get('content-type', 'no content type')}: "
            f"{' '.join(reply.text.split())[:120]!r}) — set [backend] base_url to the server's OpenAI API "
            "(it usually ends in /v1)"
        )
    if reply.status_code in (404, 405) and "model" not in reply.text.lower():
        raise BackendLost(
            f"[backend] the server at {found.url} has no chat API at {found.url}/chat/completions "
            f"(HTTP {reply.status_code}: {' '.join(reply.text.split())[:120]}) — set [backend] base_url "
            "to the server's OpenAI API (it usually ends in /v1)"
        )
    if reply.status_code == 404:
        raise ModelMissing(
            f"[backend] {found.server.label} at {found.url} has no model '{model}' "
            f"(HTTP 404: {' '.join(reply.text.split())[:160]}) — set [models.*] server_model to a model it serves"
        )
    if 400 <= reply.status_code < 500 and refuses_schema(reply.status_code, reply.text):
        raise SchemaRefused(
            f"[backend] {found.server.label} at {found.url} refused the structured-output request "
            f"(HTTP {reply.status_code}: {' '.join(reply.text.split())[:160]}) — set [backend] server to the server "
            "you run, or [repair] grammar = false"
        )


def is_chat_completion(reply) -> bool:
    """A 200 whose body is a chat completion: JSON with a non-empty list of ``choices`` holding a message."""
    try:
        body = reply.json()
    except ValueError:
        return False
    return completion_problem(body) is None


class ServerSession:
    """The server of one run, identified and checked on first use (thread-safe, once)."""

    def __init__(self, backend, names: dict[str, str], *, pin_slots: bool):
        self.backend, self.names, self.pin_slots = backend, names, pin_slots
        self._found: Found | None = None
        self.pins: SlotPins | None = None
        self._schema_checked = False
        self.warned_repeat_penalty = False  # Ollama: said once that repeat_penalty is not sent
        self._lock = threading.Lock()

    @property
    def found(self) -> Found:
        with self._lock:
            if self._found is None:
                self._found = self._start()
            return self._found

    def _start(self) -> Found:
        b = self.backend
        found = identify(b.base_url, b.server, timeout_s=b.probe_deadline_s, api_key=b.api_key)
        check_models(found, self.names)
        if b.parallel_slots > 1 and found.slots is not None and found.slots < b.parallel_slots:
            found.facts.append(
                f"[backend] parallel_slots = {b.parallel_slots} but the server has {found.slots}: "
                f"start it with -np {b.parallel_slots}"
            )
        if not is_offline(b.base_url):
            found.facts.append("NOT OFFLINE: every prompt and reply goes over the internet to this host")
        if found.server.has_slots and self.pin_slots and found.slots:
            self.pins = SlotPins(found.slots)
            found.facts.append("each persona keeps its own slot")
        print(found.line(), file=sys.stderr)
        log.info("%s", found.line())
        return found

    def check(self) -> Found:
        """``found``, and one tiny structured request per model name (once): a run calls this
        before its first step, so that a refused schema stops it before any fail-safe."""
        found = self.found
        with self._lock:
            if not self._schema_checked:
                b = self.backend
                for model in dict.fromkeys(self.names.values()):
                    check_schema(found, model, api_key=b.api_key, timeout_s=b.probe_deadline_s)
                self._schema_checked = True
        return found
