"""Start a server process on a free loopback port for a test, wait until it answers, stop it after."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

import pytest


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def loopback_server(command: Callable[[int], list[str]], probe: Callable[[int], str], log_path: Path, *,
                    what: str, wait_s: float, **popen) -> Iterator[int]:
    """Run ``command(port)``; yield the port once ``probe(port)`` answers 200; then stop it."""
    port = free_port()
    log = log_path.open("w")
    proc = subprocess.Popen(command(port), stdout=log, stderr=subprocess.STDOUT, **popen)
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
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def llama_server_binary() -> Path:
    """llama.cpp's ``llama-server`` as ``.ci/setup --tests`` provides it ($REVERIE_LLAMA_SERVER,
    ``.venv/bin/llama-server``, the PATH, or the build kept in the user's cache); skips when absent."""
    import os
    import shutil
    import sys

    candidates = [os.environ.get("REVERIE_LLAMA_SERVER"), str(Path(sys.executable).with_name("llama-server")),
                  shutil.which("llama-server")]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "reverie-llama-server"
    candidates += [str(p) for p in sorted(cache.glob("*/llama-server"))]
    for candidate in filter(None, candidates):
        if Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return Path(candidate)
    pytest.skip("llama.cpp's llama-server is not built — run .ci/setup --tests")


@contextmanager
def llama_server(log_path: Path, *, slots: int, n_ctx: int, extra: tuple[str, ...] = ()) -> Iterator[str]:
    """The bundled model on a real ``llama-server`` with ``slots`` slots of ``n_ctx`` tokens each; yields its /v1 URL."""
    from reverie.llm.models import bundled_model_path

    binary = llama_server_binary()
    command = lambda port: [str(binary), "-m", str(bundled_model_path()), "--host", "127.0.0.1", "--port", str(port),  # noqa: E731
                            "-np", str(slots), "-c", str(n_ctx * slots), "-t", "2", "--no-webui", *extra]
    with loopback_server(command, lambda port: f"http://127.0.0.1:{port}/health", log_path,
                         what="llama-server", wait_s=120) as port:
        yield f"http://127.0.0.1:{port}/v1"
