"""`call -- load history <csv>`: whispered memories for each persona (docs/SERVER.md §6)."""

from __future__ import annotations

import csv
from pathlib import Path

from reverie.errors import UserError
from reverie.persona.thoughts import add_thought
from reverie.tasks.whisper import whisper_inner_thought


def read_history(path: Path) -> list[tuple[str, list[str]]]:
    """Rows of ``Name,Whisper``: the persona and its ``;``-separated whispers."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"no history file {path} — give a CSV path relative to the assets folder")
    rows = []
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if not header or len(header) < 2:
            raise UserError(f"{path}: expected a header row 'Name,Whisper'")
        for row in reader:
            if len(row) < 2 or not row[0].strip():
                continue
            whispers = [w.strip() for w in ",".join(row[1:]).split(";") if w.strip()]
            rows.append((row[0].strip(), whispers))
    return rows


def load_history(sim, path: Path) -> dict[str, int]:
    """Store every whisper as a thought of its persona; returns memories added per persona."""
    counts: dict[str, int] = {}
    sim.llm.set_clock(sim.step_no, sim.curr_time_str)
    for name, whispers in read_history(path):
        persona = sim.personas.get(name)
        if persona is None:
            continue  # a row for someone not in this simulation
        now = persona.scratch.curr_time or sim.curr_time
        for whisper in whispers:
            thought = whisper_inner_thought(sim.llm, persona_name=name, whisper=whisper)
            add_thought(persona, sim.llm, thought, [], score_text=whisper, now=now)
            counts[name] = counts.get(name, 0) + 1
    return counts
