"""Servers on a free loopback port for a test: a server process, started, waited for until it
answers and stopped after; or an HTTP handler served from a thread of the test itself."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, Iterator

import pytest


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class QuietHandler(BaseHTTPRequestHandler):
    """A request handler that logs nothing and answers with a body and its length."""

    def log_message(self, *args) -> None:
        pass

    def send_body(self, status: int, data: bytes) -> None:
        """``data`` as an ``application/json`` body; a client that has hung up (its timeout) is no error."""
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def send_json(self, status: int, body: object) -> None:
        """``body`` as JSON (a string is sent as it is)."""
        text = body if isinstance(body, str) else json.dumps(body)
        self.send_body(status, text.encode("utf-8", "surrogatepass"))


def serve(handler: type[BaseHTTPRequestHandler], port: int = 0) -> ThreadingHTTPServer:
    """``handler`` served on ``127.0.0.1:port`` (0: a free one) from a daemon thread; stop it with :func:`shut`."""
    httpd = ThreadingHTTPServer(("127.0.0.1", port), handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def shut(httpd: ThreadingHTTPServer) -> None:
    httpd.shutdown()
    httpd.server_close()


class LoopbackFake:
    """A fake server on a loopback port of its own, which it keeps while it is taken down and up
    again (``up``/``down``, or ``with``). A subclass answers each request in :meth:`handle`."""

    def __init__(self) -> None:
        self.port = free_port()
        self._httpd: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def handle(self, handler: QuietHandler, method: str) -> None:
        raise NotImplementedError

    def read_body(self, handler: QuietHandler) -> bytes:
        return handler.rfile.read(int(handler.headers.get("Content-Length") or 0))

    def up(self):
        fake = self

        class Handler(QuietHandler):
            def do_GET(self):
                fake.handle(self, "GET")

            def do_POST(self):
                fake.handle(self, "POST")

        self._httpd = serve(Handler, self.port)
        return self

    def down(self) -> None:
        if self._httpd is not None:
            shut(self._httpd)
            self._httpd = None

    def __enter__(self):
        return self.up()

    def __exit__(self, *exc) -> None:
        self.down()


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """``handler`` on a free loopback port for the block; yields its ``/v1`` base URL."""
    httpd = serve(handler)
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        shut(httpd)


@contextmanager
def loopback_server(
    command: Callable[[int], list[str]],
    probe: Callable[[int], str],
    log_path: Path,
    *,
    what: str,
    wait_s: float,
    started: list | None = None,
    **popen,
) -> Iterator[int]:
    """Run ``command(port)``; yield the port once ``probe(port)`` answers 200; then stop it
    (``started``: the process is appended to it, for a test that kills it)."""
    port = free_port()
    log = log_path.open("w")
    proc = subprocess.Popen(command(port), stdout=log, stderr=subprocess.STDOUT, **popen)
    if started is not None:
        started.append(proc)
    try:
        deadline = time.monotonic() + wait_s
        while True:
            if proc.poll() is not None:
                pytest.fail(f"{what} exited:\n{log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(probe(port), timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"{what} did not answer within {wait_s:.0f} s:\n{log_path.read_text()[-2000:]}")
            time.sleep(0.3)
        yield port
    finally:
        stop(proc)
        log.close()


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def llama_cpp_binary(name: str, env_var: str) -> Path | None:
    """One of llama.cpp's programs as ``.ci/setup --tests`` provides it ($env_var, ``.venv/bin/NAME``,
    the PATH, or the build kept in the user's cache); None when absent."""
    import os
    import shutil
    import sys

    candidates = [os.environ.get(env_var), str(Path(sys.executable).with_name(name)), shutil.which(name)]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "reverie-llama-server"
    candidates += [str(p) for p in sorted(cache.glob(f"*/{name}"))]
    for candidate in filter(None, candidates):
        if Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return Path(candidate)
    return None


def llama_server_binary() -> Path:
    """llama.cpp's ``llama-server``; skips when absent."""
    return llama_cpp_binary("llama-server", "REVERIE_LLAMA_SERVER") or pytest.skip(
        "llama.cpp's llama-server is not built — run .ci/setup --tests"
    )


@contextmanager
def rpc_server(log_path: Path, *, wait_s: float = 60) -> Iterator[str]:
    """llama.cpp's ``ggml-rpc-server`` (a CPU device served over RPC) on a free loopback port; yields
    ``"127.0.0.1:PORT"``. Skips when it is not built, except in CI (``$CI``), where the setup builds it."""
    import os

    binary = llama_cpp_binary("ggml-rpc-server", "REVERIE_RPC_SERVER")
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("ggml-rpc-server is not built, but CI's `.ci/setup --tests` builds it")
        pytest.skip("llama.cpp's ggml-rpc-server is not built — run .ci/setup --tests")
    port = free_port()
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [str(binary), "-H", "127.0.0.1", "-p", str(port), "-t", "2"], stdout=log, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + wait_s
            while True:  # a connection that says nothing is closed by the server, which goes on listening
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=2).close()
                    break
                except OSError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"ggml-rpc-server did not start:\n{log_path.read_text()[-2000:]}")
                time.sleep(0.2)
            yield f"127.0.0.1:{port}"
        finally:
            stop(proc)


@contextmanager
def llama_server(
    log_path: Path, *, slots: int, n_ctx: int, extra: tuple[str, ...] = (), started: list | None = None
) -> Iterator[str]:
    """The bundled model on a real ``llama-server`` with ``slots`` slots of ``n_ctx`` tokens each; yields its /v1 URL."""
    from reverie.llm.models import bundled_model_path

    binary = llama_server_binary()
    command = lambda port: [
        str(binary),
        "-m",
        str(bundled_model_path()),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),  # noqa: E731
        "-np",
        str(slots),
        "-c",
        str(n_ctx * slots),
        "-t",
        "2",
        "--no-webui",
        *extra,
    ]
    with loopback_server(
        command,
        lambda port: f"http://127.0.0.1:{port}/health",
        log_path,
        what="llama-server",
        wait_s=120,
        started=started,
    ) as port:
        yield f"http://127.0.0.1:{port}/v1"


@contextmanager
def llama_cpp_python_server(log_path: Path, *, n_ctx: int, extra: tuple[str, ...] = ()) -> Iterator[str]:
    """The bundled model on llama-cpp-python's OpenAI-compatible server with a context of ``n_ctx``
    tokens; yields its /v1 URL."""
    from reverie.llm.models import bundled_model_path

    command = lambda port: [  # noqa: E731
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(bundled_model_path()),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(n_ctx),
        "--n_threads",
        "2",
        *extra,
    ]
    with loopback_server(
        command,
        lambda port: f"http://127.0.0.1:{port}/v1/models",
        log_path,
        what="llama_cpp.server",
        wait_s=180,
    ) as port:
        yield f"http://127.0.0.1:{port}/v1"
