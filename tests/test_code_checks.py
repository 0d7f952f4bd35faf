"""The linter and the type checker: `ruff check` and `mypy` on reverie/, configured in pyproject.toml.

The real tools on the real package; a finding fails with the tool's own report. Two more tests
give each tool a module with a known fault under the same configuration, so a configuration that
checks nothing fails too.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from reverie import PROJECT_ROOT

CONFIG = PROJECT_ROOT / "pyproject.toml"


def _run(*args: str, cwd: Path = PROJECT_ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing_in_reverie():
    done = _run("ruff", "check", "--no-cache", "--config", str(CONFIG), "reverie")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing_in_reverie():
    done = _run("mypy", "--config-file", str(CONFIG))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("Success: no issues found in "), done.stdout + done.stderr


def test_the_configured_checks_find_a_known_fault(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\n\n\ndef half(value: int, label) -> int:\n    return value / 2\n", encoding="utf-8")
    lint = _run("ruff", "check", "--no-cache", "--config", str(CONFIG), str(sample), cwd=tmp_path)
    assert lint.returncode == 1 and "F401" in lint.stdout, lint.stdout + lint.stderr
    types = _run(
        "mypy", "--config-file", str(CONFIG), "--cache-dir", str(tmp_path / "cache"), str(sample), cwd=tmp_path
    )
    assert types.returncode == 1, types.stdout + types.stderr
    assert "[no-untyped-def]" in types.stdout and "[return-value]" in types.stdout, types.stdout
