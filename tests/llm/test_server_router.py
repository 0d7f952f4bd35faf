"""Several servers in one run (``[[backend.servers]]``): which server takes a call, each server
kind keeping its structured-output request behind the router, and servers that are gone. The
servers are the documented fakes of server_fakes.py (contract tests; the real llama-servers run
in tests/simulation/test_two_servers.py)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import broken_servers
import pytest
import server_fakes
from langchain_core.messages import HumanMessage
from llm_support import CHOICES, INPUTS, TASK, TASKS, WakeUp

from reverie.llm import LLM
from reverie.llm.schema import call_schema
from reverie.llm.server_chat_model import ServerChatModel
from reverie.llm.server_errors import ServerFailing
from reverie.llm.server_router import HomeFirst
from reverie.llm.servers import compact_grammar, is_offline
from tests.fresh_python import fresh_python
from tests.loopback_server import free_port


def router(*slots: int) -> HomeFirst:
    """A LiteLLM Router over servers that are never called (the picks only)."""
    routes = [
        {
            role: ServerChatModel(base_url=f"http://10.0.0.{i}:8080/v1", api_key="none", model="local", max_retries=0)
            for role in ("strong", "cheap")
        }
        for i in range(len(slots))
    ]
    return HomeFirst(routes, list(slots))


def take(r: HomeFirst, persona: str | None, role: str = "strong") -> int:
    """The server LiteLLM's pick gives a call of ``persona`` (held until :meth:`HomeFirst.done`)."""
    token = r.register([HumanMessage("hi")], None, {}, persona)
    request = {"metadata": {"reverie_call": token}}
    deployment = r.router.get_available_deployment(model=role, request_kwargs=request)
    assert request["client"] is r.routes[r._held[token]][role].root_client, "sent through that server's own client"
    assert deployment["litellm_params"]["api_base"] == r.urls[r._held[token]]
    return token


def test_a_persona_keeps_its_server_and_personas_spread_by_slots():
    r = router(3, 1)
    homes = {}
    for n in range(8):
        token = take(r, f"P{n}")
        homes[f"P{n}"] = r._held[token]
        r.done(token)
    assert [list(homes.values()).count(i) for i in (0, 1)] == [6, 2], "three personas a slot on each"
    for persona, home in homes.items():
        token = take(r, persona, "cheap")
        assert r._held[token] == home
        r.done(token)


def test_a_full_server_sends_the_call_to_the_least_busy_one_and_every_slot_is_used():
    r = router(2, 2)
    taken = [r._held[take(r, "Ann")] for _ in range(4)]  # Ann's home holds 2; the next two go elsewhere
    assert taken.count(0) == 2 and taken.count(1) == 2
    assert r.busy == [2, 2]


def test_a_cooled_down_server_gets_no_calls_and_its_personas_find_another(capsys):
    r = router(1, 1)
    token = take(r, "Ann")
    home = r._held[token]
    r.done(token)
    for role in ("strong", "cheap"):  # as LiteLLM does when a call fails on it
        r.router.health().cooldowns.add_deployment_to_cooldown(r.deployment_id(home, role), OSError(), 503, 60)
    token = take(r, "Ann")
    other = r._held[token]
    r.done(token)
    assert other != home
    assert [line for line in capsys.readouterr().err.splitlines() if "lost" in line and r.urls[home] in line]
    r.router.health().cooldowns.add_deployment_to_cooldown(r.deployment_id(other, "strong"), OSError(), 503, 60)
    with pytest.raises(ServerFailing) as raised:
        take(r, "Ann")
    assert "\n" not in str(raised.value)
    assert "10.0.0.0" in str(raised.value) and "10.0.0.1" in str(raised.value)


def test_each_server_kind_keeps_its_structured_output_request_behind_the_router(settings, tmp_path):
    kinds = server_fakes.SERVERS
    fakes = {name: make() for name, (make, _) in kinds.items()}
    for fake in fakes.values():
        fake.__enter__()
    try:
        settings.backend.kind, settings.backend.retry_pause_s, settings.backend.timeout_s = "openai", 0.01, 5.0
        settings.backend.servers = [
            {"base_url": fakes[name].base_url, "server": "auto", "parallel_slots": 1, "server_model": model}
            for name, (_, model) in kinds.items()
        ]
        llm = LLM(settings, tasks=TASKS, ledger_path=tmp_path / "calls.jsonl")
        llm.check_backend()
        for n in range(10):
            assert llm.ask(TASK, INPUTS, choices=CHOICES, persona=f"Resident {n}") == WakeUp(hour=8, place="kitchen")
    finally:
        for fake in fakes.values():
            fake.__exit__(None, None, None)
    schema = call_schema(TASKS[TASK].schema, CHOICES)
    asks = {name: fake.requests[1:] for name, fake in fakes.items()}  # after each one's start check
    assert all(len(sent) == 2 for sent in asks.values()), "two residents homed on each server"
    assert all(r["grammar"] == compact_grammar(json.dumps(schema)) for r in asks["llama.cpp"])
    assert all(r["response_format"] == {"type": "json_object", "schema": schema} for r in asks["llama-cpp-python"])
    for name in ("vllm", "lmstudio", "ollama"):
        assert all(
            r["response_format"]["type"] == "json_schema" and r["response_format"]["json_schema"]["schema"] == schema
            for r in asks[name]
        )
    lines = [json.loads(line) for line in (tmp_path / "calls.jsonl").read_text().splitlines()]
    assert {line["server"] for line in lines} == {fake.base_url for fake in fakes.values()}
    by_server = {line["server"]: line for line in lines}
    assert by_server[fakes["llama.cpp"].base_url]["cached_tokens"] == 96, "each server's own usage reaches the ledger"
    assert by_server[fakes["vllm"].base_url]["cached_tokens"] == 64


def test_a_dead_server_at_start_is_left_out_in_one_line_and_none_left_stops_the_run(settings, tmp_path, capsys):
    dead = f"http://127.0.0.1:{free_port()}/v1"
    with server_fakes.llama_server() as live:
        settings.backend.kind, settings.backend.retry_pause_s, settings.backend.timeout_s = "openai", 0.01, 5.0
        settings.backend.probe_timeout_s = 2.0
        settings.backend.servers = [{"base_url": dead}, {"base_url": live.base_url, "server": "llama.cpp"}]
        llm = LLM(settings, tasks=TASKS, ledger_path=tmp_path / "calls.jsonl")
        llm.check_backend()
        assert llm.ask(TASK, INPUTS, choices=CHOICES, persona="Ann") == WakeUp(hour=8, place="kitchen")
    said = [line for line in capsys.readouterr().err.splitlines() if "lost" in line]
    assert len(said) == 1 and dead in said[0]
    settings.backend.servers = [{"base_url": dead}, {"base_url": f"http://127.0.0.1:{free_port()}/v1"}]
    with pytest.raises(ServerFailing) as raised:
        LLM(settings, tasks=TASKS, ledger_path=tmp_path / "more.jsonl").check_backend()
    assert "\n" not in str(raised.value) and dead in str(raised.value)


@pytest.mark.parametrize(
    "url,offline",
    [
        ("http://127.0.0.1:8080/v1", True),
        ("http://localhost:8080/v1", True),
        ("http://192.168.1.20:8080/v1", True),
        ("http://gpu-box:8080/v1", True),
        ("http://gpu-box.local:8080/v1", True),
        ("https://openrouter.ai/api/v1", False),
        ("https://api.openai.com/v1", False),
        ("http://8.8.8.8/v1", False),
    ],
)
def test_a_hosted_server_is_not_offline(url, offline):
    assert is_offline(url) is offline


def test_the_start_line_says_not_offline_for_a_hosted_server(settings, tmp_path, capsys, monkeypatch):
    with server_fakes.vllm() as fake:
        settings.backend.kind, settings.backend.base_url = "openai", fake.base_url
        settings.models.strong.server_model = settings.models.cheap.server_model = "Qwen/Qwen2.5-7B-Instruct"
        LLM(settings, tasks=TASKS, ledger_path=tmp_path / "local.jsonl").check_backend()
        monkeypatch.setattr("reverie.llm.server_probe.is_offline", lambda url: url != fake.base_url)  # as if hosted
        LLM(settings, tasks=TASKS, ledger_path=tmp_path / "hosted.jsonl").check_backend()
    local, hosted = [line for line in capsys.readouterr().err.splitlines() if line.startswith("[backend]")]
    assert "NOT OFFLINE" not in local and "NOT OFFLINE" in hosted and fake.base_url in hosted


def test_a_new_run_asks_the_lost_servers_again():
    from reverie.llm import LLM as Facade

    r = router(1, 1)
    for server in (0, 1):
        r.router.health().cooldowns.add_deployment_to_cooldown(r.deployment_id(server, "strong"), OSError(), 503, 60)
    assert r.cooling() == {0, 1}
    llm = Facade.__new__(Facade)
    llm._models = {"strong": SimpleNamespace(router=r)}
    llm.chain, llm._health = SimpleNamespace(backend_lost=object()), SimpleNamespace(answered=lambda: None)
    llm.reconnect()
    assert r.cooling() == set() and llm.chain.backend_lost is None


def _two_fakes(settings, a, b) -> None:
    settings.backend.kind, settings.backend.retry_pause_s, settings.backend.timeout_s = "openai", 0.01, 5.0
    settings.backend.probe_timeout_s = 2.0
    settings.backend.servers = [
        {"base_url": a.base_url, "server": "llama.cpp"},
        {"base_url": b.base_url, "server": "llama.cpp"},
    ]


def test_a_run_over_two_servers_is_recorded_and_replayed_without_them(settings, tmp_path):
    tape = tmp_path / "tape.jsonl"
    with server_fakes.llama_server() as a, server_fakes.llama_server() as b:
        _two_fakes(settings, a, b)
        recorder = LLM(settings, tasks=TASKS, record=tape, ledger_path=tmp_path / "rec.jsonl")
        recorder.check_backend()
        recorded = [recorder.ask(TASK, INPUTS, choices=CHOICES, persona=f"R{n}") for n in range(4)]
        sent = len(a.requests) + len(b.requests)
    assert a.requests[1:] and b.requests[1:], "both servers answered"
    player = LLM.from_settings(settings, tasks=TASKS, replay=tape)  # the servers are gone
    assert [player.ask(TASK, INPUTS, choices=CHOICES, persona=f"R{n}") for n in range(4)] == recorded
    assert len(a.requests) + len(b.requests) == sent


def test_every_server_lost_mid_run_stops_the_ask_with_one_line(settings, tmp_path, capsys):
    with server_fakes.llama_server() as a, server_fakes.llama_server() as b:
        _two_fakes(settings, a, b)
        llm = LLM(settings, tasks=TASKS, ledger_path=tmp_path / "calls.jsonl")
        llm.check_backend()
        assert llm.ask(TASK, INPUTS, choices=CHOICES, persona="Ann") == WakeUp(hour=8, place="kitchen")
    with pytest.raises(ServerFailing) as raised:  # both stopped: the next ask has nowhere to go
        llm.ask(TASK, INPUTS, choices=CHOICES, persona="Ann")
    assert "\n" not in str(raised.value) and a.base_url in str(raised.value) and b.base_url in str(raised.value)
    assert llm.backend_lost is raised.value
    lost = [line for line in capsys.readouterr().err.splitlines() if " lost (" in line]
    assert len(lost) == 2


def test_only_a_run_over_several_servers_loads_litellm():
    """One server needs no router: its process never imports LiteLLM (seconds of import saved)."""
    code = (
        "import sys\n"
        "from reverie.config import load_settings\n"
        "from reverie.llm.models import build_chat_models\n"
        "s = load_settings()\n"
        "s.backend.kind = 'openai'\n"
        "build_chat_models(s)\n"
        "print('one', 'litellm' in sys.modules)\n"
        "s.backend.servers = [{'base_url': 'http://127.0.0.1:9/v1'}, {'base_url': 'http://127.0.0.1:10/v1'}]\n"
        "build_chat_models(s)\n"
        "print('two', 'litellm' in sys.modules)\n"
    )
    done = fresh_python(code)
    assert done.stdout.split("\n")[:2] == ["one False", "two True"], done.stderr[-2000:]


def test_a_server_dripping_past_the_deadline_hands_the_call_to_another_by_then(settings, tmp_path, capsys):
    """``[backend] timeout_s`` holds behind the router: the call leaves the dripping server at its
    deadline (not after its 100,000-byte reply) and is answered by the other, no fail-safe."""
    with broken_servers.dripping(every_s=0.5) as slow, server_fakes.llama_server() as good:
        settings.backend.kind, settings.backend.retry_pause_s, settings.backend.timeout_s = "openai", 0.01, 2.0
        slow_url = f"http://127.0.0.1:{slow.port}/v1"
        settings.backend.servers = [  # Bob's home is the first server, Ann's the second
            {"base_url": good.base_url, "server": "llama.cpp"},
            {"base_url": slow_url, "server": "llama.cpp"},
        ]
        llm = LLM(settings, tasks=TASKS, ledger_path=tmp_path / "calls.jsonl")
        assert llm.ask(TASK, INPUTS, choices=CHOICES, persona="Bob") == WakeUp(hour=8, place="kitchen")
        took, raised = broken_servers.elapsed(lambda: llm.ask(TASK, INPUTS, choices=CHOICES, persona="Ann"))
    assert raised is None
    assert 2.0 <= took < 6.0, f"left the dripping server at its deadline: {took:.1f} s"
    lines = [json.loads(line) for line in (tmp_path / "calls.jsonl").read_text().splitlines()]
    assert [line["server"] for line in lines] == [good.base_url] * 2
    assert not lines[1]["fallback"] and lines[1]["attempts"] == 1
    assert [said for said in capsys.readouterr().err.splitlines() if " lost (" in said and slow_url in said]
