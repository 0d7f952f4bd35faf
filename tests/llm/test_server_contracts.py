"""Contract tests: each OpenAI-compatible server gets the request its documentation describes,
and its documented replies (answers and errors) are read right. The servers are fakes on
loopback (see server_fakes.py), not models; the real llama-server is tested in
test_llama_server.py."""

from __future__ import annotations

import json

import pytest

import server_fakes
from llm_support import CHOICES, INPUTS, TASK, TASKS, WakeUp
from server_fakes import SERVERS
from reverie.llm import LLM
from reverie.llm.schema import call_schema
from reverie.llm.server_errors import BackendLost, ModelMissing, SchemaRefused
from reverie.llm.server_probe import identify
from reverie.llm.servers import compact_grammar
from tests.fresh_python import fresh_python


def server_llm(settings, fake, tmp_path, *, model: str, server: str = "auto") -> LLM:
    settings.backend.kind, settings.backend.base_url, settings.backend.server = "openai", fake.base_url, server
    settings.backend.retry_pause_s, settings.backend.timeout_s = 0.01, 5.0
    settings.models.strong.server_model = settings.models.cheap.server_model = model
    return LLM(settings, tasks=TASKS, ledger_path=tmp_path / "calls.jsonl")


@pytest.mark.parametrize("name", list(SERVERS))
def test_auto_recognises_each_server_and_sends_its_documented_structured_output_request(
    settings, tmp_path, name, capsys
):
    make, model = SERVERS[name]
    settings.backend.slot_pinning = True
    with make() as fake:
        llm = server_llm(settings, fake, tmp_path, model=model)
        llm.check_backend()
        answer = llm.ask(TASK, INPUTS, choices=CHOICES, persona="Maria Lopez")
    started = capsys.readouterr().err
    assert started.count("[backend]") == 1, "what was found is said once"
    assert answer == WakeUp(hour=8, place="kitchen")
    probe, request = fake.requests  # the start check, then the ask
    schema = call_schema(TASKS[TASK].schema, CHOICES)
    if name == "llama.cpp":
        # the grammar itself, the compact one of the in-process model (llama-server's own
        # conversion of a JSON schema lets a reply indent), holding the call's choices
        assert "response_format" not in request
        grammar = request["grammar"]
        assert grammar == compact_grammar(json.dumps(schema)) and 'space ::= " "?' in grammar
        assert all(f'\\"{place}\\"' in grammar for place in CHOICES["places"])
        assert probe["response_format"]["type"] == "json_schema", "the start check asks what the server documents"
    elif name == "llama-cpp-python":
        sent = request["response_format"]
        assert sent == {"type": "json_object", "schema": schema}
        assert probe["response_format"]["type"] == "json_object"
    else:
        sent = request["response_format"]
        assert sent["type"] == "json_schema" and set(sent) == {"type", "json_schema"}
        assert sent["json_schema"]["schema"] == schema and sent["json_schema"]["strict"] is True
        assert sent["json_schema"]["name"] == TASK
    assert request["model"] == model and request["max_tokens"] == settings.models.cheap.max_tokens
    if name == "llama.cpp":
        assert request["cache_prompt"] is True and request["id_slot"] == 0
        assert "4 slots" in started and "b6999-0c1e570" in started
    else:
        assert "id_slot" not in request and "cache_prompt" not in request
    line = llm.ledger.last
    assert (line["prompt_tokens"], line["completion_tokens"]) == (120, 12)
    expected_cache = {"llama.cpp": 96, "vllm": 64}.get(name)
    assert line["cached_tokens"] == expected_cache, "cached tokens as the server reports them, None when it does not"


def test_what_auto_says_names_the_server_and_how_it_was_recognised():
    for name, (make, _) in SERVERS.items():
        with make() as fake:
            found = identify(fake.base_url)
        assert found.server.value == name
        assert found.line().startswith(f"[backend] {found.server.label} at {fake.base_url} (identified from /")


def test_llama_server_without_usage_details_is_read_from_its_timings(settings, tmp_path):
    with server_fakes.llama_server(timings_only=True) as fake:
        llm = server_llm(settings, fake, tmp_path, model="local")
        llm.ask(TASK, INPUTS, choices=CHOICES)
    assert llm.ledger.last["cached_tokens"] == 96


def test_each_persona_keeps_its_own_slot_on_llama_server(settings, tmp_path):
    settings.backend.slot_pinning = True
    with server_fakes.llama_server(slots=2) as fake:
        llm = server_llm(settings, fake, tmp_path, model="local")
        for persona in ["Ann", "Bob", "Cid", "Ann", "Bob", None]:
            llm.ask(TASK, INPUTS, choices=CHOICES, persona=persona)
    assert [r.get("id_slot") for r in fake.requests] == [0, 1, 0, 0, 1, None]
    settings.backend.slot_pinning = False
    with server_fakes.llama_server(slots=2) as fake:
        llm = server_llm(settings, fake, tmp_path, model="local")
        llm.ask(TASK, INPUTS, choices=CHOICES, persona="Ann")
    assert "id_slot" not in fake.requests[0] and fake.requests[0]["cache_prompt"] is True


@pytest.mark.parametrize("name", ["vllm", "ollama", "lmstudio"])
def test_a_model_name_the_server_does_not_serve_stops_before_the_first_step(settings, tmp_path, name):
    make, model = SERVERS[name]
    with make() as fake:
        llm = server_llm(settings, fake, tmp_path, model="local")
        with pytest.raises(ModelMissing) as stop:
            llm.check_backend()
    message = str(stop.value)
    assert message.startswith("[backend]") and "\n" not in message
    assert "'local'" in message and model.split(":")[0] in message, "names the wrong model and what is served"
    assert fake.requests == [], "nothing was asked"


@pytest.mark.parametrize("name", ["vllm", "ollama", "lmstudio"])
def test_a_wrong_model_reported_mid_run_stops_the_run_instead_of_fail_safes(settings, tmp_path, name):
    """The server's model list is not checked (it was unloaded after the start): its 404 stops the run."""
    make, model = SERVERS[name]
    with make() as fake:
        fake.gets.pop("/v1/models")
        llm = server_llm(settings, fake, tmp_path, model="gone")
        for _ in range(2):
            with pytest.raises(ModelMissing):
                llm.ask(TASK, INPUTS, choices=CHOICES)
    assert isinstance(llm.backend_lost, ModelMissing) and str(llm.backend_lost).startswith("[backend]")
    assert len(fake.requests) == 1, "not retried, and the next ask is not sent"


@pytest.mark.parametrize("server, refuser", [("llama-cpp-python", "lmstudio"), ("llama.cpp", "llama-cpp-python")])
def test_a_refused_structured_output_request_stops_the_run_at_start(settings, tmp_path, server, refuser):
    """The wrong [backend] server for the server that runs: its documented refusal (LM Studio's 400 for
    json_object, llama-cpp-python's 422 for json_schema) stops the run before its first step."""
    make, model = SERVERS[refuser]
    with make() as fake:
        llm = server_llm(settings, fake, tmp_path, model=model, server=server)
        with pytest.raises(SchemaRefused) as stop:
            llm.check_backend()
        assert len(fake.requests) == 1
        # Mid-run (the start check skipped), the refusal stops the run too: no retries, no more asks.
        # (llama-server's asks carry a grammar, which llama-cpp-python's server takes too.)
        llm = server_llm(settings, fake, tmp_path, model=model, server=server)
        for _ in range(2):
            try:
                llm.ask(TASK, INPUTS, choices=CHOICES)
            except SchemaRefused:
                pass
        assert len(fake.requests) == (3 if server == "llama.cpp" else 2)
    assert str(stop.value).startswith("[backend]") and "[backend] server" in str(stop.value)
    assert isinstance(llm.backend_lost, SchemaRefused) or server == "llama.cpp"


def test_no_server_at_the_address_is_backend_lost(settings, tmp_path):
    from tests.loopback_server import free_port

    settings.backend.kind, settings.backend.base_url = "openai", f"http://127.0.0.1:{free_port()}/v1"
    settings.backend.retries, settings.backend.retry_pause_s = 0, 0.0
    llm = LLM(settings, tasks=TASKS, ledger_path=tmp_path / "calls.jsonl")
    with pytest.raises(BackendLost) as stop:
        llm.check_backend()  # the run stops before its first step
    assert type(stop.value) is BackendLost
    assert str(stop.value).startswith("[backend] no model server answers at")


def test_an_unknown_server_name_is_a_one_line_config_error(tmp_path):
    from reverie.config import ConfigError, load_settings

    path = tmp_path / "config.toml"
    path.write_text('[backend]\nkind = "openai"\nserver = "tgi"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_settings(path)
    assert "[backend] server" in str(error.value) and "'tgi'" in str(error.value) and "\n" not in str(error.value)


def test_the_bench_ratio_row_divides_the_multi_slot_run_by_the_lock_step_one():
    from reverie.benchmarks.bench_server import ratios, row

    lock_step = {
        "wall_s": 100.0,
        "calls": 50,
        "calls_per_s": 0.5,
        "prompt_tok_per_s": 400.0,
        "completion_tok_per_s": 20.0,
        "cache_hit": 0.5,
        "fallbacks": 2,
    }
    four = {
        "wall_s": 40.0,
        "calls": 50,
        "calls_per_s": 1.25,
        "prompt_tok_per_s": 1000.0,
        "completion_tok_per_s": 50.0,
        "cache_hit": None,
        "fallbacks": 0,
    }
    got = ratios(lock_step, four)
    assert got["wall_s"] == pytest.approx(0.4) and got["calls_per_s"] == pytest.approx(2.5)
    assert got["cache_hit"] is None and got["fallbacks"] == 0.0
    assert row("x", got).split()[1:3] == ["wall_s=0.400", "calls=1.000"]


def test_the_grammar_for_llama_server_needs_no_native_library():
    """A client of a server converts the schema with llama-cpp-python's plain-Python converter, loaded
    on its own: importing the package loads libllama, which may not load (a GPU build on a machine
    without that GPU stopped a whole run with 'Shared library with base name llama not found')."""
    code = (
        "import sys; from reverie.llm.servers import compact_grammar; "
        'g = compact_grammar(\'{"type": "object", "properties": {"a": {"enum": ["x", "y"]}}}\'); '
        "print('llama_cpp' in sys.modules, '\\\\\"y\\\\\"' in g)"
    )
    done = fresh_python(code)
    assert done.stdout.split() == ["False", "True"], done.stderr


@pytest.mark.parametrize("name", list(SERVERS))
def test_a_prompts_repeat_penalty_goes_in_the_field_each_server_documents(
    settings, prompts_dir, tmp_path, name, caplog
):
    """llama.cpp's servers and LM Studio: ``repeat_penalty``; vLLM: ``repetition_penalty``; Ollama's
    ``/v1`` documents no such field, so none is sent and the run says so once."""
    path = prompts_dir / f"{TASK}.toml"
    path.write_text(
        path.read_text(encoding="utf-8").replace('role = "cheap"', 'role = "cheap"\nrepeat_penalty = 1.15'),
        encoding="utf-8",
    )
    make, model = SERVERS[name]
    with make() as fake:
        llm = server_llm(settings, fake, tmp_path, model=model)
        for _ in range(2):
            llm.ask(TASK, INPUTS, choices=CHOICES, persona="Maria Lopez")
    asks = fake.requests[1:]
    field = {"vllm": "repetition_penalty", "ollama": None}.get(name, "repeat_penalty")
    for request in asks:
        assert {key: request[key] for key in ("repeat_penalty", "repetition_penalty") if key in request} == (
            {field: 1.15} if field else {}
        )
    said = [r.getMessage() for r in caplog.records if "repeat_penalty" in r.getMessage()]
    assert len(said) == (0 if field else 1)
