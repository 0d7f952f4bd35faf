"""The JSON schema of one call: the task's schema with choices as enums, bounded.

- A field declared with ``choice_field(key)`` (marked ``x-choices``) gets
  ``enum = choices[key]``; for a list of strings the enum goes on its items; an integer
  field's choices ("6", "7") become whole numbers.
- A list field marked ``x-items`` gets exactly ``len(choices[key])`` items, when the call
  gives that key (one activity for each hour named).
- Every object forbids extra keys; strings and lists without bounds get generous ones,
  so a grammar can never run away (``max_tokens`` is the last guard).
- An object marked ``x-choice-paths`` becomes an ``anyOf`` of one branch per path prefix
  (an area and a place in it: ``const``; the last field: ``enum`` of that place's values), so
  a grammar writes only paths that exist. Its format line shows those fields "as listed".
- :func:`items_asked` counts the items those lists are fixed to (a prompt's reply limit
  grows with them, ``max_tokens_per_item``).
- :func:`format_instruction` describes the shape in one line for the prompt (a long run of
  number labels by its ends).
- :func:`choice_problems` checks parsed data against the choices, generically.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from reverie.llm.corrections import Problem, field_path, not_a_choice
from reverie.llm.task import CHOICES_KEY, ITEMS_KEY, MOST_ITEMS_KEY, PATHS_KEY, read_path

MAX_STRING = 400
MAX_ITEMS = 30
MAX_SHOWN_ENUM = 30
# A run of number labels longer than this is shown by its ends in the format line (_enum_shape).
SHORT_ENUM = 6


class NoChoices(ValueError):
    """A choice field has no allowed values for this call."""


def _children(node: dict):
    for key in ("properties", "$defs"):
        yield from list((node.get(key) or {}).values())  # a list: a path object adds to $defs
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        yield from node.get(key) or []
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            yield node[key]


def _set_enum(node: dict, values: list) -> None:
    if node.get("type") == "array" and isinstance(node.get("items"), dict):
        _set_enum(node["items"], values)
    elif "anyOf" in node:
        for branch in node["anyOf"]:
            if branch.get("type") in ("string", "array"):
                _set_enum(branch, values)
    else:
        node["enum"] = values
        node.pop("maxLength", None)


def _bound(node: dict, choices: dict[str, list[str]], root: dict | None = None) -> None:
    root = node if root is None else root
    node.pop("title", None)
    if CHOICES_KEY in node:
        key = node[CHOICES_KEY]
        if key not in choices:
            raise ValueError(f"this task needs choices[{key!r}] (the allowed values) at call time")
        values: list = list(dict.fromkeys(str(v) for v in choices[key]))
        if not values:
            raise NoChoices(f"no allowed values were given for {key!r}")
        if node.get("type") == "integer":  # whole-number choices ("6", "7") stay numbers in the grammar
            values = [int(v) for v in values]
        _set_enum(node, values)
    if ITEMS_KEY in node and choices.get(node[ITEMS_KEY]):
        node["minItems"] = node["maxItems"] = len(choices[node[ITEMS_KEY]])
    if MOST_ITEMS_KEY in node and choices.get(node[MOST_ITEMS_KEY]):
        most = min(len(choices[node[MOST_ITEMS_KEY]]), node.get("maxItems", MAX_ITEMS))
        node["maxItems"] = max(most, node.get("minItems", 0))
    if node.get("type") == "object" and "properties" in node:
        node.setdefault("additionalProperties", False)
    if node.get("type") == "string" and not {"enum", "const", "pattern", "format", "maxLength"} & set(node):
        node["maxLength"] = MAX_STRING
    if node.get("type") == "array" and "maxItems" not in node:
        node["maxItems"] = MAX_ITEMS
    for child in _children(node):
        _bound(child, choices, root)
    if PATHS_KEY in node:
        _branch_paths(node, choices, root)


def _branch_paths(node: dict, choices: dict[str, list[str]], root: dict) -> None:
    """An object whose fields take one of ``choices[key]``'s paths: one ``anyOf`` branch per
    path prefix, the prefix's fields fixed and the last field one of that prefix's values.
    The other fields are shared definitions (``$defs``), so the grammar holds each once."""
    spec = node[PATHS_KEY]
    key, fields = spec["key"], spec["fields"]
    if not choices.get(key):
        return  # no paths given: each field keeps its flat choices
    groups: dict[tuple[str, ...], list[str]] = {}
    for choice in dict.fromkeys(choices[key]):
        path = read_path(choice)
        if len(path) != len(fields):
            raise ValueError(f"choices[{key!r}]: {path} has {len(path)} values, {fields} needs {len(fields)}")
        groups.setdefault(tuple(path[:-1]), []).append(path[-1])
    shared = {k: v for k, v in node.items() if k not in ("properties", "required", PATHS_KEY)}
    defs = root.setdefault("$defs", {})
    common = {}
    for field, sub in node["properties"].items():
        if field not in fields:
            defs[f"{key}-{field}"] = sub
            common[field] = {"$ref": f"#/$defs/{key}-{field}"}
    branches = []
    for prefix, last in groups.items():
        properties = {field: common.get(field) or sub for field, sub in node["properties"].items()}
        for field, value in zip(fields, prefix):
            properties[field] = {**_flat(properties[field]), "const": value}
        properties[fields[-1]] = {**_flat(properties[fields[-1]]), "enum": last}
        branches.append({**shared, "properties": properties, "required": node.get("required", list(properties))})
    for k in list(node):
        if k not in (PATHS_KEY, "$defs"):
            del node[k]
    node["anyOf"] = branches


def _flat(field: dict) -> dict:
    """A string field without its flat enum (a branch sets its own)."""
    return {k: v for k, v in field.items() if k not in ("enum", "maxLength")}


def call_schema(model: type[BaseModel], choices: dict[str, list[str]] | None) -> dict:
    """The task schema for this call (a new dict every time)."""
    schema = model.model_json_schema()
    _bound(schema, choices or {})
    return schema


def items_asked(schema: dict) -> int:
    """How many items a call's schema fixes for its ``x-items`` lists, in all (0: none fixed)."""
    fixed = schema.get("maxItems", 0) if ITEMS_KEY in schema and schema.get("minItems") == schema.get("maxItems") else 0
    return fixed + sum(items_asked(child) for child in _children(schema))


def _resolve(node: dict, root: dict) -> dict:
    ref = node.get("$ref")
    if ref and ref.startswith("#/$defs/"):
        return root["$defs"][ref.removeprefix("#/$defs/")]
    return node


def _numbered(values: list) -> bool:
    """Labels "0", "1", "2", ... counting up by one (a prompt's numbered statements)."""
    if not all(isinstance(v, str) and v.isdigit() and str(int(v)) == v for v in values):
        return False
    first = int(values[0])
    return [int(v) for v in values] == list(range(first, first + len(values)))


def _enum_shape(values: list) -> str:
    """An enum's values; a long run of number labels by its ends ("0" to "20").

    Whole-number values (a 1-10 score, an hour) are written out: shown as "1 to 10", a small
    model's ratings jump to an end. Names are written out even when the prompt lists them:
    pointed to instead, fewer first answers are valid (docs/SPEED.md)."""
    if len(values) > SHORT_ENUM and _numbered(values):
        return f"{json.dumps(values[0])} to {json.dumps(values[-1])}"
    shown = " | ".join(json.dumps(v) for v in values[:MAX_SHOWN_ENUM])
    return shown + (" | ..." if len(values) > MAX_SHOWN_ENUM else "")


def _shape(node: dict, root: dict, listed: tuple[str, ...] = ()) -> str:
    node = _resolve(node, root)
    if PATHS_KEY in node and node.get("anyOf"):
        # one branch stands for all: its path fields are named, not written out
        return _shape(node["anyOf"][0], root, tuple(node[PATHS_KEY]["fields"]))
    if "enum" in node:
        return _enum_shape(node["enum"])
    if "const" in node:
        return json.dumps(node["const"])
    if "anyOf" in node:
        return " or ".join(_shape(b, root) for b in node["anyOf"])
    kind = node.get("type")
    if kind == "object":
        fields = ", ".join(
            f"{json.dumps(k)}: {'string (as listed)' if k in listed else _shape(v, root)}"
            for k, v in (node.get("properties") or {}).items()
        )
        return "{" + fields + "}"
    if kind == "array":
        item = _shape(node.get("items") or {}, root)
        if node.get("minItems") is not None and node.get("minItems") == node.get("maxItems"):
            return f"[{item}, ...] (exactly {node['maxItems']} items)"
        return f"[{item}, ...] (at most {node.get('maxItems', MAX_ITEMS)} items)"
    if kind == "string":
        return f"string (at most {node['maxLength']} characters)" if "maxLength" in node else "string"
    if kind == "integer" and ("minimum" in node or "maximum" in node):
        return f"integer {node.get('minimum', '')}..{node.get('maximum', '')}"
    return kind or "value"


def format_instruction(schema: dict) -> str:
    """One line telling the model the exact shape of its answer."""
    return f"Answer with only one JSON object of this shape: {_shape(schema, schema)}"


def choice_problems(schema: dict, data: Any, choices: dict[str, list[str]], path: tuple = ()) -> list[Problem]:
    """Values of choice fields in ``data`` that are not among the allowed ones."""
    return _walk(schema, schema, data, choices or {}, path)


def _checked_choice(node: dict, value: Any) -> bool:
    """A value the choice check reads: a string, or a whole number for an integer field (whose
    strings, like "6am", are read by the field's own validator)."""
    if node.get("type") == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, str)


def _walk(node: dict, root: dict, value: Any, choices: dict, path: tuple) -> list[Problem]:
    node = _resolve(node, root)
    if CHOICES_KEY in node:
        allowed = list(dict.fromkeys(str(v) for v in choices.get(node[CHOICES_KEY], [])))
        items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
        shown = [int(a) for a in allowed] if node.get("type") == "integer" else allowed
        return [
            not_a_choice(field_path(path + ((i,) if i is not None else ())), v, shown)
            for i, v in items
            if _checked_choice(node, v) and str(v) not in allowed
        ]
    problems: list[Problem] = []
    if isinstance(value, dict):
        for key, sub in (node.get("properties") or {}).items():
            if key in value:
                problems += _walk(sub, root, value[key], choices, path + (key,))
    elif isinstance(value, list) and isinstance(node.get("items"), dict):
        for i, item in enumerate(value):
            problems += _walk(node["items"], root, item, choices, path + (i,))
    for branch in _branches(node):
        if _resolve(branch, root).get("type") in ("object", "array"):
            problems += _walk(branch, root, value, choices, path)
    return problems


def _branches(node: dict) -> list:
    """The ``anyOf`` branches a value is checked against: one of a path object's (each holds
    every field's flat choices; the pairing is the validators' to check)."""
    branches = node.get("anyOf") or []
    return branches[:1] if PATHS_KEY in node else branches


def canonical_choices(schema: dict, data: Any, choices: dict[str, list[str]]) -> Any:
    """``data`` with choice values that differ from an allowed one only in case or spacing
    replaced by that value ("hobbs cafe " -> "Hobbs Cafe"); everything else unchanged."""
    return _canon(schema, schema, data, choices or {})


def _canon(node: dict, root: dict, value: Any, choices: dict) -> Any:
    node = _resolve(node, root)
    if CHOICES_KEY in node:
        lookup = {" ".join(str(v).split()).casefold(): str(v) for v in choices.get(node[CHOICES_KEY], [])}

        def fix(v):
            return lookup.get(" ".join(v.split()).casefold(), v) if isinstance(v, str) else v

        return [fix(v) for v in value] if isinstance(value, list) else fix(value)
    if isinstance(value, dict):
        props = node.get("properties") or {}
        value = {k: (_canon(props[k], root, v, choices) if k in props else v) for k, v in value.items()}
    elif isinstance(value, list) and isinstance(node.get("items"), dict):
        value = [_canon(node["items"], root, item, choices) for item in value]
    for branch in _branches(node):
        if _resolve(branch, root).get("type") in ("object", "array"):
            value = _canon(branch, root, value, choices)
    return value
