"""One call as the scripted rules see it: the prompt's name, its inputs, the call's schema."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ScriptedCall:
    name: str
    inputs: dict[str, str]
    schema: dict = field(default_factory=dict)
    attempt: int = 1

    def text(self, key: str, default: str = "") -> str:
        return str(self.inputs.get(key, default) or default).strip()

    def field(self, *path: str) -> dict:
        """The schema node of a property (``field("subtasks", "action")`` looks inside list items)."""
        node = self.schema
        for key in path:
            node = self._resolve(node)
            if node.get("type") == "array":
                node = self._resolve(node.get("items") or {})
            node = (_merged(node).get("properties") or {}).get(key) or {}
        return self._resolve(node)

    def choices(self, *path: str) -> list:
        """The values the call allows for a field ([] when it is free)."""
        node = self.field(*path)
        if node.get("type") == "array":
            node = self._resolve(node.get("items") or {})
        return list(node.get("enum") or ([node["const"]] if "const" in node else []))

    def items_count(self, key: str) -> tuple[int, int]:
        node = self.field(key)
        return int(node.get("minItems") or 1), int(node.get("maxItems") or 30)

    def _resolve(self, node: dict) -> dict:
        ref = node.get("$ref") if isinstance(node, dict) else None
        if ref and ref.startswith("#/$defs/"):
            return (self.schema.get("$defs") or {}).get(ref.split("/")[-1]) or {}
        return node or {}


def _merged(node: dict) -> dict:
    """An object given as branches (``anyOf``, as a grammar of paths gives it) as one object
    whose fields allow what any branch allows."""
    branches = [b for b in node.get("anyOf") or [] if isinstance(b, dict) and "properties" in b]
    if "properties" in node or not branches:
        return node
    properties: dict[str, dict] = {}
    for branch in branches:
        for key, node_field in branch["properties"].items():
            allowed = node_field.get("enum") or ([node_field["const"]] if "const" in node_field else None)
            if key not in properties:
                properties[key] = {k: v for k, v in node_field.items() if k != "const"}
                if allowed is not None:
                    properties[key]["enum"] = []
            if allowed is not None:
                properties[key]["enum"] = list(dict.fromkeys([*properties[key].get("enum", []), *allowed]))
    return {"type": "object", "properties": properties}
