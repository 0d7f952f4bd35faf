"""A server's prompt size: a safe estimate, and the server's own /tokenize near the window's edge.

The server is a small fake on loopback that answers llama.cpp's /tokenize (the shape of
llama-server's documented reply: {"tokens": [...]}) and counts how often it was asked."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from reverie.config import Settings
from reverie.llm.models import build_chat_models
from tests.loopback_server import QuietHandler, serving


@pytest.fixture
def tokenizer_server():
    asked: list[dict] = []

    class Handler(QuietHandler):
        protocol_version = "HTTP/1.1"  # keep-alive: a client that keeps its connection asks on it again

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if self.path != "/tokenize":
                self.send_json(404, {})
                return
            asked.append({**body, "from_port": self.client_address[1]})
            self.send_json(200, {"tokens": list(range(len(body["content"].split())))})

    with serving(Handler) as url:
        yield url, asked


def server_model(base_url: str):
    settings = Settings()
    settings.backend.kind, settings.backend.base_url = "openai", base_url
    settings.models.cheap.n_ctx, settings.models.cheap.max_tokens = 512, 64
    return build_chat_models(settings)["cheap"]


def test_a_short_prompt_is_estimated_without_asking_the_server(tokenizer_server):
    base_url, asked = tokenizer_server
    model = server_model(base_url)
    messages = [SystemMessage(content="Reply in JSON."), HumanMessage(content="How poignant is a walk in the park?")]
    assert 0 < model.count_prompt_tokens(messages) < 448 and asked == []


def test_near_the_window_the_server_counts_its_own_tokens(tokenizer_server):
    base_url, asked = tokenizer_server
    model = server_model(base_url)
    text = "memory " * 2000  # estimated far above n_ctx − max_tokens = 448
    counted = model.count_prompt_tokens([SystemMessage(content="Rate it."), HumanMessage(content=text)])
    assert len(asked) == 1 and asked[0]["content"].endswith("memory ")
    assert counted == 2002 + 16  # the server's tokens, plus the markup of two messages


def test_the_counts_of_a_run_share_one_connection(tokenizer_server):
    """Each count near the window's edge goes out on the model's one client, not on a new client
    (and a new connection) per prompt."""
    base_url, asked = tokenizer_server
    model = server_model(base_url)
    for words in (1500, 1800, 2100):
        model.count_prompt_tokens([HumanMessage(content="memory " * words)])
    assert len(asked) == 3 and len({a["from_port"] for a in asked}) == 1
