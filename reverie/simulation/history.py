"""`call -- load history <csv>`: whispered memories for each persona (docs/SERVER.md §6).

The file is ``Name,Whisper`` (that header, checked), one row per persona, its whispers
separated by ``;``. A row that names no persona of the simulation is reported with its
line number; a file with no row for any of them loads nothing and is refused with one line.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from reverie.errors import UserError
from reverie.persona.thoughts import NewThought, add_thoughts
from reverie.tasks.whisper import whisper_inner_thought

HEADER = ("name", "whisper")


@dataclass
class History:
    """The rows for known personas, and a line for each row that names none."""

    rows: list[tuple[str, list[str]]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def _unknown(name: str, line: int, known: list[str]) -> str:
    same = [k for k in known if k.lower() == " ".join(name.split()).lower()]
    hint = f" (did you mean '{same[0]}'?)" if same else ""
    return f"line {line}: '{name[:60]}' is not a persona of this simulation{hint}"


def read_history(path: Path, known: list[str] | None = None) -> History:
    """The file's rows (``known``: the personas' names; None takes every row)."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"no history file {path} — give a CSV path relative to the assets folder")
    found = History()
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            reader = csv.reader(fh)
            header = next(reader, None)
            if header is None or tuple(h.strip().lower() for h in header[:2]) != HEADER:
                shown = ",".join(header or [])[:60]
                raise UserError(f"{path}: the first line is '{shown}', expected the header 'Name,Whisper' "
                                "(the persona's full name, then its whispers separated by ';')")
            for row in reader:
                if not any(cell.strip() for cell in row):
                    continue
                name = row[0].strip()
                if known is not None and name not in known:
                    found.skipped.append(_unknown(name, reader.line_num, known))
                    continue
                whispers = [w.strip() for w in ",".join(row[1:]).split(";") if w.strip()]
                if not whispers:
                    found.skipped.append(f"line {reader.line_num}: no whisper for '{name}'")
                    continue
                found.rows.append((name, whispers))
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text — save it as UTF-8 CSV") from None
    except csv.Error as exc:
        raise UserError(f"{path}: not a readable CSV ({exc})") from None
    if known is not None and not found.rows:
        first = f": {found.skipped[0]}" if found.skipped else ""
        more = f" (and {len(found.skipped) - 1} more)" if len(found.skipped) > 1 else ""
        raise UserError(f"{path} has no row for any persona of this simulation{first}{more} — "
                        f"name them as {', '.join(known)}; nothing was loaded")
    return found


def load_history(sim, path: Path, warn=None) -> dict[str, int]:
    """Store every whisper as a thought of its persona; returns memories added per persona.
    ``warn`` gets a line for each row that names no persona (nothing is loaded when no row does)."""
    history = read_history(path, list(sim.personas))
    for line in history.skipped:
        (warn or (lambda text: None))(f"{Path(path).name} {line}; row skipped")
    counts: dict[str, int] = {}
    sim.llm.set_clock(sim.step_no, sim.curr_time_str)
    for name, whispers in history.rows:
        persona = sim.personas[name]
        now = persona.scratch.curr_time or sim.curr_time
        thoughts = [NewThought(whisper_inner_thought(sim.llm, persona_name=name, whisper=whisper), [], whisper)
                    for whisper in whispers]
        add_thoughts(persona, sim.llm, thoughts, now=now)  # rated together, when first read
        if thoughts:
            counts[name] = counts.get(name, 0) + len(thoughts)
    return counts
