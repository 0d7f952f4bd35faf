"""The generated reference pages: every command and flag, every config key, every prompt.

Each page is made from the code at build time (the mkdocs hook in docs/scripts/hooks.py calls
:func:`pages`), so nothing here is copied by hand: the argument parsers give the commands and
their flags, the settings model in reverie/config.py the keys with their types, defaults and
meanings (each key's docstring), and prompts/ with the task units the prompts, their inputs and
their reply schemas. ``python docs/scripts/reference.py OUT`` writes the pages to a folder.
"""

from __future__ import annotations

import argparse
import enum
import importlib
import json
import sys
import tomllib
import types
import typing
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

ROOT = Path(__file__).resolve().parents[2]


def _importable() -> None:
    """The project importable (mkdocs restores sys.path after loading a hook, and its own
    command does not start in the project)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


_importable()

# The programs besides `python -m reverie`: each module has build_parser().
SCRIPTS = (
    "reverie.evaluation.game_day",
    "reverie.benchmarks.memory_bench",
    "reverie.benchmarks.model_server",
    "reverie.benchmarks.bench_servers",
    "reverie.worldgen.generate",
    "reverie.worldgen.preview",
    "reverie.world.checks",
)


# ---------------------------------------------------------------- commands and flags

@dataclass(frozen=True)
class Flag:
    """One option or positional argument of one command."""

    command: str        # "python -m reverie run", "python -m reverie prompts eval", ...
    name: str           # "--steps", "-h" never; a positional by its metavar or dest
    default: str
    meaning: str


def _subparsers(parser: argparse.ArgumentParser) -> list[argparse._SubParsersAction]:
    return [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]


def _commands(prog: str, parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    """This parser and every sub-command under it, depth first, by their full command line."""
    found = [(prog, parser)]
    for action in _subparsers(parser):
        for name, sub in action.choices.items():
            found += _commands(f"{prog} {name}", sub)
    return found


def programs() -> list[tuple[str, argparse.ArgumentParser]]:
    """Every command line the project has, with its parser (each command's flags configured)."""
    from reverie import cli

    found = [("python -m reverie", cli.build_parser())]
    for name in cli.COMMANDS:
        parser = cli.build_parser(name)
        sub = _subparsers(parser)[0].choices[name]
        found += _commands(f"python -m reverie {name}", sub)
    for module in SCRIPTS:
        found += _commands(f"python -m {module}", importlib.import_module(module).build_parser())
    return found


def _arg_name(action: argparse.Action) -> str:
    if action.option_strings:
        return max(action.option_strings, key=len)
    return action.metavar if isinstance(action.metavar, str) else action.dest


def _meaning(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    text = parser._get_formatter()._expand_help(action) if action.help else ""
    return " ".join(text.split())


def _default(action: argparse.Action) -> str:
    if action.default in (None, argparse.SUPPRESS) or isinstance(action, (argparse._StoreTrueAction,
                                                                            argparse._StoreFalseAction)):
        return ""
    return repr(action.default) if isinstance(action.default, str) else str(action.default)


def flags_of(command: str, parser: argparse.ArgumentParser) -> list[Flag]:
    """The options and positionals of one command (its help flag and sub-command choice left out)."""
    return [Flag(command, _arg_name(a), _default(a), _meaning(parser, a)) for a in parser._actions
            if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))]


def cli_page() -> str:
    lines = ["# Commands and flags", "",
             "Generated from the argument parsers at build time: every command of `python -m reverie`, "
             "every sub-command and the scripts run with `python -m`. Run any of them with `--help` "
             "for the same text.", ""]
    for command, parser in programs():
        lines += [f"## `{command}`", ""]
        if parser.description:
            lines += [parser.description.strip().splitlines()[0], ""]
        subs = _subparsers(parser)
        if subs:
            lines += ["| command | what it does |", "|---|---|"]
            for action in subs:
                for choice in action._choices_actions:
                    lines.append(f"| `{command} {choice.dest}` | {_cell(choice.help or '')} |")
            lines.append("")
        usage = " ".join(parser.format_usage().split())
        lines += ["```text", usage.removeprefix("usage: "), "```", ""]
        flags = flags_of(command, parser)
        if flags:
            lines += ["| flag | default | meaning |", "|---|---|---|"]
            lines += [f"| `{f.name}` | {_code(f.default)} | {_cell(f.meaning)} |" for f in flags]
            lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------- config.toml keys

@dataclass(frozen=True)
class Key:
    """One key of config.toml."""

    table: str          # "" for a top-level key, else "models.strong", "backend", ...
    name: str
    type: str
    default: str
    meaning: str
    shipped: str        # the value in the project's config.toml when it differs from the default, else ""

    @property
    def full(self) -> str:
        return f"[{self.table}] {self.name}" if self.table else self.name


def _is_model(annotation) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _type_name(annotation) -> str:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _type_name(args[0])
    if origin in (typing.Union, types.UnionType):
        named = [_type_name(a) for a in args if a is not type(None)]
        return " or ".join(named) + (" (or unset)" if type(None) in args else "")
    if origin is typing.Literal:
        return "one of " + ", ".join(json.dumps(a) for a in args)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return "one of " + ", ".join(json.dumps(m.value) for m in annotation)
    return {bool: "boolean", int: "integer", float: "number", str: "string", Path: "path"}.get(annotation, str(annotation))


def _bounds(info) -> str:
    parts = []
    for meta in info.metadata:
        for attr, sign in (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<")):
            if getattr(meta, attr, None) is not None:
                parts.append(f"{sign} {getattr(meta, attr)}")
    return f" ({', '.join(parts)})" if parts else ""


def _toml(value) -> str:
    if isinstance(value, enum.Enum):
        value = value.value
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, Path)):
        return json.dumps(str(value))
    return str(value)


def config_keys() -> list[Key]:
    """Every key of the settings model, in the order of the model, with the shipped file's values."""
    from reverie.config import DEFAULT_CONFIG, Settings

    shipped = tomllib.loads(DEFAULT_CONFIG.read_text(encoding="utf-8"))
    keys: list[Key] = []

    def walk(model: type[BaseModel], table: list[str], given: dict) -> None:
        plain = [(n, i) for n, i in model.model_fields.items() if not i.exclude and not _is_model(i.annotation)]
        nested = [(n, i) for n, i in model.model_fields.items() if not i.exclude and _is_model(i.annotation)]
        for name, info in plain:
            if not info.description:
                raise ValueError(f"reverie/config.py: {model.__name__}.{name} has no docstring: write its meaning "
                                 "in a docstring under the field (the config reference is made from it)")
            value = given.get(name, info.default) if isinstance(given, dict) else info.default
            differs = name in given and _toml(value) != _toml(info.default)
            keys.append(Key(".".join(table), name, _type_name(info.annotation) + _bounds(info),
                            _toml(info.default), " ".join(info.description.split()), _toml(value) if differs else ""))
        for name, info in nested:
            walk(info.annotation, [*table, name], given.get(name, {}) if isinstance(given, dict) else {})

    walk(Settings, [], shipped)
    return keys


def config_page() -> str:
    from reverie.config import Settings

    lines = ["# `config.toml`", "",
             "Generated from the settings model (`reverie/config.py`) at build time. Every key is "
             "optional: a key left out takes its default. Types are strict (`true` is not a number, "
             '`"yes"` is not a boolean) and a bad value stops with one line naming the file, the table, '
             "the key and what to do. Relative paths a file sets are relative to that file. Choose another "
             "file with `python -m reverie --config PATH` or `$REVERIE_CONFIG`. The column *shipped* gives "
             "the project's own `config.toml` where it differs from the default.", ""]
    sections = {name: info for name, info in Settings.model_fields.items()}
    current = None
    for key in config_keys():
        if key.table != current:
            current = key.table
            top = sections.get(current.split(".")[0]) if current else None
            doc = (top.description or top.annotation.__doc__ or "") if top else "Keys outside any table."
            if current and "." in current:
                sub = current.split(".")
                doc = getattr(Settings.model_fields[sub[0]].annotation, "model_fields")[sub[1]].description or doc
            lines += ["", f"## `[{current}]`" if current else "## Top level", "", " ".join(doc.split()), "",
                      "| key | type | default | shipped | meaning |", "|---|---|---|---|---|"]
        lines.append(f"| `{key.name}` | {_cell(key.type)} | `{key.default}` | "
                     f"{_code(key.shipped)} | {_cell(key.meaning)} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- prompts

def _annotation_text(annotation) -> str:
    text = _type_name(annotation)
    return text.replace("typing.", "").replace("<class '", "").replace("'>", "")


def prompts_page() -> str:
    from reverie.config import load_settings
    from reverie.llm.prompt_spec import PromptStore
    from reverie.llm.task import prompt_fields
    from reverie.tasks.registry import product_tasks

    store = PromptStore(load_settings(check_files=False).paths.prompts)
    tasks = product_tasks()
    lines = ["# Prompts", "",
             "Generated at build time from `prompts/<name>.toml` and the task units in `reverie/tasks/`: "
             "for each prompt, its model role, where cognition uses it, its inputs (the `{variables}` of "
             "the prompt, typed by the unit's inputs model) and the JSON schema of the reply the code "
             "expects (the grammar is made from it; choices given at call time become enums). How a prompt "
             "file is written, and why each unit is what it is: [Prompt files](prompt-files.md).", "",
             "| prompt | role | what it asks |", "|---|---|---|"]
    specs = {name: store.get(name) for name in tasks}
    lines += [f"| [`{n}`](#{n.replace('_', '-')}) | {s.role} | {_cell(s.description)} |" for n, s in specs.items()]
    for name, task in tasks.items():
        spec = specs[name]
        lines += ["", f"## `{name}` {{#{name.replace('_', '-')}}}", "", spec.description[:1].upper() + spec.description[1:] + ".", ""]
        facts = [f"role: **{spec.role}**", f"file: `prompts/{name}.toml`"]
        if spec.used_in:
            facts.append(f"used in: {spec.used_in}")
        if spec.max_tokens:
            facts.append(f"max_tokens: {spec.max_tokens}" + (f" + {spec.max_tokens_per_item} per item"
                                                              if spec.max_tokens_per_item else ""))
        if spec.temperature is not None:
            facts.append(f"temperature: {spec.temperature}")
        if spec.repeat_penalty is not None:
            facts.append(f"repeat_penalty: {spec.repeat_penalty}")
        if spec.examples:
            facts.append(f"{len(spec.examples)} example(s)")
        lines += ["; ".join(facts) + ".", ""]
        trimmed = {t.input for t in task.trim}
        shown = prompt_fields(task.inputs)
        lines += ["| input | type | note |", "|---|---|---|"]
        for field in shown:
            info = task.inputs.model_fields[field]
            note = info.description or ""
            if field in trimmed:
                note = (note + "; " if note else "") + "cut from its least relevant end when the prompt is too long"
            lines.append(f"| `{field}` | {_cell(_annotation_text(info.annotation))} | {_cell(note)} |")
        schema = _json(task.schema.model_json_schema())
        lines += ["", f"Reply (`{task.schema.__name__}`):", "", "```json", schema, "```"]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- helpers

def _cell(text: str) -> str:
    """One table cell: on one line, its pipes escaped, and angle brackets outside code spans
    shown as written (``<sim>`` is not an HTML tag)."""
    parts = " ".join(str(text).split()).replace("|", "\\|").split("`")
    return "`".join(p if i % 2 else p.replace("<", "&lt;").replace(">", "&gt;") for i, p in enumerate(parts))


def _json(value, indent: int = 0) -> str:
    """JSON with objects indented and lists of plain values kept on one line (an enum of hours)."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict) and value:
        items = [f"{pad}{json.dumps(k)}: {_json(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return "[\n" + ",\n".join(pad + _json(v, indent + 1) for v in value) + "\n" + "  " * indent + "]"
    return json.dumps(value, ensure_ascii=False)


def _code(text: str) -> str:
    return f"`{text}`" if text else ""


def pages() -> dict[str, str]:
    """The generated pages, by their path in the site."""
    _importable()
    return {"reference/cli.md": cli_page(), "reference/config.md": config_page(), "reference/prompts.md": prompts_page()}


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "site-reference")
    for path, text in pages().items():
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_text(text, encoding="utf-8")
        print(out / path)
