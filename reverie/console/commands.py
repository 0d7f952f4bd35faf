"""Parse one line typed at ``Enter option:`` into a command (no side effects).

The wording follows the original server (docs/SERVER.md §4); matching is case-insensitive
and whitespace-tolerant. Persona names are kept whole (docs/FIDELITY.md), and resolved
against the simulation's personas by :func:`resolve_persona`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from reverie.console.runner import MAX_STEPS
from reverie.errors import UserError

LARGE = "--large"  # after a history file: load it past the bounds of reverie.simulation.history

HELP = """commands:
  run <steps>                                    run that many steps
  save                                           save and stay
  fin | f | finish | save and finish             save and quit
  exit                                           quit and delete this simulation (no save)
  print current time
  print persona schedule <Full Name>
  print all persona schedule
  print hourly org persona schedule <Full Name>
  print persona current tile <Full Name>
  print persona chatting with buffer <Full Name>
  print persona associative memory (event|thought|chat) <Full Name>
  print persona spatial memory <Full Name>
  print tile event <x>, <y>
  print tile details <x>, <y>
  call -- load history <csv path relative to the assets folder> [--large]
  call -- analysis <Full Name>                   interview a persona (end_convo to stop)
  start path tester mode                         collect a spatial tree (deletes this simulation)
  help"""


@dataclass(frozen=True)
class Command:
    name: str
    persona: str | None = None
    number: int | None = None
    tile: tuple[int, int] | None = None
    path: str | None = None
    kind: str | None = None
    extra: dict = field(default_factory=dict)


# (prefix, command name, what follows the prefix)
_PERSONA_PRINTS = [
    ("print hourly org persona schedule", "print_hourly_schedule"),
    ("print persona schedule", "print_schedule"),
    ("print persona current tile", "print_tile"),
    ("print persona chatting with buffer", "print_buffer"),
    ("print persona spatial memory", "print_spatial"),
]
_TILE_PRINTS = [("print tile event", "print_tile_event"), ("print tile details", "print_tile_details")]
# call -- <verb> <argument>: (verb, command, the Command field the argument fills, usage of the argument)
_CALLS = [
    ("load history", "load_history", "path", "<csv path relative to the assets folder>"),
    ("analysis", "interview", "persona", "<Full Name>"),
]
_MEMORY = re.compile(r"^print persona associative memory \((event|thought|chat)\)\s*(.*)$")


def _hint(text: str) -> UserError:
    return UserError(f"{text} — type 'help' for the list of commands")


def _tile(rest: str, usage: str) -> tuple[int, int]:
    parts = [p for p in re.split(r"[\s,]+", rest.strip()) if p]
    if len(parts) != 2 or not all(re.fullmatch(r"-?\d+", p) for p in parts):
        raise _hint(f"usage: {usage} <x>, <y> (two whole numbers)")
    return int(parts[0]), int(parts[1])


def parse_command(line: str) -> Command:
    """Return the command for ``line``; raise UserError with a one-line hint otherwise."""
    raw = " ".join((line or "").split())
    low = raw.lower()
    if not low:
        raise _hint("empty command")
    if low in ("f", "fin", "finish", "save and finish"):
        return Command("fin")
    if low == "save":
        return Command("save")
    if low == "exit":
        return Command("exit")
    if low in ("help", "?", "h"):
        return Command("help")
    if low == "start path tester mode":
        return Command("path_tester")
    if low == "run" or low.startswith("run "):
        arg = low[3:].strip()
        if not re.fullmatch(r"\d+", arg) or int(arg) < 1:
            raise _hint("usage: run <steps> (a whole number of steps, at least 1)")
        if len(arg) > 7 or int(arg) > MAX_STEPS:
            raise _hint(f"run {arg[:12]}{'...' if len(arg) > 12 else ''}: at most {MAX_STEPS:,} steps at once")
        return Command("run", number=int(arg))
    if low == "print current time":
        return Command("print_time")
    if low == "print all persona schedule":
        return Command("print_all_schedules")
    m = _MEMORY.match(low)
    if m:
        name = raw[len(raw) - len(m.group(2)) :].strip() if m.group(2) else ""
        if not name:
            raise _hint("usage: print persona associative memory (event|thought|chat) <Full Name>")
        return Command("print_memory", persona=name, kind=m.group(1))
    for prefix, name in _PERSONA_PRINTS:
        if low == prefix or low.startswith(prefix + " "):
            persona = raw[len(prefix) :].strip()
            if not persona:
                raise _hint(f"usage: {prefix} <Full Name>")
            return Command(name, persona=persona)
    for prefix, name in _TILE_PRINTS:
        if low == prefix or low.startswith(prefix + " "):
            return Command(name, tile=_tile(raw[len(prefix) :], prefix))
    for verb, name, argument_field, what in _CALLS:
        m = re.match(rf"^call\s*--\s*{verb}(.*)$", low)
        if m:
            argument = raw[len(raw) - len(m.group(1)) :].strip() if m.group(1) else ""
            extra = {}
            if name == "load_history" and argument.split()[-1:] == [LARGE]:
                argument, extra = argument[: -len(LARGE)].strip(), {"large": True}
            if not argument:
                raise _hint(f"usage: call -- {verb} {what}")
            return Command(name, extra=extra, **{argument_field: argument})
    raise _hint(f"unknown command '{raw[:60]}'")


def resolve_persona(name: str, known: list[str]) -> str:
    """Match a typed name to a persona (case-insensitive; a unique first or last name works)."""
    wanted = " ".join(name.split()).lower()
    for full in known:
        if full.lower() == wanted:
            return full
    partial = [full for full in known if wanted in full.lower().split()]
    if len(partial) == 1:
        return partial[0]
    raise UserError(f"no persona named '{name}' — known: {', '.join(known)}")
