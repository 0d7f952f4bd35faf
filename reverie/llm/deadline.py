"""One deadline for a whole HTTP request to a model server: connect, send, first byte and last byte.

httpx's timeouts bound each socket operation, not the request: a server that sends one byte
a second never trips a 5-second read timeout, and holds the call as long as it likes. Here
every socket operation of a request gets the time left before its deadline as its timeout,
so the request as a whole ends by then with ``httpx`` timing out (``ReadTimeout``,
``ConnectTimeout``, …), which the OpenAI client reports as ``APITimeoutError``.

The deadline is set per request by :class:`DeadlineTransport` and kept per thread, since a
request and the reading of its body happen in the thread that made it (the client's
connections are shared, but each serves one request at a time).
"""

from __future__ import annotations

import ssl
import threading
import time
from typing import Any

import httpcore
import httpx

_state = threading.local()


def _left(timeout: float | None, error: type[Exception]) -> float | None:
    """``timeout`` cut to the time left before this thread's deadline (the error once it has passed)."""
    deadline: float | None = getattr(_state, "deadline", None)
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise error(f"the request's deadline of {_state.seconds:g} s passed")
    return left if timeout is None else min(timeout, left)


class _Stream(httpcore.NetworkStream):
    """A connection whose every read and write ends by the request's deadline."""

    def __init__(self, stream: httpcore.NetworkStream):
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        return _Stream(self._stream.start_tls(ssl_context, server_hostname, _left(timeout, httpcore.ConnectTimeout)))

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class _Backend(httpcore.NetworkBackend):
    """httpcore's own network backend, its connections made and used within the deadline."""

    def __init__(self, backend: httpcore.NetworkBackend):
        self._backend = backend

    # Only the timeout is the deadline's: httpcore's other connection options pass through as given.
    def connect_tcp(
        self, host: str, port: int, timeout: float | None = None, *args: Any, **kwargs: Any
    ) -> httpcore.NetworkStream:
        return _Stream(self._backend.connect_tcp(host, port, _left(timeout, httpcore.ConnectTimeout), *args, **kwargs))

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, *args: Any, **kwargs: Any
    ) -> httpcore.NetworkStream:
        return _Stream(
            self._backend.connect_unix_socket(path, _left(timeout, httpcore.ConnectTimeout), *args, **kwargs)
        )

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


class DeadlineTransport(httpx.HTTPTransport):  # type: ignore[misc]  # httpx is not analysed (pyproject.toml)
    """httpx's transport, each request bounded as a whole by ``seconds`` (see the module)."""

    def __init__(self, seconds: float, **kwargs: Any):
        super().__init__(**kwargs)
        self.seconds = float(seconds)
        pool = getattr(self, "_pool", None)
        backend = getattr(pool, "_network_backend", None)
        if (
            pool is None or backend is None
        ):  # an httpx or httpcore whose transport is built otherwise: say so, never run unbounded
            raise RuntimeError(
                "httpx's transport has no httpcore network backend to bound; pin httpx and httpcore "
                "to the versions in requirements.txt"
            )
        pool._network_backend = _Backend(backend)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        _state.deadline, _state.seconds = time.monotonic() + self.seconds, self.seconds
        return super().handle_request(request)


def environment_proxy(url: str) -> str | None:
    """The HTTP proxy the environment names for ``url`` (``HTTP_PROXY``, ``HTTPS_PROXY``, ``ALL_PROXY``,
    less ``NO_PROXY``), as httpx's own transport would use it; None for none. A transport given to
    a client turns httpx's reading of the environment off, so it is read here."""
    from urllib.parse import urlsplit
    from urllib.request import getproxies, proxy_bypass

    parts = urlsplit(url)
    proxies = getproxies()
    proxy = proxies.get(parts.scheme) or proxies.get("all")
    if not proxy or not parts.hostname or proxy_bypass(parts.hostname):
        return None
    return proxy if "://" in proxy else f"http://{proxy}"


def deadline_client(seconds: float, url: str | None = None, **kwargs: Any) -> httpx.Client:
    """An ``httpx.Client`` each of whose requests ends within ``seconds``, its body read included
    (``url``: the server it talks to, sent through the environment's proxy for it, if any)."""
    proxy = environment_proxy(url) if url else None
    return httpx.Client(transport=DeadlineTransport(seconds, proxy=proxy), timeout=seconds, **kwargs)
