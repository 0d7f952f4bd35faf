"""Prompt fixtures: captured inputs, known-good and known-bad replies for each prompt.

One file per prompt, ``prompts/fixtures/<name>.json``::

    {"cases": [{"inputs": {...}, "choices": {...}}],
     "valid": [<a valid reply object>, ...],
     "bad":   [{"reply": <object or text>, "error": "<part of the correction message>", "case": 0}]}

``cases`` feed ``prompts show`` / ``prompts eval`` and the render tests; ``valid`` and ``bad``
are checked against the schema with the context of case 0 (or the ``case`` a bad reply names).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_origin

from reverie import PROJECT_ROOT
from reverie.errors import UserError
from reverie.llm.task import Task

FIXTURES_DIR = PROJECT_ROOT / "prompts" / "fixtures"


@dataclass(frozen=True)
class Case:
    inputs: dict[str, Any]
    choices: dict[str, list[str]] = field(default_factory=dict)

    def context(self, task: Task) -> dict[str, Any]:
        """The validation context the structured chain passes to ``task``'s schema."""
        return task.context(self.inputs, self.choices)


@dataclass(frozen=True)
class BadReply:
    reply: Any
    error: str
    case: int = 0


@dataclass(frozen=True)
class Fixture:
    name: str
    path: Path
    cases: list[Case]
    valid: list[Any]
    bad: list[BadReply]


def fixture_inputs(task: Task, **values: Any) -> Any:
    """``task``'s typed inputs: its first fixture case's, with ``values`` in their place."""
    return task.typed({**load_fixture(task.name).cases[0].inputs, **values})


def inputs_with(task: Task, **values: Any) -> Any:
    """``task``'s typed inputs: ``values``, every other field empty ("", 0, {})."""
    empty = {
        name: (get_origin(field.annotation) or field.annotation)()
        for name, field in task.inputs.model_fields.items()
        if field.is_required()
    }
    return task.typed({**empty, **values})


def fixture_path(name: str, folder: Path | None = None) -> Path:
    return Path(folder or FIXTURES_DIR) / f"{name}.json"


def fixture_names(folder: Path | None = None) -> list[str]:
    folder = Path(folder or FIXTURES_DIR)
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def _problem(path: Path, what: str) -> UserError:
    return UserError(f"{path}: {what}")


def load_fixture(name: str, folder: Path | None = None) -> Fixture:
    """Read and check one fixture file; any problem is a one-line UserError naming the file."""
    path = fixture_path(name, folder)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _problem(path, f"no fixtures for prompt {name!r}; add this file (see prompts/README.md)") from None
    except json.JSONDecodeError as exc:
        raise _problem(path, f"not valid JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(raw, dict):
        raise _problem(path, "must be a JSON object with keys cases, valid, bad")
    cases_raw = raw.get("cases")
    if not isinstance(cases_raw, list) or not cases_raw:
        raise _problem(path, '"cases" must be a non-empty list of {"inputs": {...}, "choices": {...}}')
    cases = []
    for i, case in enumerate(cases_raw):
        if not isinstance(case, dict) or not isinstance(case.get("inputs"), dict):
            raise _problem(path, f'cases[{i}] needs an "inputs" object')
        choices = case.get("choices") or {}
        if not isinstance(choices, dict) or not all(isinstance(v, list) for v in choices.values()):
            raise _problem(path, f'cases[{i}] "choices" must map names to lists of strings')
        cases.append(Case(inputs=dict(case["inputs"]), choices={k: list(v) for k, v in choices.items()}))
    valid = raw.get("valid", [])
    if not isinstance(valid, list):
        raise _problem(path, '"valid" must be a list of reply objects')
    bad = []
    for i, item in enumerate(raw.get("bad", [])):
        if not isinstance(item, dict) or "reply" not in item or not isinstance(item.get("error"), str):
            raise _problem(path, f'bad[{i}] needs "reply" and an "error" string')
        case = item.get("case", 0)
        if not isinstance(case, int) or not 0 <= case < len(cases):
            raise _problem(path, f'bad[{i}] "case" must be an index into cases (0 to {len(cases) - 1})')
        bad.append(BadReply(reply=item["reply"], error=item["error"], case=case))
    return Fixture(name=name, path=path, cases=cases, valid=valid, bad=bad)
