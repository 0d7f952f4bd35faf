"""Model servers that fail, on loopback (fakes for failure paths, not models).

- :func:`silent`: accepts connections, reads the requests, never answers;
- :func:`dripping`: answers the probe's GETs (an OpenAI model list), then sends each chat
  reply one byte every ``every_s`` seconds (``headers=True``: from its status line on);
- :func:`fixed`: answers every request, GET or POST, with one status, content type and body
  (a 401, a proxy's HTML welcome page, a 200 with ``choices: []``).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator

from tests.loopback_server import free_port

MODELS = {"object": "list", "data": [{"id": "local", "object": "model", "owned_by": "me"}]}


class RawServer:
    """Each connection handled by ``handle(conn, stop)`` in its own thread; all closed on exit."""

    def __init__(self, handle: Callable[[socket.socket, threading.Event], None]):
        self.handle = handle
        self.port = free_port()
        self.stop = threading.Event()
        self.connections: list[socket.socket] = []
        self.requests: list[str] = []  # request lines, as received
        self._sock: socket.socket | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> "RawServer":
        self._sock = socket.socket()
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", self.port))
        self._sock.listen(16)
        self._sock.settimeout(0.2)
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except (socket.timeout, OSError):
                continue
            self.connections.append(conn)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        try:
            self.handle(conn, self.stop)
        except OSError:
            pass
        finally:
            conn.close()

    def __exit__(self, *exc) -> None:
        self.stop.set()
        for conn in self.connections:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            conn.close()
        if self._sock is not None:
            self._sock.close()


def read_request(conn: socket.socket, server: RawServer) -> tuple[str, str] | None:
    """(method, path) of the next request on ``conn`` (its body read and dropped); None once closed."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    server.requests.append(lines[0])
    length = next((int(line.split(":", 1)[1]) for line in lines[1:] if line.lower().startswith("content-length:")), 0)
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        body += chunk
    method, path, _ = lines[0].split(" ", 2)
    return method, path


def _response(status: str, body: bytes, content_type: str = "application/json") -> bytes:
    return (f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body


@contextmanager
def silent() -> Iterator[RawServer]:
    def handle(conn: socket.socket, stop: threading.Event) -> None:
        conn.settimeout(0.2)
        while not stop.is_set():
            try:
                if not conn.recv(65536):
                    return
            except socket.timeout:
                continue

    with RawServer(handle) as server:
        yield server


@contextmanager
def dripping(*, every_s: float = 1.0, headers: bool = False) -> Iterator[RawServer]:
    def handle(conn: socket.socket, stop: threading.Event) -> None:
        while not stop.is_set():
            request = read_request(conn, server)
            if request is None:
                return
            method, path = request
            if method == "GET":
                status, body = (
                    ("200 OK", json.dumps(MODELS).encode())
                    if path == "/v1/models"
                    else ("404 Not Found", b'{"error": "not found"}')
                )
                conn.sendall(_response(status, body))
                continue
            reply = _response("200 OK", b" " * 100_000)
            start = 0 if headers else reply.index(b"\r\n\r\n") + 4
            conn.sendall(reply[:start])
            for i in range(start, len(reply)):
                if stop.wait(every_s):
                    return
                conn.sendall(reply[i : i + 1])

    server = RawServer(handle)
    with server:
        yield server


@contextmanager
def fixed(
    status: int, body: str | dict, *, content_type: str = "application/json", reason: str = ""
) -> Iterator[RawServer]:
    data = (json.dumps(body) if isinstance(body, dict) else body).encode()

    def handle(conn: socket.socket, stop: threading.Event) -> None:
        while not stop.is_set():
            if read_request(conn, server) is None:
                return
            conn.sendall(_response(f"{status} {reason or 'Status'}", data, content_type))

    server = RawServer(handle)
    with server:
        yield server


def elapsed(call: Callable[[], object]) -> tuple[float, BaseException | None]:
    """Seconds ``call()`` took, and what it raised (None if nothing)."""
    started = time.monotonic()
    try:
        call()
    except BaseException as exc:  # noqa: BLE001 - returned to the test, which asserts on it
        return time.monotonic() - started, exc
    return time.monotonic() - started, None
