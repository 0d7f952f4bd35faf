"""A real run's trace, captured, evaluated and compared: the README's first run on the bundled
model (the session's run, shared with tests/simulation/test_first_run.py), then `prompts capture`,
`prompts eval --cases` and `--compare` (a copy of prompts/ with one prompt made longer against
prompts/ itself) as a user types them."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT

PROMPT = "wake_up_hour"

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


def reverie(config: Path, *args: str) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "reverie", "--config", str(config), *args],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=1500,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout


def row(output: str, name: str) -> list[str]:
    """The cells of ``name``'s row in a table printed by `prompts eval` (split on 2+ spaces)."""
    line = next(line for line in output.splitlines() if line.startswith(name + " "))
    return re.split(r"\s{2,}", line.strip())


def test_a_real_runs_calls_are_captured_evaluated_and_compared(readme_first_run, tmp_path):
    first = readme_first_run
    assert first.run.returncode == 0, first.run.stderr[-3000:]
    config, sim = first.config, first.sim.name

    reverie_dir = first.sim / "reverie"
    traced = [json.loads(line) for line in (reverie_dir / "llm_trace.jsonl").read_text().splitlines()]
    ledger = [json.loads(line) for line in (reverie_dir / "llm_calls.jsonl").read_text().splitlines()]
    assert [c["prompt"] for c in traced] == [line["prompt"] for line in ledger]  # every call traced
    asked = [c for c in traced if c["prompt"] == PROMPT]
    assert asked, f"the first step asked no {PROMPT}: {[c['prompt'] for c in traced]}"
    distinct = list({json.dumps([c["inputs"], c["choices"]], sort_keys=True): c for c in asked}.values())

    cases = tmp_path / "cases"
    out = reverie(config, "prompts", "capture", sim, "--out", str(cases), "--n", "2")
    captured = json.loads((cases / f"{PROMPT}.json").read_text())["cases"]
    assert [c["inputs"] for c in captured] == [c["inputs"] for c in distinct[:2]]
    assert f"from {len(traced)} traced call(s)" in out

    evaluated = reverie(config, "prompts", "eval", "--cases", str(cases), "--prompt", PROMPT)
    assert row(evaluated, PROMPT)[1] == str(len(captured))

    longer = tmp_path / "prompts_b"
    shutil.copytree(PROJECT_ROOT / "prompts", longer)
    spec = longer / f"{PROMPT}.toml"
    spec.write_text(
        spec.read_text().replace(
            'system = """',
            'system = """Think of the whole household and the habits it has kept for many years before you answer.\n',
            1,
        )
    )
    compared = reverie(
        config,
        "prompts",
        "eval",
        "--cases",
        str(cases),
        "--prompt",
        PROMPT,
        "--compare",
        str(PROJECT_ROOT / "prompts"),
        str(longer),
    )
    cells = row(compared, PROMPT)
    assert cells[1] == str(len(captured))
    tokens_a, tokens_b, tokens_ratio = re.fullmatch(r"(\d+) / (\d+) \(([\d.]+)\)", cells[5]).groups()
    assert int(tokens_b) > int(tokens_a) and float(tokens_ratio) > 1  # side B really sent the longer prompt
    moved = re.search(r"(\d+) case\(s\) changed outcome", compared)
    listed = [line for line in compared.splitlines() if line.startswith(f"  {PROMPT} case ")]
    assert moved and int(moved.group(1)) == len(listed)
