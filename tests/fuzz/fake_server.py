"""A failing fake OpenAI-compatible server on loopback (a fake for failure paths, not a model).

``POST /v1/chat/completions`` answers with a fuzzed reply (fuzz_model.Generator, built from
the request's ``response_format`` schema) or, as the seeded dice say: HTTP 500, 503, 429,
a 400 saying the context is too long, a 200 with no or null ``choices``, a body that is not
JSON, a connection dropped without an answer, or an answer slower than the client waits.
``script`` fixes the outcomes of the first requests. ``down()`` stops listening (connection refused); ``up()`` listens again on the same port.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections import Counter

from tests.fuzz.fuzz_model import KINDS, Generator
from tests.loopback_server import LoopbackFake, QuietHandler

FAILURES = {  # share of requests, the rest are fuzzed replies
    "http_500": 0.02,
    "http_503": 0.01,
    "http_429": 0.02,
    "http_400_context": 0.01,
    "no_choices": 0.01,
    "null_choices": 0.005,
    "not_json": 0.005,
    "drop": 0.02,
    "slow": 0.005,
}


class FakeServer(LoopbackFake):
    def __init__(self, *, seed: int = 0, slow_s: float = 1.5, failures: dict | None = None, script=()):
        super().__init__()
        self.rng = random.Random(seed)
        self.script = list(script)  # outcomes of the first requests, in order (then the dice)
        self.lock = threading.Lock()
        self.slow_s = slow_s
        self.failures = dict(FAILURES if failures is None else failures)
        self.counts: Counter = Counter()

    def handle(self, handler: QuietHandler, method: str) -> None:
        if method != "POST":  # an OpenAI-compatible server that answers chat requests only
            handler.send_error(501, f"Unsupported method ({method!r})")
            return
        self.answer(handler, self.read_body(handler))

    def _dice(self) -> str:
        if self.script:
            return self.script.pop(0)
        roll, edge = self.rng.random(), 0.0
        for name, share in self.failures.items():
            edge += share
            if roll < edge:
                return name
        return "reply"

    def answer(self, handler: QuietHandler, body: bytes) -> None:
        with self.lock:
            what = self._dice()
            self.counts[what] += 1
            if what == "reply":
                request = json.loads(body)
                asked = request.get("response_format") or {}
                schema = (
                    asked.get("schema")
                    or (asked.get("json_schema") or {}).get("schema")
                    or {"type": "object", "properties": {}}
                )
                gen = Generator(self.rng)
                text = gen.reply(self.rng.choice(KINDS), gen.fit(schema, schema))
        if what == "drop":
            handler.close_connection = True
            handler.connection.shutdown(socket.SHUT_RDWR)
            return
        if what == "slow":
            time.sleep(self.slow_s)
            what, text = "reply", "{}"
        if what.startswith("http_"):
            status = int(what.split("_")[1])
            message = (
                "This model's maximum context length is 2048 tokens; the request has 4100"
                if status == 400
                else "the server is busy"
                if status == 429
                else "internal error"
            )
            return handler.send_json(status, {"error": {"message": message, "type": "server_error", "code": status}})
        if what == "not_json":
            return handler.send_body(200, b"<html>gateway hiccup</html>")
        if what in ("no_choices", "null_choices"):
            return handler.send_json(
                200,
                {
                    "id": "x",
                    "object": "chat.completion",
                    "created": 0,
                    "model": "fake",
                    "choices": [] if what == "no_choices" else None,
                },
            )
        handler.send_json(
            200,
            {
                "id": "fuzz",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": "fake",
                "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
                "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
            },
        )
