"""A key named by ``api_key_env`` reaches the server and no file the run writes.

The server is the bench server (the scripted town model over HTTP) behind a loopback gate that
answers 401 to any request without the right ``Authorization`` header, as a hosted API does."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from reverie import PROJECT_ROOT
from reverie.benchmarks.model_server import BenchServer, Delays
from reverie.config import load_settings
from reverie.errors import UserError
from reverie.simulation.simulation import Simulation
from tests.loopback_server import QuietHandler, serving
from tests.simulation.test_parallel_agents import BASE, sim_settings

FAST = Delays(slots=4, base_s=0.0, prefill_tok_per_s=1e12, decode_tok_per_s=1e12)
VARIABLE = "REVERIE_TEST_SERVER_KEY"


@contextmanager
def gate(upstream: str, key: str) -> Iterator[tuple[str, dict]]:
    """A loopback server that passes a request on to ``upstream`` only with ``Bearer <key>``."""
    seen = {"with_key": 0, "refused": 0}

    class Handler(QuietHandler):
        protocol_version = "HTTP/1.1"

        def _relay(self, method: str) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.headers.get("Authorization") != f"Bearer {key}":
                seen["refused"] += 1
                self.send_json(401, {"error": {"message": "invalid api key"}})
                return
            seen["with_key"] += 1
            reply = httpx.request(
                method,
                upstream.removesuffix("/v1") + self.path,
                content=body,
                headers={"Content-Type": "application/json"},
                timeout=60,
            )
            self.send_body(reply.status_code, reply.content)

        def do_GET(self):
            self._relay("GET")

        def do_POST(self):
            self._relay("POST")

    with serving(Handler) as url:
        yield url, seen


@pytest.mark.parametrize("form", ["backend", "servers"])
def test_the_key_from_the_environment_reaches_the_server_and_no_file(form, tmp_path, monkeypatch, capsys, caplog):
    """``servers``: two gated servers, so the calls go through LiteLLM's Router and its deployments."""
    key = "sk-or-v1-" + secrets.token_hex(24)
    monkeypatch.setenv(VARIABLE, key)
    settings = load_settings(PROJECT_ROOT / "config.toml")
    with BenchServer(FAST) as bench, gate(bench.url, key) as (url, seen), gate(bench.url, key) as (url_2, seen_2):
        s = sim_settings(settings, tmp_path / "run", kind="openai", slots=4)
        if form == "backend":
            s.backend.base_url, s.backend.api_key_env = url, VARIABLE
        else:
            s.backend.servers = [{"base_url": u, "parallel_slots": 2, "api_key_env": VARIABLE} for u in (url, url_2)]
        sim = Simulation.fork(s, BASE, f"keyed_{form}")
        try:
            assert sim.run(1) == 1
            sim.save()
        finally:
            sim.close()
        assert httpx.get(f"{url}/models").status_code == 401, "the gate refuses a request without the key"
    assert seen["with_key"] > 5 and seen["refused"] == 1 and seen_2["refused"] == 0
    written = [p for p in (tmp_path / "run").rglob("*") if p.is_file() and not p.is_symlink()]
    ledgers = [p for p in written if p.name == "llm_calls.jsonl"]
    assert ledgers and any(p.name == "llm_trace.jsonl" for p in written)
    if form == "servers":
        answered = {json.loads(line)["server"] for line in ledgers[0].read_text().splitlines() if line.strip()}
        assert answered == {url, url_2} and seen_2["with_key"] > 1, "both keyed servers answered through the router"
    holding = [str(p) for p in written if key.encode() in p.read_bytes()]
    assert not holding, f"the key was written to {holding}"
    said = capsys.readouterr()
    assert key not in said.out + said.err and key not in caplog.text


def test_an_unset_variable_is_one_line_naming_it(tmp_path, monkeypatch):
    from reverie.llm.models import build_chat_models

    monkeypatch.delenv(VARIABLE, raising=False)
    settings = load_settings(PROJECT_ROOT / "config.toml").model_copy(deep=True)
    settings.backend.kind, settings.backend.api_key_env = "openai", VARIABLE
    for role in ("strong", "cheap"):
        getattr(settings.models, role).path = "bundled"
    with pytest.raises(UserError) as raised:
        build_chat_models(settings)
    assert VARIABLE in str(raised.value) and "\n" not in str(raised.value)
