"""What a model server's failure of a request means: retry, give up on this ask, or stop the run.

The retrying itself is :class:`reverie.llm.retry_model.RetryingModel`, a wrapper around the chat model.
Every request has one deadline, ``[backend] timeout_s``, for its connection, its first byte and
its last (:mod:`reverie.llm.deadline`). A server failure never ends in a fail-safe that would be
kept: it stops the run, whose step is not saved, so that ``--resume`` asks again.

- Past the deadline (a server that says nothing, or drips its reply): the server is lost at once.
- 401 or 403 (the API key): stops the run at once.
- 404 (no such model) and a 4xx refusing the structured-output request: stop the run at once
  (:class:`ModelMissing`, :class:`SchemaRefused`).
- 429 (busy), 5xx, 408, 409: retried with a growing pause (``Retry-After`` when the server
  gives one), a bounded number of times; then the run stops (:class:`ServerFailing`).
- A connection refused, or dropped before the reply: retried the same way; then the server is lost.
- A 200 that is not a chat completion (not JSON, an HTML page, no ``choices``): retried; on
  :data:`IN_A_ROW` such replies in a row the run stops (:class:`NotAChatCompletion`).
- Another 4xx (for example a prompt longer than the server's context): this ask fails and its
  fail-safe is used, as for a reply the model never gets right; :data:`IN_A_ROW` asks refused in
  a row stop the run (:class:`RequestsRefused`: every request is refused, the configuration is wrong).

Each stop is a :class:`BackendLost`, one line naming ``[backend]``. An ask that fails is an
:class:`AskFailed` (a ``ValueError``, like a prompt that does not fit the in-process context),
so the structured chain treats it as any failed call.
"""

from __future__ import annotations

import enum
import json

from reverie.errors import UserError

IN_A_ROW = 3  # replies that are not chat completions, or asks refused, in a row before the run stops


class AskFailed(ValueError):
    """The server refused this request; the ask falls back to its fail-safe."""


class BackendLost(UserError):
    """The run cannot go on with the model server; it stops, its current step not saved."""


class AuthRefused(BackendLost):
    """The server refuses the API key (401, 403)."""


class ModelMissing(BackendLost):
    """The server does not serve the configured model name."""


class SchemaRefused(BackendLost):
    """The server refuses the structured-output request it was sent."""


class ServerFailing(BackendLost):
    """The server kept answering 5xx or 429 past the retries."""


class NotAChatCompletion(BackendLost):
    """The server's replies are not chat completions (not JSON, a web page, no choices)."""


class RequestsRefused(BackendLost):
    """Every request is refused with a 4xx."""


# Words a server's 400/422 uses when it refuses the structured-output part of a request.
_SCHEMA_WORDS = ("response_format", "json_schema", "schema", "grammar")

RESUME = "then continue with --resume"


def refuses_schema(status: int | None, text: str) -> bool:
    """A 400/422 about the structured-output request (not, say, a prompt longer than the context)."""
    return status in (400, 422) and any(word in text.lower() for word in _SCHEMA_WORDS)


class Failure(enum.Enum):
    BUSY = "server busy or failing"
    REFUSED = "request refused"
    AUTH = "API key refused"
    UNREACHABLE = "server unreachable"
    DROPPED = "connection dropped before the reply"
    TIMEOUT = "no complete reply within the deadline"
    NOT_A_COMPLETION = "reply is not a chat completion"

    @property
    def retried(self) -> bool:
        return self in (Failure.BUSY, Failure.UNREACHABLE, Failure.DROPPED, Failure.NOT_A_COMPLETION)


class NotACompletionReply(Exception):
    """One reply that is not a chat completion (raised by the server's chat model; retried)."""


def completion_problem(body: object) -> str | None:
    """What keeps a 200's parsed body from being a chat completion (None: it is one)."""
    if hasattr(body, "model_dump"):
        body = body.model_dump()
    if not isinstance(body, dict):
        return f"a {type(body).__name__} body: {' '.join(str(body).split())[:100]!r}"
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices:
        error = body.get("error")
        return f"choices {choices!r}" + (f", error {' '.join(str(error).split())[:100]!r}" if error else "")
    if not isinstance(choices[0], dict) or not isinstance(choices[0].get("message"), dict):
        return f"a choice without a message: {' '.join(str(choices[0]).split())[:100]!r}"
    return None


# What a client raises on a 200 whose body is not a chat completion (no or null "choices",
# a body that is not JSON): only a remote server's reply is taken for that.
NOT_A_COMPLETION_ERRORS = (IndexError, KeyError, TypeError, AttributeError, json.JSONDecodeError)


def classify(exc: BaseException, *, server: bool = True) -> Failure | None:
    """How to treat ``exc`` raised by a model call (None: not a server failure)."""
    try:
        import httpx
        import openai
    except ImportError:  # pragma: no cover - both come with langchain-openai
        return None
    if isinstance(exc, (openai.APITimeoutError, httpx.TimeoutException, TimeoutError)):
        return Failure.TIMEOUT
    if isinstance(exc, openai.APIConnectionError):  # what the client saw is its cause
        return (classify(exc.__cause__) if exc.__cause__ is not None else None) or Failure.DROPPED
    if isinstance(exc, (ConnectionResetError, ConnectionAbortedError, BrokenPipeError)):
        return Failure.DROPPED
    if isinstance(exc, (httpx.ConnectError, ConnectionError)):
        return Failure.UNREACHABLE
    if isinstance(exc, httpx.TransportError):  # the connection was made: the reply was dropped or garbled
        return Failure.DROPPED
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        if status in (401, 403):
            return Failure.AUTH
        if status == 429 or status >= 500 or status in (408, 409):
            return Failure.BUSY
        return Failure.REFUSED
    if isinstance(exc, (openai.APIResponseValidationError, NotACompletionReply)):
        return Failure.NOT_A_COMPLETION
    if server and isinstance(exc, NOT_A_COMPLETION_ERRORS):
        return Failure.NOT_A_COMPLETION
    return None


def unwrap(exc: BaseException) -> BaseException:
    """The OpenAI client's or httpx's own error under a router's (LiteLLM wraps it, a refused
    connection becoming a 500): what :func:`classify` reads. ``exc`` when there is none."""
    seen = exc
    for _ in range(8):
        nested = seen.__cause__ or seen.__context__
        if nested is None:
            break
        seen = nested
        if not type(seen).__module__.startswith("litellm"):
            return seen
    return exc


def describe(exc: BaseException) -> str:
    status = getattr(exc, "status_code", None)
    text = " ".join(str(exc).split())[:200]
    if isinstance(exc, json.JSONDecodeError):
        text = f"{exc.msg}; the body begins {' '.join(exc.doc.split())[:80]!r}"
    cause = exc.__cause__
    if cause is not None and str(cause) and str(cause) not in text and status is None:
        text = f"{text}: {' '.join(str(cause).split())[:160]}"
    return f"HTTP {status}: {text}" if status else f"{exc.__class__.__name__}: {text}"


def stop_for_good(exc: BaseException, where: str) -> None:
    """A refusal every later ask would get too: stop the run (no fail-safes)."""
    status = getattr(exc, "status_code", None)
    body = getattr(getattr(exc, "response", None), "text", "") or str(exc)
    if status in (401, 403):
        raise AuthRefused(
            f"[backend] the model server at {where} refused the request's API key ({describe(exc)}) — "
            "set [backend] api_key to a key it accepts"
        ) from exc
    if status == 404:
        raise ModelMissing(
            f"[backend] the model server at {where} has no such model ({describe(exc)}) — "
            "set [models.*] server_model to a model it serves"
        ) from exc
    if refuses_schema(status, body):
        raise SchemaRefused(
            f"[backend] the model server at {where} refused the structured-output request "
            f"({describe(exc)}) — set [backend] server to the server you run, or [repair] grammar = false"
        ) from exc


def lost(kind: Failure, exc: BaseException, where: str, *, tries: int, deadline_s: float) -> BackendLost:
    """The stop after a failure that retries did not cure (or, past the deadline, at once)."""
    what = describe(exc)
    if kind is Failure.TIMEOUT:
        return BackendLost(
            f"[backend] the model server at {where} sent no complete reply within "
            f"[backend] timeout_s = {deadline_s:g} s ({what}) — check that it is running and not stuck "
            f"(a slow model needs a larger timeout_s), {RESUME}"
        )
    if kind is Failure.DROPPED:
        return BackendLost(
            f"[backend] the model server at {where} closed the connection before its reply, "
            f"{tries} time(s) in a row ({what}) — check its log (it may have crashed or run out of "
            f"memory), {RESUME}"
        )
    if kind is Failure.BUSY:
        return ServerFailing(
            f"[backend] the model server at {where} kept failing after {tries} tries ({what}) — "
            f"check its log, or raise [backend] retries for a busy server, {RESUME}"
        )
    if kind is Failure.NOT_A_COMPLETION:
        return NotAChatCompletion(
            f"[backend] the server at {where} answered {tries} requests in a row with "
            f"something that is not a chat completion ({what}) — set [backend] base_url to "
            f"the server's OpenAI API (it usually ends in /v1), {RESUME}"
        )
    if kind is Failure.REFUSED:
        return RequestsRefused(
            f"[backend] the model server at {where} refused {tries} requests in a row ({what}) — "
            "check [backend] and [models.*] against the server (its context size, the model "
            f"name), {RESUME}"
        )
    return BackendLost(
        f"[backend] the model server at {where} cannot be reached ({what}) — start it or fix "
        f"[backend] base_url, {RESUME}"
    )
