"""A keyed process's freed requests do not reach the Chroma store's files.

Chroma writes its whole preallocated index buffer when it creates a segment, unused slots
included. Each test process here first leaves the key in freed heap memory the way a run's
request threads do, with glibc's mmap threshold raised past the index buffer (as a long run
raises it), so the buffer comes from recycled memory."""

from __future__ import annotations

import os
import subprocess
import sys

from reverie import PROJECT_ROOT

VARIABLE = "REVERIE_TEST_HEAP_KEY"

STORE_AFTER_REQUESTS = """
import os, sys, threading
from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.llm.models import build_chat_models
from reverie.memory import VectorIndex

keyed, sim = sys.argv[1] == "keyed", sys.argv[2]
settings = load_settings(PROJECT_ROOT / "config.toml").model_copy(deep=True)
settings.backend.kind, settings.backend.base_url = "openai", "http://127.0.0.1:9/v1"
settings.backend.api_key_env = "REVERIE_TEST_HEAP_KEY" if keyed else ""
for role in ("strong", "cheap"):
    getattr(settings.models, role).path = "bundled"
build_chat_models(settings)  # reads the key; contacts no server

key, live = os.environ["REVERIE_TEST_HEAP_KEY"].encode(), []
def send_requests():
    big = bytearray(key * 20000)
    del big  # a freed mapped block raises the threshold: later large blocks come from the heap
    for _ in range(4):
        requests = [bytearray(b"Authorization: Bearer " + key + b"\\r\\n" * 100) * 80 for _ in range(40)]
        live.append(bytearray(600))  # keeps the freed requests from merging into the heap's top
        del requests
together = threading.Barrier(12)
def request_thread():
    together.wait(); send_requests(); together.wait()  # at once: one heap arena each
threads = [threading.Thread(target=request_thread) for _ in range(12)]
[t.start() for t in threads]
[t.join() for t in threads]
send_requests()
VectorIndex(settings, sim).persona("Isabella Rodriguez").upsert_many(
    ["node_1", "node_2"], [[1.0] + [0.0] * 383, [0.0, 1.0] + [0.0] * 382]
)
"""


def files_holding_the_key(tmp_path, keyed: bool) -> list[str]:
    key = "sk-test-" + "0123456789abcdef" * 3
    sim = tmp_path / ("keyed" if keyed else "unkeyed")
    subprocess.run(
        [sys.executable, "-c", STORE_AFTER_REQUESTS, "keyed" if keyed else "placeholder", str(sim)],
        check=True,
        cwd=PROJECT_ROOT,
        timeout=300,
        env={**os.environ, VARIABLE: key},
    )
    files = [p for p in (sim / "chroma").rglob("*") if p.is_file()]
    assert any(p.name == "data_level0.bin" for p in files), "the index was written"
    return sorted(p.name for p in files if key.encode() in p.read_bytes())


def test_a_key_from_the_environment_never_reaches_the_store(tmp_path):
    assert files_holding_the_key(tmp_path, keyed=True) == []


def test_without_a_key_the_store_may_hold_freed_memory(tmp_path):
    """The control: the same process with no key sent leaves new memory as it was, so the
    index file shows the freed bytes; it shows the case above is not passing by luck."""
    assert "data_level0.bin" in files_holding_the_key(tmp_path, keyed=False)
