"""The bundled SmolLM2-135M on a real llama.cpp ``llama-server`` (built by ``.ci/setup --tests``
from the llama.cpp our wheel is built from), on a loopback port."""

from __future__ import annotations

import httpx
import jsonschema
import pytest

from llm_support import CHOICES, INPUTS, TASK, TASKS, WakeUp
from reverie.llm import LLM
from tests.loopback_server import llama_server

pytestmark = pytest.mark.slow

# A shape the 135M model never writes by itself: a code with a fixed pattern, a bounded
# number, exactly three colours from a list, and nothing else.
HARD = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
        "count": {"type": "integer", "minimum": 100, "maximum": 999},
        "colours": {"type": "array", "items": {"enum": ["teal", "ochre", "mauve"]}, "minItems": 3, "maxItems": 3},
    },
    "required": ["code", "count", "colours"],
    "additionalProperties": False,
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with llama_server(tmp_path_factory.mktemp("llama-server") / "server.log", slots=4, n_ctx=1024) as url:
        yield url


def conforms(text: str) -> bool:
    try:
        jsonschema.validate(httpx.Response(200, text=text).json(), HARD)
        return True
    except (ValueError, jsonschema.ValidationError):
        return False


def chat(url: str, **body) -> dict:
    request = {
        "model": "local",
        "messages": [{"role": "user", "content": "Tell me about your morning."}],
        "max_tokens": 64,
        "temperature": 0,
        **body,
    }
    reply = httpx.post(f"{url}/chat/completions", json=request, timeout=120)
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_the_json_schema_request_is_enforced_as_a_grammar(server):
    free = chat(server)["choices"][0]["message"]["content"]
    assert not conforms(free), "the model alone does not write this shape"
    fmt = {"type": "json_schema", "json_schema": {"name": "hard", "schema": HARD, "strict": True}}
    for seed in (1, 2, 3):
        reply = chat(server, response_format=fmt, seed=seed, temperature=0.8, max_tokens=200)
        assert reply["choices"][0]["finish_reason"] == "stop"
        assert conforms(reply["choices"][0]["message"]["content"]), reply["choices"][0]["message"]["content"]


def test_our_grammar_is_enforced_and_lets_no_reply_indent(server):
    """What an ask sends llama-server: the compact grammar of the schema (the server's own
    conversion of a JSON schema allows newlines and indentation between tokens)."""
    import json

    from reverie.llm.servers import compact_grammar

    # (without HARD's integer range: llama-cpp-python's conversion, like the in-process grammar,
    # does not bound integers, and no reply schema of ours relies on it)
    item = {
        **HARD,
        "properties": {k: v for k, v in HARD["properties"].items() if k != "count"},
        "required": ["code", "colours"],
    }
    nested = {
        "type": "object",
        "properties": {"items": {"type": "array", "minItems": 2, "maxItems": 2, "items": item}},
        "required": ["items"],
        "additionalProperties": False,
    }
    for seed in (1, 2, 3):
        reply = chat(server, grammar=compact_grammar(json.dumps(nested)), seed=seed, temperature=0.8, max_tokens=200)
        text = reply["choices"][0]["message"]["content"]
        assert reply["choices"][0]["finish_reason"] == "stop" and "\n" not in text, text
        items = json.loads(text)["items"]
        assert [conforms(json.dumps({**answer, "count": 100})) for answer in items] == [True, True], text


def test_auto_finds_llama_server_and_its_cached_tokens_are_reported(settings, server, tmp_path, capsys):
    settings.backend.kind, settings.backend.base_url, settings.backend.slot_pinning = "openai", server, True
    llm = LLM(settings, tasks=TASKS, ledger_path=tmp_path / "calls.jsonl")
    llm.check_backend()
    said = capsys.readouterr().err
    print(f"\n{said.strip()}")
    assert said.startswith(f"[backend] llama.cpp's llama-server at {server} (identified from /props; 4 slots")
    easy = dict(INPUTS, earliest=5)
    first = llm.ask(TASK, easy, choices=CHOICES, persona="Maria Lopez")
    assert isinstance(first, WakeUp) and first.place in CHOICES["places"]
    llm.ask(TASK, easy, choices=CHOICES, persona="Maria Lopez")
    again = llm.ledger.last
    print(f"second ask: {again['cached_tokens']} of {again['prompt_tokens']} prompt tokens from the slot's cache")
    assert again["prompt_tokens"] > 50
    assert again["prompt_tokens"] // 2 < again["cached_tokens"] <= again["prompt_tokens"] * again["attempts"]
