"""The bench server: an OpenAI-compatible server answering with the scripted town model after
modelled delays, at most ``slots`` calls at once, and its accounting of calls in flight."""

from __future__ import annotations

import time

import httpx
import pytest

from reverie.benchmarks.bench_server import at_once
from reverie.benchmarks.model_server import (
    BenchServer,
    Delays,
    Meter,
    reset_stats,
    server_stats,
    stats_line,
)
from reverie.config import Settings
from reverie.evaluation.day_run import Day
from tests.loopback_server import QuietHandler, serving


def ask(url: str, content: str = "Say something.") -> dict:
    body = {
        "model": "any",
        "messages": [{"role": "system", "content": "You answer."}, {"role": "user", "content": content}],
        "max_tokens": 16,
    }
    reply = httpx.post(f"{url}/chat/completions", json=body, timeout=30)
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_the_delay_is_base_plus_prompt_over_prefill_plus_reply_over_decode():
    delays = Delays(slots=4, base_s=0.03, prefill_tok_per_s=5000, decode_tok_per_s=80)
    assert delays.of(500, 40) == pytest.approx(0.03 + 0.1 + 0.5)


@pytest.mark.parametrize("slots,calls", [(2, 4), (4, 4), (3, 7)])
def test_n_calls_at_once_keep_at_most_slots_in_flight(slots, calls):
    hold = 0.4
    with BenchServer(Delays(slots=slots, base_s=hold, prefill_tok_per_s=1e12, decode_tok_per_s=1e12)) as server:
        ask(server.url)  # warm: the prompt store loads on the first call
        assert reset_stats(server.url)
        elapsed = at_once(lambda _i: ask(server.url), calls)
        stats = server_stats(server.url)
    rounds = -(-calls // slots)  # the server answers `slots` at a time, the rest queue
    assert stats["calls"] == calls and stats["peak_in_flight"] == min(slots, calls)
    assert stats["model_s"] == pytest.approx(calls * hold, rel=0.01)
    assert elapsed >= rounds * hold
    # in flight, weighted by time: calls x hold over the wall time since the reset (a sleep runs over on a
    # loaded machine, so a fifth either way; counting calls alone, or time alone, is off by far more)
    assert stats["mean_in_flight"] == pytest.approx(calls * hold / stats["wall_s"], rel=0.2)
    assert stats["mean_in_flight"] <= min(slots, calls)
    # requests reach a slot a few ms apart (each is parsed and answered by rule first)
    assert calls / rounds * 0.8 <= stats["mean_in_flight_while_busy"] <= min(slots, calls)
    assert f"of {slots} slots" in stats_line(stats)


def test_the_meter_weights_calls_in_flight_by_time():
    meter = Meter(slots=4)
    for _ in range(3):
        meter.enter()
    time.sleep(0.3)
    for _ in range(3):
        meter.leave(0.3)
    time.sleep(0.3)  # idle: counts in the wall time, not in the busy time
    stats = meter.stats()
    assert stats["calls"] == 3 and stats["peak_in_flight"] == 3 and stats["in_flight_now"] == 0
    assert stats["mean_in_flight_while_busy"] == pytest.approx(3.0, rel=0.01)
    assert stats["mean_in_flight"] == pytest.approx(3 * 0.3 / stats["wall_s"], rel=0.05)
    assert stats["model_s"] == pytest.approx(0.9)
    assert stats["idle_share"] == pytest.approx(0.5, abs=0.05)


def test_a_prompt_of_ours_gets_the_scripted_models_answer_and_usage():
    with BenchServer(Delays(slots=1, base_s=0.0)) as server:
        reply = ask(server.url, "x " * 400)
    usage = reply["usage"]
    assert usage["prompt_tokens"] > 100 and usage["completion_tokens"] >= 1
    assert reply["choices"][0]["message"]["content"]


def test_what_is_not_a_bench_server_gives_no_figures():
    assert server_stats("http://127.0.0.1:9/v1") is None
    assert reset_stats("http://127.0.0.1:9/v1") is False


def test_a_day_resets_the_bench_servers_figures_each_hour_and_asks_another_server_once():
    """``game_day`` starts the bench server's figures afresh every hour; a server that is not the
    bench server (here a loopback fake answering 404 to everything) is asked once, not every hour."""
    asked: list[str] = []

    class NotABenchServer(QuietHandler):
        def do_POST(self):
            asked.append(self.path)
            self.send_json(404, {})

    def day_on(url: str) -> Day:
        settings = Settings()
        settings.backend.kind, settings.backend.base_url = "openai", url
        return Day(settings=settings, sim=None, ask=None, progress=None, hours_before=0)  # type: ignore[arg-type]

    with serving(NotABenchServer) as url:
        day = day_on(url)
        assert [day.reset_bench_server() for _hour in range(3)] == [False, False, False]
    assert asked == ["/bench/reset"]

    with BenchServer(Delays(slots=1, base_s=0.0)) as server:
        day = day_on(server.url)
        ask(server.url)
        assert day.reset_bench_server() and server_stats(server.url)["calls"] == 0
        ask(server.url)
        assert day.reset_bench_server() and server_stats(server.url)["calls"] == 0
