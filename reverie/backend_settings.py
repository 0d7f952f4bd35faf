"""The ``[backend]`` table of ``config.toml``: where the chat models run, and the model servers
of a run (``[[backend.servers]]``) with their keys."""

from __future__ import annotations

import enum
import os
from typing import Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt, field_validator

from reverie.errors import UserError
from reverie.settings_base import Number, Section


class BackendKind(enum.StrEnum):
    """Where the chat models run (``[backend] kind``, written as its value)."""

    LLAMA_CPP = "llama_cpp"  # in this process, through llama-cpp-python
    OPENAI = "openai"  # an OpenAI-compatible server at base_url

    @property
    def server(self) -> bool:
        """The models answer over HTTP: busy, failing or unreachable servers are part of the game."""
        return self is BackendKind.OPENAI


def _http_url(value: str) -> str:
    from urllib.parse import urlsplit

    example = 'write e.g. "http://127.0.0.1:8080/v1"'
    try:
        parts = urlsplit(value.strip())
        port = parts.port  # a port that is not a number in range raises here
    except ValueError:
        raise ValueError(f"not a URL — {example}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http:// or https:// URL with a host — {example}")
    if port == 0 or any(c.isspace() for c in value.strip()):
        raise ValueError(f"not a usable URL — {example}")
    return value.strip()


ServerKind = Literal["auto", "llama-cpp-python", "llama.cpp", "vllm", "ollama", "lmstudio"]


class ServerSettings(Section):
    """One model server of ``[[backend.servers]]``."""

    base_url: str
    """The server's OpenAI-compatible URL."""
    server: ServerKind = "auto"
    """Which server answers there, as [backend] server."""
    parallel_slots: StrictInt = Field(default=1, ge=1)
    """Its concurrent requests (llama.cpp's -np N)."""
    server_model: str | None = None
    """The model name it serves, for both roles (unset: [models.*] server_model)."""
    api_key: str | None = None
    """Its key (unset: [backend] api_key / api_key_env)."""
    api_key_env: str = ""
    """The environment variable holding its key (the key stays out of the file)."""

    _url = field_validator("base_url")(classmethod(lambda cls, value: _http_url(value)))


# The placeholder a local server accepts: not a secret.
NO_KEY = "not-needed"


class BackendSettings(Section):
    """Where the chat models run."""

    # A string assigned in code ("openai") is read as a BackendKind too.
    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    kind: BackendKind = BackendKind.LLAMA_CPP
    """"llama_cpp" (in this process, through llama-cpp-python) or "openai" (an OpenAI-compatible
    server at base_url: llama.cpp's server, vLLM, …)."""
    base_url: str = "http://127.0.0.1:8080/v1"
    """The server's OpenAI-compatible URL (kind = "openai")."""
    server: ServerKind = "auto"
    """kind = "openai": which server answers there (each gets the structured-output request its
    documentation describes); "auto" recognises it at start (see reverie/llm/server_probe.py)."""
    slot_pinning: StrictBool = False
    """llama.cpp's llama-server: each persona keeps one slot (id_slot). Off by default: llama-server
    already picks the idle slot that shares the longest prefix, and measured no better pinned."""
    api_key: str = NO_KEY
    """The key sent to the server (a local server needs none); api_key_env keeps it out of the file."""
    api_key_env: str = ""
    """The name of an environment variable that holds the key (e.g. "OPENROUTER_API_KEY"), read at
    start in place of api_key; the key is never printed, logged or written."""
    servers: list[ServerSettings] = []  # noqa: RUF012 - a pydantic field: each settings object gets its own copy
    """Several servers for one run, as [[backend.servers]] tables (base_url, server, parallel_slots,
    and optionally server_model, api_key, api_key_env); they replace base_url, server and
    parallel_slots, and the run's slots are their sum (reverie/llm/server_router.py)."""
    timeout_s: Number = Field(default=180.0, gt=0)
    """One deadline per request, for the connection, the first byte and the whole reply, in seconds:
    a server silent or dripping past it is lost and the run stops (reverie/llm/server_errors.py)."""
    probe_timeout_s: Number = Field(default=10.0, gt=0)
    """The deadline of each request of the start's probe (what answers, its models, one tiny
    structured request), in seconds; never longer than timeout_s."""
    parallel_slots: StrictInt = Field(default=1, ge=1)
    """Concurrent requests to a multi-slot server (llama.cpp's -np N, vLLM); 1 = sequential.
    Personas out of each other's sight then think side by side."""
    prompt_cache: StrictBool = True
    """Reuse the prompt prefix llama.cpp already evaluated (false: evaluate every prompt in full)."""
    retries: StrictInt = Field(default=3, ge=0, le=10)
    """A server that is busy (429), failing (5xx) or unreachable: tries after the first, with a
    pause that doubles from retry_pause_s; then the prompt's fail-safe, or (unreachable) the run
    saves and stops (see reverie/llm/retry_model.py)."""
    retry_pause_s: Number = Field(default=0.5, ge=0, le=60)
    """The first pause before a retry, in seconds (doubled each time)."""

    _url = field_validator("base_url")(classmethod(lambda cls, value: _http_url(value)))

    def endpoints(self) -> list[ServerSettings]:
        """The run's servers: [[backend.servers]], else the one at base_url."""
        return list(self.servers) or [
            ServerSettings(base_url=self.base_url, server=self.server, parallel_slots=self.parallel_slots)
        ]

    @property
    def total_slots(self) -> int:
        """The run's concurrent requests: the servers' slots together."""
        return sum(e.parallel_slots for e in self.endpoints())

    def key_for(self, entry: ServerSettings) -> str:
        """The key sent to ``entry``: its own, else [backend]'s; from the environment when a
        variable is named (an unset one is a one-line error, which never shows a key)."""
        name = entry.api_key_env or (self.api_key_env if entry.api_key is None else "")
        if name:
            value = os.environ.get(name, "").strip()
            if not value:
                raise UserError(
                    f"[backend] api_key_env = {name!r} but the environment has no {name} — "
                    f"export {name}=<your key> before the run, or remove api_key_env"
                )
            return value
        return entry.api_key if entry.api_key is not None else self.api_key

    @property
    def probe_deadline_s(self) -> float:
        """The deadline of each request of the start's probe (never longer than a call's)."""
        return min(self.probe_timeout_s, self.timeout_s)
