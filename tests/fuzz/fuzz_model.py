"""A seeded fuzzing chat model: instant, adversarial replies, sometimes a valid one.

Not a real model: it exists to prove that nothing a model can send crashes a run. Each
reply is drawn from the kinds below by a ``random.Random`` seeded at construction, so a
failing case replays exactly. A "valid" reply is built from the call's JSON schema (the
``response_format`` the chain sends with ``[repair] grammar`` on) or, without one, taken
from ``valid`` replies handed in by the test (the prompt's fixtures).
"""

from __future__ import annotations

import json
import random
import threading
from collections import Counter
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

WORDS = (
    "eating breakfast",
    "reading",
    "the cafe",
    "walking to the park",
    "Maria",
    "writing a poem",
    "sleeping",
    "cooking",
    "talking with Klaus",
    "at the library",
    "painting",
    "morning",
    "garden",
)

KINDS = (
    "empty",
    "prose",
    "truncated",
    "wrong_types",
    "missing_keys",
    "extra_keys",
    "huge_string",
    "nan",
    "huge_number",
    "surrogate",
    "control_chars",
    "outside_choices",
    "deep_nesting",
    "deep_data",
    "long_list",
    "absurd",
    "fenced",
    "not_an_object",
    "valid",
    "valid",
)


def _resolve(node: dict, root: dict) -> dict:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return root.get("$defs", {}).get(ref.split("/")[-1], {})
    return node


class Generator:
    """Replies for one call: ``valid`` from a JSON schema, and every adversarial kind."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    # -- a value that fits a schema node ----------------------------------------------
    def fit(self, node: dict, root: dict, depth: int = 0) -> Any:
        rng = self.rng
        node = _resolve(node, root)
        for key in ("anyOf", "oneOf"):
            if node.get(key):
                options = [o for o in node[key] if _resolve(o, root).get("type") != "null"] or node[key]
                return self.fit(rng.choice(options), root, depth + 1)
        if "enum" in node and node["enum"]:
            return rng.choice(node["enum"])
        if "const" in node:
            return node["const"]
        kind = node.get("type")
        if kind == "object" or "properties" in node:
            return {k: self.fit(v, root, depth + 1) for k, v in (node.get("properties") or {}).items()}
        if kind == "array":
            lo, hi = node.get("minItems", 0), min(node.get("maxItems", 5), 6)
            return [
                self.fit(node.get("items") or {"type": "string"}, root, depth + 1)
                for _ in range(rng.randint(lo, max(lo, hi)))
            ]
        if kind == "integer":
            lo, hi = node.get("minimum", 1), node.get("maximum", lo + 120 if "minimum" in node else 120)
            return rng.randint(int(lo), int(max(lo, hi)))
        if kind == "number":
            return round(rng.uniform(node.get("minimum", 0), node.get("maximum", 10)), 2)
        if kind == "boolean":
            return rng.random() < 0.5
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
        return text[: node.get("maxLength", 400)]

    # -- the adversarial kinds -------------------------------------------------------------
    def reply(self, kind: str, valid: Any) -> str:
        rng = self.rng
        base = valid if isinstance(valid, dict) else {"answer": valid}
        keys = list(base) or ["answer"]
        if kind == "valid":
            return json.dumps(valid, ensure_ascii=rng.random() < 0.5)
        if kind == "empty":
            return rng.choice(["", " ", "\n", "{}", "[]", "null"])
        if kind == "prose":
            return rng.choice(
                [
                    "Sure! Here is what they do: " + rng.choice(WORDS) + ".",
                    "I cannot answer that.",
                    "The answer is 7",
                    "```\nnot json\n```",
                ]
            )
        if kind == "truncated":
            text = json.dumps(valid)
            return text[: rng.randint(0, max(0, len(text) - 1))]
        if kind == "wrong_types":
            junk = rng.choice([None, True, 3.5, -1, [], {}, ["a"], {"x": 1}, "7", 0])
            return json.dumps({k: (junk if rng.random() < 0.6 else v) for k, v in base.items()})
        if kind == "missing_keys":
            return json.dumps({k: v for k, v in base.items() if rng.random() < 0.4})
        if kind == "extra_keys":
            return json.dumps({**base, "note": "extra", "reasoning": ["x"] * 3, "": None})
        if kind == "huge_string":
            return json.dumps({k: "word " * 20_000 if rng.random() < 0.5 else v for k, v in base.items()})
        if kind == "nan":
            return "{" + ", ".join(f'"{k}": {rng.choice(["NaN", "Infinity", "-Infinity"])}' for k in keys) + "}"
        if kind == "huge_number":
            number = rng.choice(["1e308", "-1e309", "9" * 400, "9" * 5000, "1e-400", "123456789012345678901234567890"])
            return "{" + ", ".join(f'"{k}": {number}' for k in keys) + "}"
        if kind == "surrogate":
            raw = rng.choice(["\ud800", "a\udfffb", "\udc00\ud83d"])
            if rng.random() < 0.5:
                return "{" + ", ".join(f'"{k}": "{raw}"' for k in keys) + "}"  # raw lone surrogates
            return "{" + ", ".join(f'"{k}": "x\\ud800y"' for k in keys) + "}"  # escaped ones
        if kind == "control_chars":
            return json.dumps(
                {k: "\x00\x07\x1b[31m\u2028\ufeff" + (v if isinstance(v, str) else "") for k, v in base.items()}
            )
        if kind == "outside_choices":
            return json.dumps(
                {
                    k: (rng.choice(["Atlantis", "the moon", "", "bedroom " * 30]) if isinstance(v, str) else v)
                    for k, v in base.items()
                }
            )
        if kind == "deep_nesting":
            depth = rng.choice([1_000, 5_000, 100_000])
            return rng.choice(["[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth])
        if kind == "deep_data":  # deep, but within what the JSON parser accepts
            value: Any = "x"
            for _ in range(rng.choice([200, 900])):
                value = {"a": value} if rng.random() < 0.5 else [value]
            return json.dumps({k: value for k in keys})
        if kind == "long_list":
            return json.dumps({k: [v] * 1_000 if rng.random() < 0.7 else v for k, v in base.items()})
        if kind == "absurd":
            return json.dumps({k: self._absurd(v) for k, v in base.items()})
        if kind == "fenced":
            return f"```json\n{json.dumps(valid)}\n```\nHope this helps!"
        if kind == "not_an_object":
            return json.dumps(rng.choice([[valid], "a string", 42, True, None]))
        raise ValueError(kind)

    def _absurd(self, value: Any) -> Any:
        rng = self.rng
        if isinstance(value, bool):
            return not value
        if isinstance(value, int):
            return rng.choice([-(10**6), 0, 10**9, -1])
        if isinstance(value, str):
            return rng.choice(["🦄" * 10, "(1)", "...", "n/a", "you you you", "Maria " * 12, "0:00", "!!!"])
        if isinstance(value, list):
            return [self._absurd(v) for v in value[:3]] + [self._absurd(v) for v in value[:3]]
        if isinstance(value, dict):
            return {k: self._absurd(v) for k, v in value.items()}
        return value


class FuzzChat(BaseChatModel):
    """The fuzzing chat model (a fake for failure paths, not a real model). ``valid``:
    valid replies to fall back on when a call carries no schema. Counts replies by kind."""

    seed: int = 0
    valid: list = Field(default_factory=list)
    kinds: tuple = KINDS
    counts: Counter = Field(default_factory=Counter)
    rng: Any = None
    lock: Any = None

    def model_post_init(self, context: Any) -> None:
        self.rng = random.Random(self.seed)
        self.lock = threading.Lock()

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        with self.lock:
            gen = Generator(self.rng)
            schema = (kwargs.get("response_format") or {}).get("schema")
            if schema and (not self.valid or self.rng.random() < 0.5):
                valid = gen.fit(schema, schema)
            elif self.valid:
                valid = self.rng.choice(self.valid)
            else:
                valid = {"answer": self.rng.choice(WORDS)}
            kind = self.rng.choice(self.kinds)
            text = gen.reply(kind, valid)
            self.counts[kind] += 1
            finish = "length" if kind == "truncated" and self.rng.random() < 0.5 else "stop"
        usage = {"input_tokens": 100, "output_tokens": 10, "total_tokens": 110}
        message = AIMessage(content=text, usage_metadata=usage, response_metadata={"finish_reason": finish})
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def replies(self) -> int:
        return sum(self.counts.values())

    @property
    def _llm_type(self) -> str:
        return "fuzz"
