"""What each OpenAI-compatible model server expects and returns (``[backend] server``).

All of them take ``POST /v1/chat/completions``; they differ in three places:

- the structured-output request. llama.cpp's ``llama-server``, vLLM, Ollama's ``/v1`` and
  LM Studio document OpenAI's ``{"type": "json_schema", "json_schema": {"name", "schema",
  "strict"}}``; llama-cpp-python's server documents ``{"type": "json_object", "schema": …}``
  (it refuses ``json_schema``);
- where the prompt tokens reused from the server's cache are reported:
  ``usage.prompt_tokens_details.cached_tokens`` (llama-server, vLLM with
  ``--enable-prompt-tokens-details``), else llama-server's ``timings.cache_n``;
- the grammar: llama-server turns a JSON schema into a grammar that lets a reply indent
  (newlines and up to 20 spaces between tokens), which a small model does, at a few tokens per
  key. It also takes the grammar itself (``grammar``), so it gets the compact one the
  in-process model uses: the same schema, no whitespace but single spaces (:func:`compact_grammar`);
- a prompt's ``repeat_penalty`` (llama.cpp's, not an OpenAI field) is ``repeat_penalty`` on the
  llama.cpp servers and LM Studio, ``repetition_penalty`` on vLLM, and not taken by Ollama's
  ``/v1`` (its Modelfile sets one for every prompt);
- extra request fields: llama-server keeps a prompt cache per slot (``cache_prompt``) and
  lets a request pick its slot (``id_slot``), so each persona can keep its prefix warm.

``[backend] server = "auto"`` asks the server what it is (see :func:`identify`).
"""

from __future__ import annotations

import enum
import importlib.util
import json
import re
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

KINDS = ("llama-cpp-python", "llama.cpp", "vllm", "ollama", "lmstudio")

_NAME = re.compile(r"[^a-zA-Z0-9_-]+")


class Server(enum.Enum):
    LLAMA_CPP_PYTHON = "llama-cpp-python"
    LLAMA_CPP = "llama.cpp"
    VLLM = "vllm"
    OLLAMA = "ollama"
    LMSTUDIO = "lmstudio"

    @property
    def label(self) -> str:
        return {
            Server.LLAMA_CPP_PYTHON: "llama-cpp-python's server",
            Server.LLAMA_CPP: "llama.cpp's llama-server",
            Server.VLLM: "vLLM",
            Server.OLLAMA: "Ollama",
            Server.LMSTUDIO: "LM Studio",
        }[self]

    @property
    def checks_model_name(self) -> bool:
        """The server serves several models and answers a wrong name with an error (the
        llama.cpp servers serve the one model they were started with, whatever the name)."""
        return self in (Server.VLLM, Server.OLLAMA, Server.LMSTUDIO)

    @property
    def has_slots(self) -> bool:
        return self is Server.LLAMA_CPP

    def response_format(self, schema: dict, name: str = "reply") -> dict:
        """The structured-output request this server documents, for ``schema``."""
        if self is Server.LLAMA_CPP_PYTHON:
            return {"type": "json_object", "schema": schema}
        return {"type": "json_schema", "json_schema": {"name": schema_name(name), "schema": schema, "strict": True}}

    def constraint(self, schema: dict, name: str = "reply") -> dict:
        """The request fields that hold a reply to ``schema``: llama-server's compact grammar,
        else the structured-output request the server documents."""
        if self is Server.LLAMA_CPP:
            grammar = compact_grammar(json.dumps(schema))
            if grammar is not None:
                return {"grammar": grammar}
        return {"response_format": self.response_format(schema, name)}

    @property
    def repeat_penalty_field(self) -> str | None:
        """The request field of llama.cpp's ``repeat_penalty`` (None: the server takes none)."""
        return {Server.VLLM: "repetition_penalty", Server.OLLAMA: None}.get(self, "repeat_penalty")

    def extra_body(self, *, prompt_cache: bool, slot: int | None) -> dict:
        """Request fields besides the OpenAI ones."""
        if self is not Server.LLAMA_CPP:
            return {}
        body: dict[str, Any] = {"cache_prompt": prompt_cache}
        if slot is not None:
            body["id_slot"] = slot
        return body


@lru_cache(maxsize=256)
def compact_grammar(schema_json: str) -> str | None:
    """The GBNF grammar of a JSON schema that allows no whitespace but a single space between
    tokens, as llama-cpp-python writes it for the in-process model (None without llama-cpp-python)."""
    converter = _grammar_converter()
    return None if converter is None else converter(schema_json)


@lru_cache(maxsize=1)
def _grammar_converter():
    """llama-cpp-python's JSON-schema-to-GBNF converter, loaded on its own: the module is plain
    Python, and importing the package would load its native library, which a client of a server
    does not need (and which may not load: a build for a GPU this machine lacks)."""
    try:
        spec = importlib.util.find_spec("llama_cpp")
        where = [Path(p) / "llama_grammar.py" for p in (spec.submodule_search_locations or [])] if spec else []
        if not where or not where[0].is_file():
            return None
        module_spec = importlib.util.spec_from_file_location("reverie_llama_grammar", where[0])
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
        return module.json_schema_to_gbnf
    except (ImportError, OSError, AttributeError, SyntaxError):
        return None


def schema_name(text: str) -> str:
    """A name OpenAI's ``json_schema.name`` accepts (letters, digits, ``_``, ``-``; at most 64)."""
    return _NAME.sub("_", text).strip("_")[:64] or "reply"


def cached_tokens(response: dict) -> int | None:
    """Prompt tokens the server took from its cache, wherever it reports them (None: it does not say)."""
    usage = response.get("usage") or {}
    details = usage.get("prompt_tokens_details") or {}
    value = details.get("cached_tokens")
    if value is None:
        value = (response.get("timings") or {}).get("cache_n")
    try:
        return None if value is None else max(0, int(value))
    except (TypeError, ValueError):
        return None


@dataclass
class Found:
    """A server as identified at start: what it is, and what it said about itself."""

    server: Server
    url: str
    how: str  # "identified from /props", "set in [backend] server"
    slots: int | None = None  # llama-server's total_slots
    models: list[str] | None = None
    facts: list[str] = field(default_factory=list)
    label: str = ""  # what the start line calls it, when not the server's own label

    def line(self) -> str:
        facts = "; ".join(self.facts)
        return f"[backend] {self.label or self.server.label} at {self.url} ({self.how}{'; ' + facts if facts else ''})"


def is_offline(url: str) -> bool:
    """The server is on this machine or its network (loopback, a private or link-local address,
    a name without a dot or under ``.local``): prompts do not leave for the internet."""
    import ipaddress
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").lower()
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host == "localhost" or "." not in host or host.endswith((".local", ".lan", ".internal"))
    return address.is_loopback or address.is_private or address.is_link_local


def persona_of(run_manager: Any) -> str | None:
    """The persona a chat model call is made for: its run's metadata ``"persona"``."""
    metadata = getattr(run_manager, "metadata", None) or {}
    persona = metadata.get("persona")
    return persona if isinstance(persona, str) else None


class SlotPins:
    """Each persona keeps one llama-server slot, so its stable prefix stays in that slot's cache.

    Personas get slots in the order they first ask (0, 1, …, wrapping around), which spreads
    them evenly; an ask without a persona goes to whichever slot is free. The persona is the
    one in the call's run metadata (``config["metadata"]["persona"]``), see :func:`persona_of`."""

    def __init__(self, slots: int):
        self.slots = max(1, int(slots))
        self._of: dict[str, int] = {}
        self._lock = threading.Lock()

    def slot(self, persona: str | None) -> int | None:
        if persona is None:
            return None
        with self._lock:
            if persona not in self._of:
                self._of[persona] = len(self._of) % self.slots
            return self._of[persona]
