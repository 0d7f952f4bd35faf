"""`prompts eval --compare A B`: the same cases through two prompt versions or two models.

A side is a prompts folder, a git revision of ``prompts/`` (its files taken out of the
repository into a temporary folder), ``bundled`` or a GGUF file; everything a side does not
name comes from the config. Each case is asked once per side; the table puts the sides next
to each other per prompt (1st-try valid, final valid, fallbacks, tokens, latency) with the
ratio B/A, and the cases whose outcome (valid at once, repaired, fallback) changed are listed.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from reverie import PROJECT_ROOT
from reverie.config import BUNDLED, Settings
from reverie.errors import UserError
from reverie.prompt_tools.evaluate import Row, format_row, summarize


@dataclass(frozen=True)
class Side:
    label: str
    prompts: Path | None = None  # None: the config's
    model: str | None = None  # None: the config's


def _revision_prompts(revision: str, into: Path) -> Path | None:
    """``prompts/`` as it was at ``revision``, written under ``into``; None when it is no revision."""

    def git(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", "-C", str(PROJECT_ROOT), *args], capture_output=True, text=True)

    if git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}").returncode != 0:
        return None
    listing = git("ls-tree", "--name-only", revision, "prompts/")
    names = [line for line in listing.stdout.splitlines() if line.endswith(".toml")]
    if not names:
        raise UserError(f"--compare {revision}: that revision has no prompts/*.toml")
    folder = into / revision.replace("/", "_").replace("~", "-").replace("^", "-")
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / Path(name).name).write_text(git("show", f"{revision}:{name}").stdout, encoding="utf-8")
    return folder


def side_of(spec: str, scratch: Path) -> Side:
    """What ``--compare`` was given: a prompts folder, a git revision, 'bundled' or a GGUF file."""
    path = Path(spec).expanduser()
    if path.is_dir():
        if not any(path.glob("*.toml")):
            raise UserError(f"--compare {spec}: a folder with no prompt files (*.toml)")
        return Side(spec, prompts=path.resolve())
    if spec == BUNDLED or (path.is_file() and path.suffix == ".gguf"):
        return Side(spec, model=spec if spec == BUNDLED else str(path.resolve()))
    folder = _revision_prompts(spec, scratch)
    if folder is None:
        raise UserError(f"--compare {spec}: not a prompts folder, a git revision, '{BUNDLED}' or a .gguf file")
    return Side(f"{spec} (git)", prompts=folder)


def side_settings(settings: Settings, side: Side) -> Settings:
    s = settings.model_copy(deep=True)
    if side.prompts is not None:
        s.paths.prompts = side.prompts
    if side.model is not None:
        s.models.strong.path = s.models.cheap.path = side.model
    return s


def outcome(line: dict) -> str:
    """``valid`` (at the first try), ``repaired`` or ``fallback``, from a ledger line."""
    if line.get("fallback"):
        return "fallback"
    return "valid" if int(line.get("attempts") or 1) == 1 else "repaired"


METRICS: tuple[tuple[str, Callable[[Row], float], str], ...] = (
    ("1st ok %", lambda r: 100.0 * r.first_ok / max(r.calls, 1), "{:.0f}"),
    ("final ok %", lambda r: 100.0 * r.final_ok / max(r.calls, 1), "{:.0f}"),
    ("fallbacks", lambda r: float(r.fallbacks), "{:.0f}"),
    ("tokens", lambda r: float(r.prompt_tokens + r.completion_tokens), "{:.0f}"),
    ("latency s", lambda r: r.latency_s / max(r.calls, 1), "{:.2f}"),
)


def ratio(a: float, b: float) -> str:
    if a == 0:
        return "=" if b == 0 else "new"
    return f"{b / a:.2f}"


def table(a_lines: list[dict], b_lines: list[dict], names: list[str]) -> list[str]:
    """Per prompt and in total, each metric as ``A / B (B/A)``."""
    rows_a, total_a = summarize(a_lines, names)
    rows_b, total_b = summarize(b_lines, names)
    header = ["prompt", "calls", *(label for label, _, _ in METRICS)]
    body = []
    for row_a, row_b in [*zip(rows_a, rows_b), (total_a, total_b)]:
        cells = [row_a.prompt, str(row_a.calls)]
        for _label, value, fmt in METRICS:
            a, b = value(row_a), value(row_b)
            cells.append(f"{fmt.format(a)} / {fmt.format(b)} ({ratio(a, b)})")
        body.append(cells)
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    return ["each cell: A / B (B/A)", *(format_row(tuple(cells), widths) for cells in [header, *body])]


def changed(a_lines: list[dict], b_lines: list[dict]) -> list[str]:
    """One line per case whose outcome differs between the sides (lines carry ``prompt`` and ``case``)."""
    b_of = {(line["prompt"], line["case"]): line for line in b_lines}
    out = []
    for a in a_lines:
        b = b_of.get((a["prompt"], a["case"]))
        if b is not None and outcome(a) != outcome(b):
            who = f" ({a['persona']})" if a.get("persona") else ""
            out.append(f"{a['prompt']} case {a['case']}{who}: {outcome(a)} -> {outcome(b)}")
    return out
