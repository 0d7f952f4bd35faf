"""What a model server's failure of a request means: retry, give up on this ask, or stop the run.

The retrying itself is :class:`reverie.llm.retry_model.RetryingModel`, a wrapper around the chat model.

- 429 (busy) and 5xx, and a reply the client cannot read (no ``choices``): retried with a
  growing pause, a bounded number of times; then the ask fails and its fail-safe is used.
- 400 and other 4xx (for example a prompt longer than the context): not retried; the ask
  fails and its fail-safe is used.
- A connection that drops, is refused or times out: retried the same way; then
  :class:`BackendLost`, after which the run saves and stops with one line naming
  ``[backend]``.
- A 404 (no such model) and a 4xx refusing the structured-output request: not retried;
  :class:`ModelMissing` or :class:`SchemaRefused` (kinds of ``BackendLost``): every ask would
  fail the same way, so the run saves and stops instead of going on with fail-safes.

An ask that fails is a :class:`AskFailed` (a ``ValueError``, like a prompt that does not fit
the in-process context), so the structured chain treats it as any failed call.
"""

from __future__ import annotations

import enum

from reverie.errors import UserError


class AskFailed(ValueError):
    """The server refused this request for good; the ask falls back to its fail-safe."""


class BackendLost(UserError):
    """The run cannot go on with the model server (unreachable, or see the kinds below); it saves and stops."""


class ModelMissing(BackendLost):
    """The server does not serve the configured model name."""


class SchemaRefused(BackendLost):
    """The server refuses the structured-output request it was sent."""


# Words a server's 400/422 uses when it refuses the structured-output part of a request.
_SCHEMA_WORDS = ("response_format", "json_schema", "schema", "grammar")


def refuses_schema(status: int | None, text: str) -> bool:
    """A 400/422 about the structured-output request (not, say, a prompt longer than the context)."""
    return status in (400, 422) and any(word in text.lower() for word in _SCHEMA_WORDS)


class Failure(enum.Enum):
    RETRY_THEN_FAIL = "server busy or failing"
    FAIL = "request refused"
    CONNECTION = "server unreachable"


def classify(exc: BaseException) -> Failure | None:
    """How to treat ``exc`` raised by a model call (None: not a server failure)."""
    try:
        import httpx
        import openai
    except ImportError:  # pragma: no cover - both come with langchain-openai
        return None
    if isinstance(exc, openai.APIConnectionError):  # includes timeouts
        return Failure.CONNECTION
    if isinstance(exc, (httpx.TransportError, ConnectionError, TimeoutError)):
        return Failure.CONNECTION
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        if status == 429 or status >= 500 or status in (408, 409):
            return Failure.RETRY_THEN_FAIL
        return Failure.FAIL
    if isinstance(exc, openai.APIResponseValidationError):
        return Failure.RETRY_THEN_FAIL
    return None


def describe(exc: BaseException) -> str:
    status = getattr(exc, "status_code", None)
    text = " ".join(str(exc).split())[:200]
    return f"HTTP {status}: {text}" if status else f"{exc.__class__.__name__}: {text}"


def stop_for_good(exc: BaseException, where: str) -> None:
    """A refusal every later ask would get too: stop the run (no fail-safes)."""
    status = getattr(exc, "status_code", None)
    body = getattr(getattr(exc, "response", None), "text", "") or str(exc)
    if status == 404:
        raise ModelMissing(f"[backend] the model server at {where} has no such model ({describe(exc)}) — "
                           "set [models.*] server_model to a model it serves") from exc
    if refuses_schema(status, body):
        raise SchemaRefused(f"[backend] the model server at {where} refused the structured-output request "
                            f"({describe(exc)}) — set [backend] server to the server you run, or [repair] grammar = false") from exc
