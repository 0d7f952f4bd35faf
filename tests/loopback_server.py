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
