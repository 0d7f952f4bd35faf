"""On resume, the ledger goes back to the checkpoint: the calls of steps that will run again
are dropped, so ``llm_calls.jsonl`` (and the runs page) counts what the run really did.

A line belongs to the step it names; lines with no step (asked outside the step loop, e.g.
an interview) are kept, and so is everything before the checkpoint. A line cut short by a
kill is dropped. The file is rewritten atomically.
"""

from __future__ import annotations

from pathlib import Path

from reverie.jsonio import jsonl_lines, write_text_atomic


def rollback_ledger(path: Path, checkpoint_step: int) -> tuple[int, int]:
    """Drop the lines of steps ``>= checkpoint_step``; returns (lines before, lines after)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return 0, 0
    lines, kept = text.splitlines(), []
    for line, entry in jsonl_lines(text):
        if entry is None:
            continue  # a line cut short by a kill
        step = entry.get("step") if isinstance(entry, dict) else None
        if isinstance(step, int) and step >= checkpoint_step:
            continue
        kept.append(line)
    if len(kept) != len(lines):
        write_text_atomic(path, "".join(f"{line}\n" for line in kept))
    return len(lines), len(kept)
