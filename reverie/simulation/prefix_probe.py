"""How many prompt tokens llama.cpp reused from its KV cache, for the bench.

llama-cpp-python keeps the tokens of the previous request in its context and, with a
prompt cache set, can also restore a saved state with a longer common prefix. Either way
the first ``eval`` of a request starts at ``n_tokens`` = the reused prefix, and only the
rest of the prompt is evaluated. The probe wraps ``create_chat_completion`` and ``eval``
of each loaded ``Llama`` (on the instance, for one bench run) and sums that prefix.

Nothing here changes what the model computes. Models that are not in-process llama.cpp
(an OpenAI-compatible server, a replayed cassette) are not probed: ``available`` is False.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field


@dataclass
class PrefixProbe:
    requests: int = 0
    cached_tokens: int = 0  # prompt tokens taken from the KV cache instead of evaluated
    available: bool = False
    _clients: list = field(default_factory=list, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def attach(cls, chat_models: dict) -> "PrefixProbe":
        """Probe every distinct ``Llama`` behind ``chat_models`` (roles may share one)."""
        probe = cls()
        seen: set[int] = set()
        for model in chat_models.values():
            client = getattr(model, "client", None)
            if client is None or id(client) in seen or not hasattr(client, "eval") or not hasattr(client, "n_tokens"):
                continue
            seen.add(id(client))
            probe._wrap(client)
        probe.available = bool(seen)
        return probe

    def _wrap(self, client) -> None:
        complete, evaluate = client.create_chat_completion, client.eval
        state = {"first": False}

        def create_chat_completion(*args, **kwargs):
            state["first"] = True
            try:
                return complete(*args, **kwargs)
            finally:
                state["first"] = False

        def eval_tokens(tokens):
            if state["first"]:
                state["first"] = False
                with self._lock:
                    self.requests += 1
                    self.cached_tokens += int(client.n_tokens)
            return evaluate(tokens)

        client.create_chat_completion, client.eval = create_chat_completion, eval_tokens
        self._clients.append((client, complete, evaluate))

    def detach(self) -> None:
        """Give the models their own methods back."""
        for client, _complete, _evaluate in self._clients:
            for name in ("create_chat_completion", "eval"):
                vars(client).pop(name, None)
        self._clients.clear()
