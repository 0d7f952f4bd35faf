"""One deadline per request to a model server, and what a server's failure decides: which
failures stop the run (no fail-safe is used) and which fall back to the ask's fail-safe.

The servers are fakes for failure paths on loopback (broken_servers.py, tests/fuzz/fake_server.py),
not models. Timings are asserted only as bounds far above the deadline: the decision is what is
asserted (which error, which line, how many requests the server saw).
"""

from __future__ import annotations

import json

import pytest

import broken_servers
from llm_support import CHOICES, INPUTS, TASK, TASKS, WakeUp
from reverie.llm import LLM
from reverie.llm.deadline import deadline_client
from reverie.llm.server_errors import (
    IN_A_ROW,
    AuthRefused,
    BackendLost,
    NotAChatCompletion,
    RequestsRefused,
    ServerFailing,
)
from tests.fuzz.fake_server import FakeServer

FAIL_SAFE = WakeUp(hour=7, place="bedroom")


def server_llm(settings, base_url: str, tmp_path, **backend) -> LLM:
    settings.backend.kind, settings.backend.base_url = "openai", base_url
    settings.backend.retry_pause_s, settings.backend.timeout_s = 0.01, 2.0
    for key, value in backend.items():
        setattr(settings.backend, key, value)
    return LLM(settings, tasks=TASKS, ledger_path=tmp_path / "calls.jsonl")


def one_line_about_the_backend(exc: BaseException | None, where: str) -> str:
    assert isinstance(exc, BackendLost), repr(exc)
    text = str(exc)
    assert text.startswith("[backend]") and "\n" not in text and where in text, text
    return text


def ledger(tmp_path) -> list[dict]:
    path = tmp_path / "calls.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


# -- the deadline ------------------------------------------------------------------------------


@pytest.mark.timeout(60)
@pytest.mark.parametrize("headers", [False, True], ids=["body", "status-line"])
def test_a_reply_dripped_a_byte_a_second_ends_at_the_deadline(headers):
    """httpx's read timeout alone never ends this request: a byte comes every 0.2 s."""
    import httpx

    with broken_servers.dripping(every_s=0.2, headers=headers) as server, deadline_client(1.5) as client:
        took, error = broken_servers.elapsed(lambda: client.post(f"{server.base_url}/chat/completions", json={}))
    assert isinstance(error, httpx.TimeoutException), repr(error)
    assert took < 15, f"{took:.1f} s"


@pytest.mark.timeout(60)
def test_an_ask_to_a_dripping_server_stops_the_run_at_the_deadline(settings, tmp_path):
    """The probe is answered; the chat reply drips. Before: the ask waited as long as the server dripped."""
    with broken_servers.dripping(every_s=0.2) as server:
        llm = server_llm(settings, server.base_url, tmp_path, timeout_s=1.5, retries=3)
        took, error = broken_servers.elapsed(lambda: llm.ask(TASK, INPUTS, choices=CHOICES))
        posts = [r for r in server.requests if r.startswith("POST")]
    text = one_line_about_the_backend(error, server.base_url)
    assert "timeout_s = 1.5 s" in text
    assert len(posts) == 1, "a server past the deadline is lost at once, not asked again"
    assert llm.backend_lost is not None and ledger(tmp_path) == [], "no fail-safe was used or kept"
    assert took < 15, f"{took:.1f} s"


@pytest.mark.timeout(60)
def test_a_silent_server_stops_the_run_at_the_start_within_the_probe_deadline(settings, tmp_path):
    """It accepts connections and says nothing. Before: each probe request timed out quietly and the
    run went on to its calls (the defaults held it about 42 minutes)."""
    with broken_servers.silent() as server:
        llm = server_llm(settings, server.base_url, tmp_path, timeout_s=5.0, probe_timeout_s=1.0)
        took, error = broken_servers.elapsed(llm.check_backend)
    text = one_line_about_the_backend(error, server.base_url)
    assert "within 1 s" in text and "cannot be reached" not in text
    assert took < 15, f"{took:.1f} s"


# -- what stops the run ------------------------------------------------------------------------


@pytest.mark.parametrize("status", [401, 403])
def test_a_refused_api_key_stops_the_run_at_once(settings, tmp_path, status):
    body = {
        "error": {"message": "Incorrect API key provided", "type": "invalid_request_error", "code": "invalid_api_key"}
    }
    with broken_servers.fixed(status, body) as server:
        llm = server_llm(settings, server.base_url, tmp_path, retries=3)
        _, at_start = broken_servers.elapsed(llm.check_backend)
        asked = len(server.requests)
        _, mid_run = broken_servers.elapsed(lambda: llm.ask(TASK, INPUTS, choices=CHOICES))
        _, next_ask = broken_servers.elapsed(lambda: llm.ask(TASK, INPUTS, choices=CHOICES))
        mid_run_requests = len(server.requests) - asked
    for error in (at_start, mid_run, next_ask):
        assert isinstance(error, AuthRefused), repr(error)
        assert "[backend] api_key" in one_line_about_the_backend(error, server.base_url)
    assert asked == 1, "the probe stops at its first request"
    assert mid_run_requests == 1, "not retried, and the next ask is not sent"
    assert ledger(tmp_path) == []


NOT_COMPLETIONS = {
    "html": (200, "<html><body><h1>Welcome to nginx!</h1></body></html>", "text/html"),
    "no-choices": (
        200,
        json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": []}),
        "application/json",
    ),
    "not-json": (200, "OK", "text/plain"),
}


@pytest.mark.parametrize("kind", list(NOT_COMPLETIONS))
def test_replies_that_are_not_chat_completions_stop_the_run(settings, tmp_path, kind):
    """A proxy's welcome page, an empty choices list, a body that is not JSON. Before: retried,
    then a fail-safe for every ask, and the run went on to the end with exit code 0."""
    status, body, content_type = NOT_COMPLETIONS[kind]
    with broken_servers.fixed(status, body, content_type=content_type, reason="OK") as server:
        llm = server_llm(settings, server.base_url, tmp_path, retries=5)
        _, at_start = broken_servers.elapsed(llm.check_backend)
        llm = server_llm(settings, server.base_url, tmp_path, retries=5)  # a run whose start check was passed
        _, mid_run = broken_servers.elapsed(lambda: llm.ask(TASK, INPUTS, choices=CHOICES))
        posts = [r for r in server.requests if r.startswith("POST")]
    assert isinstance(at_start, NotAChatCompletion), repr(at_start)
    assert isinstance(mid_run, NotAChatCompletion), repr(mid_run)
    assert "base_url" in one_line_about_the_backend(mid_run, server.base_url)
    assert len(posts) == 1 + IN_A_ROW, "the probe's request, then IN_A_ROW tries of the ask"
    assert ledger(tmp_path) == []


def test_one_reply_that_is_not_a_chat_completion_is_retried(settings, tmp_path):
    server = FakeServer(failures={}, script=["not_json", "no_choices"]).up()
    try:
        answer = server_llm(settings, server.base_url, tmp_path).ask(TASK, INPUTS, choices=CHOICES)
    finally:
        server.down()
    assert isinstance(answer, WakeUp) and server.counts["reply"] >= 1


@pytest.mark.parametrize("failure", ["http_500", "http_503", "http_429"])
def test_a_server_failing_past_its_retries_stops_the_run_instead_of_a_fail_safe(settings, tmp_path, failure):
    """Before: after the retries the ask used its fail-safe, and the step was saved with it."""
    server = FakeServer(failures={failure: 1.0}).up()
    try:
        llm = server_llm(settings, server.base_url, tmp_path, retries=2)
        _, error = broken_servers.elapsed(lambda: llm.ask(TASK, INPUTS, choices=CHOICES))
    finally:
        server.down()
    assert isinstance(error, ServerFailing), repr(error)
    assert "after 3 tries" in one_line_about_the_backend(error, server.base_url)
    assert sum(server.counts.values()) == 3, "the first try and two retries"
    assert ledger(tmp_path) == []


def test_a_dropped_reply_is_not_reported_as_an_unreachable_server(settings, tmp_path):
    """Before: "cannot be reached", though the server took the connection and dropped it."""
    server = FakeServer(failures={"drop": 1.0}).up()
    try:
        _, error = broken_servers.elapsed(
            lambda: server_llm(settings, server.base_url, tmp_path, retries=1).ask(TASK, INPUTS, choices=CHOICES)
        )
    finally:
        server.down()
    text = one_line_about_the_backend(error, server.base_url)
    assert "cannot be reached" not in text and "closed the connection before its reply" in text
    assert server.counts["drop"] == 2


def test_nothing_listening_is_reported_as_unreachable(settings, tmp_path):
    server = FakeServer(failures={})
    llm = server_llm(settings, server.base_url, tmp_path, retries=1)
    _, at_start = broken_servers.elapsed(llm.check_backend)
    server.up()
    try:
        assert isinstance(llm.ask(TASK, INPUTS, choices=CHOICES), WakeUp)
    finally:
        server.down()
    _, mid_run = broken_servers.elapsed(lambda: llm.ask(TASK, INPUTS, choices=CHOICES))
    assert "no model server answers" in one_line_about_the_backend(at_start, server.base_url)
    assert "cannot be reached" in one_line_about_the_backend(mid_run, server.base_url)


# -- what falls back ---------------------------------------------------------------------------


def test_a_refused_request_falls_back_but_refusals_in_a_row_stop_the_run(settings, tmp_path):
    """HTTP 400 "context too long" is this request's fault: its ask uses the fail-safe, as today.
    Every request refused is the configuration's: IN_A_ROW asks refused in a row stop the run."""
    server = FakeServer(failures={"http_400_context": 1.0}).up()
    try:
        llm = server_llm(settings, server.base_url, tmp_path)
        answers = [llm.ask(TASK, INPUTS, choices=CHOICES) for _ in range(IN_A_ROW - 1)]
        _, error = broken_servers.elapsed(lambda: llm.ask(TASK, INPUTS, choices=CHOICES))
    finally:
        server.down()
    assert answers == [FAIL_SAFE] * (IN_A_ROW - 1)
    assert isinstance(error, RequestsRefused) and "HTTP 400" in one_line_about_the_backend(error, server.base_url)
    assert sum(server.counts.values()) == IN_A_ROW, "a refusal is not retried"


def test_a_chat_completion_between_refusals_resets_the_count(settings, tmp_path):
    script = ["http_400_context"] * (IN_A_ROW - 1) + ["reply"] + ["http_400_context"] * (IN_A_ROW - 1)
    server = FakeServer(failures={}, script=script).up()
    try:
        llm = server_llm(settings, server.base_url, tmp_path, retries=0)
        for _ in range(2 * IN_A_ROW - 1):
            llm.ask(TASK, INPUTS, choices=CHOICES)  # no exception
    finally:
        server.down()
    assert llm.backend_lost is None


def test_a_bad_answer_from_a_working_server_keeps_its_repair_and_fail_safe(settings, tmp_path):
    """Valid JSON that fails validation is the model's, not the server's: corrected, then the fail-safe."""
    body = {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "local",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": '{"hour": 3, "place": "attic"}'},
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }
    with broken_servers.fixed(200, body, reason="OK") as server:
        llm = server_llm(settings, server.base_url, tmp_path)
        assert llm.ask(TASK, INPUTS, choices=CHOICES) == FAIL_SAFE
    (line,) = ledger(tmp_path)
    assert line["fallback"] is True and line["attempts"] == settings.repair.max_attempts
    assert llm.backend_lost is None


def test_base_url_that_is_not_a_url_is_a_one_line_config_error(tmp_path):
    from reverie.config import ConfigError, load_settings

    for bad in ("not a url", "127.0.0.1:8080/v1", "ftp://host/v1", "http://:8080/v1", "http://host:99999/v1"):
        path = tmp_path / "config.toml"
        path.write_text(f'[backend]\nkind = "openai"\nbase_url = "{bad}"\n', encoding="utf-8")
        with pytest.raises(ConfigError) as error:
            load_settings(path)
        text = str(error.value)
        assert "[backend] base_url" in text and "\n" not in text and "http://127.0.0.1:8080/v1" in text, text
    path.write_text('[backend]\nkind = "openai"\nbase_url = "https://models.example.org:8443/v1"\n', encoding="utf-8")
    assert load_settings(path).backend.base_url == "https://models.example.org:8443/v1"


def test_a_huge_refused_reply_goes_back_cut_to_what_max_tokens_could_hold(settings, scripted):
    """Scripted: a 100 KB reply (a server that ignores max_tokens), then a valid one. Before: the
    repair turn sent the 100 KB back whole, far past the 1024-token window."""
    from reverie.llm.repair_loop import ECHO_CHARS_PER_TOKEN

    model = scripted('{"hour": 8, "place": "' + "x" * 100_000 + '"}', '{"hour": 8, "place": "kitchen"}')
    llm = LLM(settings, tasks=TASKS, chat_models={"strong": model, "cheap": model})
    assert llm.ask(TASK, INPUTS, choices=CHOICES) == WakeUp(hour=8, place="kitchen")
    repair = model.calls[1][0]
    echoed = repair[-2].content
    limit = llm.chain._loop(TASK, {}, CHOICES).max_tokens() * ECHO_CHARS_PER_TOKEN
    assert echoed.startswith('{"hour": 8, "place": "xxx') and len(echoed) <= limit + 2 < 100_000 // 20
    assert sum(len(str(m.content)) for m in repair) < 1024 * 3, "the repair turn fits the window"


def test_the_environments_proxy_still_carries_the_requests(monkeypatch):
    """A transport of our own turns httpx's reading of HTTP_PROXY off: it is read for it. The fake
    proxy on loopback answers as the server would."""
    from reverie.llm.deadline import environment_proxy

    with broken_servers.fixed(200, broken_servers.MODELS, reason="OK") as proxy:
        monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{proxy.port}")
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)
        url = "http://models.example.org:8080/v1"
        with deadline_client(5, url) as client:
            assert client.get(f"{url}/models").json() == broken_servers.MODELS
        assert proxy.requests == [f"GET {url}/models HTTP/1.1"]
        monkeypatch.setenv("NO_PROXY", "models.example.org")
        assert environment_proxy(url) is None
