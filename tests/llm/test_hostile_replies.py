"""Replies and servers that used to crash an ask: each must end in a correction or the
fail-safe, and the ledger must take whatever it is given.

Models here are fakes for failure paths: ScriptedChat (scripted replies) and a tiny
loopback HTTP server speaking the OpenAI protocol (tests/fuzz/fake_server.py) whose answers
are chosen per test.
"""

from __future__ import annotations

import gc
import json

import pytest

from llm_support import CHOICES, INPUTS, TASK, TASKS, WakeUp
from reverie.llm import LLM
from reverie.llm.server_errors import BackendLost
from tests.fuzz.fake_server import FakeServer

VALID = '{"hour": 8, "place": "kitchen"}'
FAIL_SAFE = WakeUp(hour=7, place="bedroom")


def make_llm(settings, model, **kwargs) -> LLM:
    return LLM(settings, tasks=TASKS, chat_models={"strong": model, "cheap": model}, **kwargs)


def ledger_lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


DEEP_REPLIES = ["[" * 5000 + "]" * 5000, '{"hour":' * 3000 + "8" + "}" * 3000]


@pytest.mark.parametrize("reply", DEEP_REPLIES, ids=["brackets", "objects"])
def test_a_reply_nested_too_deeply_is_a_correction(settings, scripted, reply, tmp_path):
    """Scripted: a reply nested thousands deep, then a valid one."""
    model = scripted(reply, VALID)
    llm = make_llm(settings, model, ledger_path=tmp_path / "calls.jsonl")
    assert llm.ask(TASK, INPUTS, choices=CHOICES) == WakeUp(hour=8, place="kitchen")
    correction = model.calls[1][0][-1].content
    assert "nested too deeply" in correction
    assert ledger_lines(tmp_path / "calls.jsonl")[0]["attempts"] == 2


def _frames(n: int) -> int:
    return 0 if n == 0 else 1 + _frames(n - 1)


@pytest.mark.parametrize("reply", DEEP_REPLIES, ids=["brackets", "objects"])
def test_refusing_a_deep_reply_leaves_stack_for_finalisers(settings, scripted, reply):
    """Scripted: a reply nested thousands deep, then a valid one, with a garbage collection forced
    at every allocation while the ask runs. A collection runs other objects' finalisers wherever it
    happens; each one here needs 50 frames, as a finaliser that closes a file or formats an error
    does. Refusing the reply must never take the stack near the recursion limit: a finaliser run
    there fails, and its error cannot even be reported (the suite failed at random that way)."""
    starved: list[int] = []

    def finaliser(phase: str, info: dict) -> None:
        if phase == "start":
            try:
                _frames(50)
            except RecursionError:
                starved.append(info["generation"])

    model = scripted(reply, VALID)
    llm = make_llm(settings, model)
    threshold = gc.get_threshold()
    gc.collect()
    gc.callbacks.append(finaliser)
    gc.set_threshold(1, 10**6, 10**6)  # the youngest generation is collected at every allocation
    try:
        answer = llm.ask(TASK, INPUTS, choices=CHOICES)
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.remove(finaliser)
    assert answer == WakeUp(hour=8, place="kitchen")
    assert "nested too deeply" in model.calls[1][0][-1].content
    assert starved == [], f"{len(starved)} collections ran with less than 50 frames to spare"


def test_nesting_is_counted_outside_strings_only():
    from reverie.llm.reply_parser import MAX_NESTING, nesting_depth

    assert nesting_depth('{"place": "' + "[" * 500 + '", "hour": 8}') == 1
    assert nesting_depth('{"a": "quote \\" [", "b": [[1]]}') == 3
    assert nesting_depth("[" * (MAX_NESTING + 1)) == MAX_NESTING + 1
    assert nesting_depth("[" * 100_000 + "]" * 100_000, MAX_NESTING) == MAX_NESTING + 1  # stops once past
    assert nesting_depth('{"a": [[1]], "b": "x\\" [[[[', MAX_NESTING) == 3  # the open string's brackets do not count


def test_a_reply_is_known_to_stop_inside_a_string_only_if_it_does():
    from reverie.llm.reply_parser import _inside_a_string

    assert _inside_a_string('{"a": "one", "b": "tw')
    assert _inside_a_string('{"a": "it said \\"')  # the quote is escaped: still inside
    assert _inside_a_string('{"a": "ends in a backslash \\')
    assert not _inside_a_string('{"a": "x\\\\", "b": 1')  # an escaped backslash, then the closing quote
    assert not _inside_a_string('{"a": [1, 2')


@pytest.mark.parametrize(
    "reply",
    [
        '{"hour": 8, "place": "\ud800"}',
        '{"hour": 8, "place": "x\\udfffy"}',
        '{"hour": 8, "place": "kitchen", "note": "\ud83d"}',
    ],
    ids=["raw", "escaped", "extra-key"],
)
def test_lone_surrogates_reach_the_ledger_and_never_the_answer(settings, scripted, reply, tmp_path):
    """Scripted: a reply with a lone surrogate (invalid place or ignored key), then a valid one."""
    model = scripted(reply, VALID)
    llm = make_llm(settings, model, ledger_path=tmp_path / "calls.jsonl")
    answer = llm.ask(TASK, INPUTS, choices=CHOICES)
    assert answer.place in CHOICES["places"]
    lines = ledger_lines(tmp_path / "calls.jsonl")  # written, and every line parses
    assert len(lines) == 1


def test_the_ledger_writes_whatever_it_is_given(tmp_path):
    from reverie.llm.ledger import Ledger

    ledger = Ledger(tmp_path / "calls.jsonl")
    ledger.record(valid=False, fallback=True, prompt="p", errors=['attempt 1: place: "\ud800" is not one of'])
    (line,) = ledger_lines(tmp_path / "calls.jsonl")
    assert line["errors"] == ['attempt 1: place: "\ud800" is not one of']


@pytest.mark.parametrize(
    "reply",
    [
        '{"hour": 8, "place": ' + "9" * 5000 + "}",
        '{"hour": 1e999, "place": "kitchen"}',
        '{"hour": NaN, "place": "kitchen"}',
        "\x00\x07",
        '{"hour": 8, "place": ["kitchen"]}',
    ],
    ids=["5000-digits", "infinity", "nan", "control", "list"],
)
def test_odd_numbers_and_types_are_corrections(settings, scripted, reply):
    """Scripted: an odd reply, then a valid one."""
    model = scripted(reply, VALID)
    assert make_llm(settings, model).ask(TASK, INPUTS, choices=CHOICES) == WakeUp(hour=8, place="kitchen")
    assert len(model.calls) == 2


# -- a model server that fails -----------------------------------------------------------------


def server_llm(settings, server: FakeServer, tmp_path, **backend) -> LLM:
    settings.backend.kind, settings.backend.base_url = "openai", server.base_url
    settings.backend.retry_pause_s, settings.backend.timeout_s = 0.01, 2.0
    for key, value in backend.items():
        setattr(settings.backend, key, value)
    return LLM(settings, tasks=TASKS, ledger_path=tmp_path / "calls.jsonl")


@pytest.mark.parametrize("failure", ["http_500", "http_503", "http_429", "no_choices", "null_choices", "not_json"])
def test_a_failing_server_is_retried_then_the_run_stops(settings, tmp_path, failure):
    """Fake server: every request fails the same way. No fail-safe is used: it would be kept."""
    server = FakeServer(failures={failure: 1.0}).up()
    try:
        llm = server_llm(settings, server, tmp_path, retries=2)
        with pytest.raises(BackendLost) as stop:
            llm.ask(TASK, INPUTS, choices=CHOICES)
    finally:
        server.down()
    assert sum(server.counts.values()) == 3  # the first try and two retries, then the stop
    assert str(stop.value).startswith("[backend]") and "\n" not in str(stop.value)
    assert not (tmp_path / "calls.jsonl").exists() or ledger_lines(tmp_path / "calls.jsonl") == []


def test_a_context_overflow_is_not_retried(settings, tmp_path):
    """Fake server: HTTP 400 "maximum context length"."""
    server = FakeServer(failures={"http_400_context": 1.0}).up()
    try:
        assert server_llm(settings, server, tmp_path).ask(TASK, INPUTS, choices=CHOICES) == FAIL_SAFE
    finally:
        server.down()
    assert sum(server.counts.values()) == 1
    assert "HTTP 400" in ledger_lines(tmp_path / "calls.jsonl")[0]["errors"][0]


def test_a_server_that_recovers_gives_the_real_answer(settings, tmp_path):
    """Fake server: the first request is dropped and the second gets a 503; then a valid reply."""
    server = FakeServer(failures={}, script=["drop", "http_503"]).up()
    try:
        answer = server_llm(settings, server, tmp_path).ask(TASK, INPUTS, choices=CHOICES)
    finally:
        server.down()
    assert isinstance(answer, WakeUp) and server.counts["drop"] == 1 and server.counts["http_503"] == 1
    assert server.counts["reply"] >= 1


@pytest.mark.parametrize("failure", ["drop", "slow", "refused"])
def test_an_unreachable_server_stops_the_run_at_the_ask(settings, tmp_path, failure):
    """Fake server: connections dropped, answers slower than the deadline, or nothing listening."""
    server = FakeServer(failures={failure: 1.0} if failure != "refused" else {}, slow_s=4.0)
    if failure != "refused":
        server.up()
    try:
        llm = server_llm(settings, server, tmp_path, retries=1)
        with pytest.raises(BackendLost) as stop:
            llm.ask(TASK, INPUTS, choices=CHOICES)
        lost = llm.backend_lost
        assert isinstance(lost, BackendLost) and lost is stop.value
        assert str(lost).startswith("[backend]") and "\n" not in str(lost) and server.base_url in str(lost)
        with pytest.raises(BackendLost):
            llm.ask(TASK, INPUTS, choices=CHOICES)  # later asks do not call the server again
    finally:
        server.down()
    if failure != "refused":
        assert sum(server.counts.values()) == (1 if failure == "slow" else 2)  # past the deadline: lost at once


def test_after_reconnect_the_server_is_asked_again(settings, tmp_path):
    """Fake server: two dropped connections (the server is lost), then answers."""
    server = FakeServer(failures={}, script=["drop", "drop"]).up()
    try:
        llm = server_llm(settings, server, tmp_path, retries=1)
        with pytest.raises(BackendLost):
            llm.ask(TASK, INPUTS, choices=CHOICES)
        assert llm.backend_lost is not None
        llm.reconnect()
        assert isinstance(llm.ask(TASK, INPUTS, choices=CHOICES), WakeUp) and llm.backend_lost is None
    finally:
        server.down()
    assert server.counts["drop"] == 2 and server.counts["reply"] >= 1
