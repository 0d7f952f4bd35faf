"""The prefix meter: prompt tokens a llama.cpp request reused from its KV cache."""

from __future__ import annotations

from reverie.llm.prefix_meter import PrefixMeter


class _Llama:
    """Stands in for llama_cpp.Llama's bookkeeping only: a request evaluates the prompt suffix
    after the reused prefix (``n_tokens``), then one token per generated token."""

    def __init__(self):
        self.n_tokens = 0

    def eval(self, tokens):
        self.n_tokens += len(tokens)

    def create_chat_completion(self, prompt_len: int, reuse: int, generated: int):
        self.n_tokens = reuse
        self.eval([0] * (prompt_len - reuse))
        for _ in range(generated):
            self.eval([0])


def test_the_meter_reports_each_requests_reused_prefix_once():
    client = _Llama()
    meter = PrefixMeter.attach(client)
    assert meter.last is None
    seen = []
    for prompt_len, reuse, generated in ((100, 0, 5), (120, 80, 5), (120, 119, 1)):
        client.create_chat_completion(prompt_len=prompt_len, reuse=reuse, generated=generated)
        seen.append(meter.last)
    assert seen == [0, 80, 119] and meter.requests == 3
    assert PrefixMeter.attach(client) is meter, "one meter per client, however many roles share it"
    assert PrefixMeter.attach(object()) is None  # e.g. not llama.cpp: nothing to measure
