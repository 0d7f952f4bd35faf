"""Prompt files: ``prompts/<name>.toml`` -> a checked :class:`PromptSpec`.

A file holds ``role``, ``description``, ``inputs``, ``system``, ``user``, optional
``used_in`` (where cognition asks it, shown by ``prompts list``), optional
``[[examples]]`` (literal user/assistant turns) and optional ``max_tokens`` /
``max_tokens_per_item`` / ``temperature`` / ``repeat_penalty`` /
``format_line_with_grammar``. The ``{variables}`` used in ``system`` and ``user`` must equal
``inputs``. Any problem is a one-line :class:`UserError` naming the file (and the line
where it can be found). :class:`PromptStore` re-reads a file when it changes on disk.
"""

from __future__ import annotations

import string
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.prompts import ChatPromptTemplate

from reverie.errors import UserError

ROLES = ("strong", "cheap")
REQUIRED = ("role", "description", "inputs", "system", "user")
OPTIONAL = (
    "used_in",
    "examples",
    "max_tokens",
    "max_tokens_per_item",
    "temperature",
    "repeat_penalty",
    "format_line_with_grammar",
)


@dataclass(frozen=True)
class PromptSpec:
    name: str
    path: Path
    role: str
    description: str
    inputs: tuple[str, ...]
    system: str
    user: str
    # Where cognition asks it (shown by `prompts list` and the docs' prompts page).
    used_in: str = ""
    examples: tuple[tuple[str, str], ...] = ()
    max_tokens: int | None = None
    # Added to the reply limit for each item of the list whose length the call fixes (see
    # reverie.llm.schema.items_asked): a reply of N answers gets max_tokens + N x this.
    max_tokens_per_item: int | None = None
    temperature: float | None = None
    # llama.cpp's repetition penalty over the last 64 tokens (a repeated token's score divided by
    # it), for prompts whose free text a small model tends to loop in; None: the model's own (off).
    repeat_penalty: float | None = None
    # Whether the format line (the reply's shape in one line) is sent when the grammar holds the
    # reply to that shape anyway; false saves its tokens on every call (docs/SPEED.md).
    format_line_with_grammar: bool = True
    # Where the file's ``system`` and ``user`` keys start (1-based; 0: not found).
    system_line: int = 0
    user_line: int = 0

    def reply_tokens(self, default: int, items: int = 0) -> int:
        """The reply limit of a call that asks for ``items`` list items (``default``: the role's)."""
        return (self.max_tokens or default) + (self.max_tokens_per_item or 0) * items

    def template(self) -> ChatPromptTemplate:
        """System, few-shot turns (literal text), then the user turn."""
        parts: list[tuple[str, str] | BaseMessage] = [("system", self.system)] if self.system.strip() else []
        for user, assistant in self.examples:
            parts += [HumanMessage(content=user), AIMessage(content=assistant)]
        parts.append(("human", self.user))
        return ChatPromptTemplate.from_messages(parts, template_format="f-string")


def _line_of(text: str, needle: str) -> int | None:
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    return None


def _key_line(source: str, key: str) -> int:
    """The line where the top-level ``key = ...`` starts (0 when there is none)."""
    for number, line in enumerate(source.splitlines(), start=1):
        if line.split("=", 1)[0].strip() == key and "=" in line:
            return number
    return 0


def _fail(path: Path, problem: str, line: int | None = None) -> UserError:
    where = f"{path} line {line}" if line else f"{path}"
    return UserError(f"{where}: {problem}")


def _variables(path: Path, source: str, key: str, text: str) -> set[str]:
    found: set[str] = set()
    try:
        for _literal, field, _spec, _conv in string.Formatter().parse(text):
            if field is None:
                continue
            if not field.isidentifier():
                line = _line_of(source, "{" + field)
                raise _fail(
                    path,
                    f"{key}: '{{{field}}}' is not a plain variable name — use {{name}}, or double literal braces {{{{ }}}}",
                    line,
                )
            found.add(field)
    except ValueError as exc:
        raise _fail(path, f"{key}: {exc} — double literal braces as {{{{ and }}}}") from None
    return found


def _check_types(path: Path, source: str, raw: dict[str, Any]) -> None:
    def line(key: str) -> int | None:
        return _line_of(source, key)

    for key in raw:
        if key not in REQUIRED + OPTIONAL:
            raise _fail(path, f"unknown key '{key}' — allowed: {', '.join(REQUIRED + OPTIONAL)}", line(key))
    for key in REQUIRED:
        if key not in raw:
            raise _fail(path, f"missing key '{key}' — every prompt file needs {', '.join(REQUIRED)}")
    for key in ("description", "system", "user", "used_in"):
        if key in raw and not isinstance(raw[key], str):
            raise _fail(path, f"'{key}' must be a string", line(key))
    if raw["role"] not in ROLES:
        raise _fail(path, f'role must be "strong" or "cheap" (got {raw["role"]!r})', line("role"))
    inputs = raw["inputs"]
    if not isinstance(inputs, list) or not all(isinstance(i, str) and i.isidentifier() for i in inputs):
        raise _fail(path, 'inputs must be a list of variable names, e.g. ["identity", "first_name"]', line("inputs"))
    for key in ("max_tokens", "max_tokens_per_item"):
        if key in raw and (type(raw[key]) is not int or raw[key] < 1):
            raise _fail(path, f"{key} must be a positive integer", line(key))
    if "temperature" in raw and (type(raw["temperature"]) not in (int, float) or not 0 <= raw["temperature"] <= 2):
        raise _fail(path, "temperature must be a number from 0 to 2", line("temperature"))
    if "repeat_penalty" in raw and (
        type(raw["repeat_penalty"]) not in (int, float) or not 1 <= raw["repeat_penalty"] <= 2
    ):
        raise _fail(path, "repeat_penalty must be a number from 1 (off) to 2", line("repeat_penalty"))
    if "format_line_with_grammar" in raw and type(raw["format_line_with_grammar"]) is not bool:
        raise _fail(path, "format_line_with_grammar must be true or false", line("format_line_with_grammar"))
    examples = raw.get("examples", [])
    if not isinstance(examples, list):
        raise _fail(path, "examples must be [[examples]] tables with user and assistant", line("examples"))
    for number, example in enumerate(examples, start=1):
        if (
            not isinstance(example, dict)
            or set(example) != {"user", "assistant"}
            or not all(isinstance(v, str) for v in example.values())
        ):
            raise _fail(
                path, f"example {number} must have exactly two strings: user and assistant", line("[[examples]]")
            )


def load_prompt(path: Path) -> PromptSpec:
    """Read and check one prompt file."""
    path = Path(path)
    try:
        source = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _fail(path, "no such prompt file — every task needs prompts/<name>.toml") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _fail(path, f"cannot read the prompt file ({exc})") from None
    try:
        raw = tomllib.loads(source)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(path, f"not valid TOML ({exc})") from None
    _check_types(path, source, raw)

    used = _variables(path, source, "system", raw["system"]) | _variables(path, source, "user", raw["user"])
    declared = set(raw["inputs"])
    for name in sorted(used - declared):
        raise _fail(
            path,
            f"{{{name}}} is used but not listed in inputs — add it to inputs or write {{{{{name}}}}} for literal braces",
            _line_of(source, "{" + name + "}"),
        )
    for name in sorted(declared - used):
        raise _fail(
            path,
            f"input '{name}' is listed in inputs but not used in system or user — remove it or use {{{name}}}",
            _line_of(source, "inputs"),
        )

    return PromptSpec(
        name=path.stem,
        path=path,
        role=raw["role"],
        description=raw["description"],
        inputs=tuple(raw["inputs"]),
        system=raw["system"],
        user=raw["user"],
        used_in=raw.get("used_in", ""),
        examples=tuple((e["user"], e["assistant"]) for e in raw.get("examples", [])),
        max_tokens=raw.get("max_tokens"),
        max_tokens_per_item=raw.get("max_tokens_per_item"),
        temperature=float(raw["temperature"]) if "temperature" in raw else None,
        repeat_penalty=float(raw["repeat_penalty"]) if "repeat_penalty" in raw else None,
        format_line_with_grammar=raw.get("format_line_with_grammar", True),
        system_line=_key_line(source, "system"),
        user_line=_key_line(source, "user"),
    )


class PromptStore:
    """Prompt specs by name from one folder, re-read when a file's mtime changes."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._cache: dict[str, tuple[tuple[int, int], PromptSpec]] = {}

    def path(self, name: str) -> Path:
        return self.folder / f"{name}.toml"

    def get(self, name: str) -> PromptSpec:
        path = self.path(name)
        try:
            stat = path.stat()
        except FileNotFoundError:
            raise _fail(path, f"no such prompt file for task '{name}' — create prompts/{name}.toml") from None
        stamp = (stat.st_mtime_ns, stat.st_size)
        cached = self._cache.get(name)
        if cached and cached[0] == stamp:
            return cached[1]
        spec = load_prompt(path)
        self._cache[name] = (stamp, spec)
        return spec
