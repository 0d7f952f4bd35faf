"""How many prompt tokens of a request llama.cpp reused from its KV cache.

llama-cpp-python keeps the tokens of the previous request in its context and, with a
prompt cache set, can also restore a saved state with a longer common prefix. Either way
the first ``eval`` of a request starts at ``n_tokens`` = the reused prefix, and only the
rest of the prompt is evaluated. The meter wraps ``create_chat_completion`` and ``eval``
of one loaded ``Llama`` (on the instance) and remembers that prefix for the latest
request; the chat model reports it as ``usage_metadata["input_token_details"]["cache_read"]``
and the ledger as ``cached_tokens``. Nothing here changes what the model computes.
"""

from __future__ import annotations

from typing import Any


class PrefixMeter:
    """``last``: tokens reused by the latest request (None before the first one)."""

    def __init__(self, client: Any) -> None:
        self.last: int | None = None
        self.requests = 0
        complete, evaluate = client.create_chat_completion, client.eval
        first = [False]

        def create_chat_completion(*args: Any, **kwargs: Any) -> Any:
            first[0] = True
            self.last = 0  # a request that evaluates nothing new reused nothing either
            try:
                return complete(*args, **kwargs)
            finally:
                first[0] = False

        def eval_tokens(tokens: Any) -> Any:
            if first[0]:
                first[0] = False
                self.requests += 1
                self.last = int(client.n_tokens)
            return evaluate(tokens)

        client.create_chat_completion, client.eval = create_chat_completion, eval_tokens

    @classmethod
    def attach(cls, client: Any) -> PrefixMeter | None:
        """A meter on ``client`` (one per client, reused); None when it is not llama.cpp."""
        if not (hasattr(client, "eval") and hasattr(client, "n_tokens") and hasattr(client, "create_chat_completion")):
            return None
        meter: PrefixMeter | None = vars(client).get("_prefix_meter")
        if meter is None:
            meter = cls(client)
            client._prefix_meter = meter
        return meter
