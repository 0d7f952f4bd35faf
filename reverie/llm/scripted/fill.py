"""A plain valid-looking answer for any schema: choices from the given options, text from the inputs.

Used for a prompt with no rule of its own, and for a retry after the validators sent a rule's
answer back."""

from __future__ import annotations

from reverie.llm.scripted.call import ScriptedCall


def _phrase(call: ScriptedCall) -> str:
    for key in ("action", "task", "activity", "description", "statement", "whisper"):
        if call.text(key):
            return call.text(key).splitlines()[0]
    return "going about the day"


def _value(call: ScriptedCall, node: dict, depth: int = 0):
    node = call._resolve(node)
    if node.get("anyOf"):
        return _value(call, node["anyOf"][0], depth)
    if "const" in node:
        return node["const"]
    if "enum" in node:
        return node["enum"][0]
    kind = node.get("type")
    if kind == "object":
        return {key: _value(call, child, depth + 1) for key, child in (node.get("properties") or {}).items()}
    if kind == "array":
        count = max(1, int(node.get("minItems") or 1))
        return [_value(call, node.get("items") or {}, depth + 1) for _ in range(count)]
    if kind == "integer" or kind == "number":
        low = node.get("minimum")
        return int(low) if low is not None else 5
    if kind == "boolean":
        return False
    text = _phrase(call)
    return text[: int(node.get("maxLength") or 80)]


def plain_answer(call: ScriptedCall) -> dict:
    return _value(call, call.schema) if call.schema else {}
