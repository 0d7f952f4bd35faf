"""The bench server: the scripted town model behind an OpenAI-compatible endpoint, answering
after the delays of a model on a GPU.

    python -m reverie.benchmarks.model_server [--slots 16] [--base-ms 30] [--prefill 5000] [--decode 80] [--port 0]

It is a benchmark tool, not part of the engine. It shows how busy a run keeps a model server
without a GPU: each call is answered by the scripted town model (its reply costs nothing), then
held for the time a real server would take, ``base latency + prompt tokens / prefill rate +
reply tokens / decode rate``. The base latency stands for a request's fixed cost (HTTP, template,
sampling set-up); the prefill rate for reading the prompt; the decode rate for writing the reply
in one slot. A GPU server decodes its slots in one batch, each at nearly full speed, so every slot
decodes at that rate; at most ``slots`` calls are answered at once, later ones queue, like
llama-server's ``-np``. The defaults are a 7B model on a data-centre GPU: 30 ms, 5,000 prompt
tokens/s, 80 reply tokens/s a slot.

``GET /bench/stats`` gives the figures since the start or the last ``POST /bench/reset``: calls,
model time (the delays added up), wall time, mean calls in flight (time-weighted, over the wall
time), the same while any call was in flight, the most at once, and the share of the wall time
with no call in flight (the client's own work: its engine). ``bench`` and ``game_day``
read them at their end (:func:`server_stats`) and print them.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from reverie import PROJECT_ROOT
from reverie.errors import UserError

STATS_PATH = "/bench/stats"
RESET_PATH = "/bench/reset"
MODEL_ID = "scripted"


@dataclass(frozen=True)
class Delays:
    """What a call costs on the modelled server (see the module)."""

    slots: int = 16
    base_s: float = 0.030
    prefill_tok_per_s: float = 5000.0
    decode_tok_per_s: float = 80.0

    def of(self, prompt_tokens: int, reply_tokens: int) -> float:
        return self.base_s + prompt_tokens / self.prefill_tok_per_s + reply_tokens / self.decode_tok_per_s


class Meter:
    """Calls in flight over time: the time-weighted count, the busy time, the peak."""

    def __init__(self, slots: int):
        self.slots = slots
        self._lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        with self._lock:
            self.started = self._last = time.perf_counter()
            self.calls = self.now = self.peak = 0
            self.model_s = self.area = self.busy_s = 0.0

    def _advance(self, at: float) -> None:
        span = at - self._last
        self.area += self.now * span
        if self.now:
            self.busy_s += span
        self._last = at

    def enter(self) -> None:
        with self._lock:
            self._advance(time.perf_counter())
            self.now += 1
            self.calls += 1
            self.peak = max(self.peak, self.now)

    def leave(self, model_s: float) -> None:
        with self._lock:
            self._advance(time.perf_counter())
            self.now -= 1
            self.model_s += model_s

    def stats(self) -> dict:
        with self._lock:
            self._advance(time.perf_counter())
            wall = self._last - self.started
            return {
                "slots": self.slots,
                "calls": self.calls,
                "model_s": round(self.model_s, 3),
                "wall_s": round(wall, 3),
                "mean_in_flight": round(self.area / wall, 3) if wall else 0.0,
                "mean_in_flight_while_busy": round(self.area / self.busy_s, 3) if self.busy_s else 0.0,
                "peak_in_flight": self.peak,
                "in_flight_now": self.now,
                # the share of the wall time with no call in flight: the client's own work (its engine)
                "idle_share": round(1 - self.busy_s / wall, 4) if wall else 0.0,
            }


def _messages(raw: list[dict]) -> list[Any]:
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

    kinds = {"system": SystemMessage, "user": HumanMessage, "assistant": AIMessage}
    return [kinds.get(str(m.get("role")), HumanMessage)(content=str(m.get("content") or "")) for m in raw]


def _response_format(body: dict) -> dict:
    """The scripted model's ``response_format`` (prompt name and schema) from OpenAI's fields."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        inner = fmt.get("json_schema") or {}
        return {"name": inner.get("name"), "schema": inner.get("schema") or {}}
    if "schema" in fmt:
        return {"name": None, "schema": fmt["schema"]}
    return {}


class BenchServer:
    """The server on a background thread (``url`` ends in ``/v1``); :meth:`close` stops it."""

    def __init__(
        self,
        delays: Delays = Delays(),
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        prompts: Path = PROJECT_ROOT / "prompts",
    ):
        from reverie.llm.prompt_size import estimate_tokens
        from reverie.llm.scripted import ScriptedChatModel

        self.delays = delays
        self.meter = Meter(delays.slots)
        model = ScriptedChatModel(prompts=prompts)
        slots = threading.BoundedSemaphore(delays.slots)
        meter = self.meter

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet: a bench prints its own figures
                pass

            def _send(self, status: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path.rstrip("/") == "/v1/models":  # none named: it answers to any model name
                    self._send(200, {"object": "list", "data": []})
                elif self.path == STATS_PATH:
                    self._send(200, meter.stats())
                else:
                    self._send(404, {"error": {"message": f"no {self.path} here"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    self._send(400, {"error": {"message": "the body is not JSON"}})
                    return
                if self.path == RESET_PATH:
                    meter.reset()
                    self._send(200, meter.stats())
                    return
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no {self.path} here"}})
                    return
                messages = _messages(body.get("messages") or [])
                fmt = _response_format(body)
                try:
                    result = model._generate(messages, response_format=fmt)
                except UserError:  # a name that is no prompt of ours (a server check): the schema's plain answer
                    result = model._generate(messages, response_format={**fmt, "name": None})
                text = str(result.generations[0].message.content)
                prompt_tokens, reply_tokens = estimate_tokens(messages), max(1, len(text) // 4)
                delay = delays.of(prompt_tokens, reply_tokens)
                with slots:
                    meter.enter()
                    try:
                        time.sleep(delay)
                    finally:
                        meter.leave(delay)
                self._send(
                    200,
                    {
                        "id": f"bench-{meter.calls}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model") or MODEL_ID,
                        "choices": [
                            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}
                        ],
                        "usage": {
                            "prompt_tokens": prompt_tokens,
                            "completion_tokens": reply_tokens,
                            "total_tokens": prompt_tokens + reply_tokens,
                        },
                    },
                )

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 128

        self._server = Server((host, port), Handler)
        self.host, self.port = self._server.server_address[:2]
        self.url = f"http://{self.host!s}:{self.port}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, name="bench-server", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> BenchServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- the client side: what bench and game_day read ------------------------------------------


def _root(url: str) -> str:
    return url.rstrip("/").removesuffix("/v1")


def reset_stats(url: str) -> bool:
    """Start the bench server's figures afresh (False: no bench server answers at ``url``)."""
    return _ask("POST", _root(url) + RESET_PATH) is not None


def server_stats(url: str) -> dict | None:
    """The bench server's figures (None: what answers at ``url`` is not a bench server)."""
    return _ask("GET", _root(url) + STATS_PATH)


def _ask(method: str, url: str) -> dict | None:
    import httpx

    try:
        reply = httpx.request(method, url, json={} if method == "POST" else None, timeout=5)
        body = reply.json() if reply.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None
    return body if isinstance(body, dict) and "mean_in_flight" in body else None


def stats_line(stats: dict) -> str:
    return (
        f"bench server: {stats['calls']} calls, model time {stats['model_s']:.1f} s, wall {stats['wall_s']:.1f} s, "
        f"mean calls in flight {stats['mean_in_flight']:.2f} of {stats['slots']} slots "
        f"({stats['mean_in_flight_while_busy']:.2f} while any was in flight, at most {stats['peak_in_flight']}); "
        f"no call in flight {stats['idle_share']:.0%} of the time"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m reverie.benchmarks.model_server", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--slots", type=int, default=Delays.slots, help="calls answered at once (default 16)")
    parser.add_argument("--base-ms", type=float, default=Delays.base_s * 1000, help="fixed cost of a call (default 30)")
    parser.add_argument(
        "--prefill", type=float, default=Delays.prefill_tok_per_s, help="prompt tokens/s (default 5000)"
    )
    parser.add_argument(
        "--decode", type=float, default=Delays.decode_tok_per_s, help="reply tokens/s a slot (default 80)"
    )
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="0: a free port")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.slots < 1 or args.prefill <= 0 or args.decode <= 0 or args.base_ms < 0:
        parser.error("--slots must be 1 or more, --prefill and --decode above 0, --base-ms 0 or more")
    server = BenchServer(
        Delays(args.slots, args.base_ms / 1000, args.prefill, args.decode), host=args.host, port=args.port
    )
    print(f'bench server: {server.url} ({args.slots} slots; set [backend] kind = "openai", base_url to it)', flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
