"""`call -- load history <csv>`: whispered memories for each persona (docs/SERVER.md §6, docs/RUNS.md §4).

The file is ``Name,Whisper`` (that header, checked; a UTF-8 byte-order mark is allowed), one
row per persona, its whispers separated by ``;``. Rows that name no persona of the simulation
are summed up in one line (how many, and the first); a file with no row for any of them loads
nothing and is refused with one line.

Each whisper costs model calls, so a file is bounded (:data:`MAX_ROWS` rows and as many
whispers, :data:`MAX_BYTES`) unless the load is asked as ``large``. A load is all or nothing:
every model call is made first, then every memory is stored at once (stop signals wait), so
a load stopped half-way keeps none of it.
"""

from __future__ import annotations

import csv
import sys
from dataclasses import dataclass, field
from pathlib import Path

from reverie.errors import UserError
from reverie.persona.ratings import rate_when_due
from reverie.persona.thoughts import NewThought, store_thoughts, triples_of
from reverie.simulation.stop_signals import deferred
from reverie.tasks.whisper import whisper_inner_thought

HEADER = ("name", "whisper")
MAX_ROWS = 1_000  # rows, and whispers: each whisper is a few model calls
MAX_BYTES = 1_000_000
PROGRESS_FROM = 20  # whispers: a load this long shows a progress bar
LARGE = "--large"  # what `call -- load history FILE --large` adds to lift the bounds
KEPT_SKIPS = 3  # lines kept to show of the rows skipped; the rest are counted


@dataclass
class History:
    """The rows for known personas, and the rows skipped (the first few said, all counted)."""

    rows: list[tuple[str, list[str]]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    skipped_rows: int = 0

    def skip(self, line: str) -> None:
        self.skipped_rows += 1
        if len(self.skipped) < KEPT_SKIPS:
            self.skipped.append(line)

    def skipped_line(self) -> str:
        """The rows skipped, in one line: the first, and how many more."""
        more = self.skipped_rows - 1
        return (self.skipped[0] if self.skipped else "") + (f" (and {more:,} more)" if more > 0 else "")

    @property
    def whispers(self) -> int:
        return sum(len(whispers) for _name, whispers in self.rows)


def _unknown(name: str, line: int, known: list[str]) -> str:
    same = [k for k in known if k.lower() == " ".join(name.split()).lower()]
    hint = f" (did you mean '{same[0]}'?)" if same else ""
    return f"line {line}: '{name[:60]}' is not a persona of this simulation{hint}"


def _too_large(path: Path, what: str) -> UserError:
    return UserError(
        f"{path} has {what}; a history loads at most {MAX_ROWS:,} rows and whispers and "
        f"{MAX_BYTES // 1_000_000} MB, as each whisper costs model calls — split it, or load it "
        f"anyway with: call -- load history <file> {LARGE}"
    )


def read_history(path: Path, known: list[str] | None = None, *, large: bool = False) -> History:
    """The file's rows (``known``: the personas' names; None takes every row). ``large``: past
    the bounds too."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"no history file {path} — give a CSV path relative to the assets folder")
    size = path.stat().st_size
    if size > MAX_BYTES and not large:
        raise _too_large(path, f"{size:,} bytes")
    found = History()
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            reader = csv.reader(fh)
            header = next(reader, None)
            if header is None or tuple(h.strip().lower() for h in header[:2]) != HEADER:
                shown = ",".join(header or [])[:60]
                raise UserError(
                    f"{path}: the first line is '{shown}', expected the header 'Name,Whisper' "
                    "(the persona's full name, then its whispers separated by ';')"
                )
            rows = whispered = 0
            for row in reader:
                if not any(cell.strip() for cell in row):
                    continue
                rows += 1
                if not large and (rows > MAX_ROWS or whispered > MAX_ROWS):
                    raise _too_large(path, f"more than {MAX_ROWS:,} {'rows' if rows > MAX_ROWS else 'whispers'}")
                name = row[0].strip()
                if known is not None and name not in known:
                    found.skip(_unknown(name, reader.line_num, known))
                    continue
                whispers = [w.strip() for w in ",".join(row[1:]).split(";") if w.strip()]
                if not whispers:
                    found.skip(f"line {reader.line_num}: no whisper for '{name}'")
                    continue
                found.rows.append((name, whispers))
                whispered += len(whispers)
            if not large and found.whispers > MAX_ROWS:
                raise _too_large(path, f"{found.whispers:,} whispers")
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text — save it as UTF-8 CSV") from None
    except csv.Error as exc:
        raise UserError(f"{path}: not a readable CSV ({exc})") from None
    if known is not None and not found.rows:
        first = f": {found.skipped_line()}" if found.skipped else ""
        raise UserError(
            f"{path} has no row for any persona of this simulation{first} — "
            f"name them as {', '.join(known)}; nothing was loaded"
        )
    return found


def load_history(sim, path: Path, warn=None, *, large: bool = False) -> dict[str, int]:
    """Store every whisper as a thought of its persona; returns memories added per persona.
    ``warn`` gets one line for the rows that name no persona (nothing is loaded when no row
    does). All or nothing: a load stopped before its memories are stored keeps none."""
    from tqdm import tqdm

    history = read_history(path, list(sim.personas), large=large)
    if history.skipped_rows:
        rows = f"{history.skipped_rows:,} row{'s' if history.skipped_rows != 1 else ''}"
        (warn or (lambda text: None))(f"{Path(path).name}: {rows} skipped — {history.skipped_line()}")
    sim.llm.set_clock(sim.step_no, sim.curr_time_str)
    asked = []  # (name, its thoughts, their triples): every call is made before anything is stored
    with tqdm(
        total=history.whispers,
        unit="whisper",
        desc="history",
        file=sys.stderr,
        disable=history.whispers < PROGRESS_FROM,
    ) as bar:
        for name, whispers in history.rows:
            persona = sim.personas[name]
            thoughts = []
            for whisper in whispers:
                thoughts.append(
                    NewThought(whisper_inner_thought(sim.llm, persona_name=name, whisper=whisper), [], whisper)
                )
                bar.update(1)
            asked.append((name, thoughts, triples_of(persona, sim.llm, thoughts)))
    counts: dict[str, int] = {}
    with deferred("storing the history first"):  # all at once: a stop signal waits until every memory is in
        for name, thoughts, triples in asked:
            persona = sim.personas[name]
            store_thoughts(persona, thoughts, triples, now=persona.scratch.curr_time or sim.curr_time)
            counts[name] = counts.get(name, 0) + len(thoughts)
    for name in counts:
        persona = sim.personas[name]
        waiting = dict(persona.memory.unrated.texts)
        try:
            rate_when_due(persona, sim.llm)  # rated together, when first read
        except KeyboardInterrupt:
            persona.memory.unrated.texts = waiting  # stored, still to be rated: asked when next read
            raise UserError(
                f"stopped while rating the history's memories: all {sum(counts.values())} are "
                "stored, and the rest of their ratings are asked later"
            ) from None
    return counts
