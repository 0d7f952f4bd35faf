"""The layers are a contract: `lint-imports` (import-linter) checks `.importlinter`.

One layers contract names every room of reverie, top to bottom (exhaustive: a room or loose
module left out breaks it), each importing only the rooms below it; and no two parts of
reverie import each other round in a cycle. The real tool on the real package; a broken
contract fails with its report.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from reverie import PROJECT_ROOT

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
CONTRACTS = ("layers", "no-cycles")


def test_every_layer_imports_only_downward_and_nothing_imports_in_a_cycle():
    config = PROJECT_ROOT / ".importlinter"
    assert all(f"[importlinter:contract:{c}]" in config.read_text(encoding="utf-8") for c in CONTRACTS)
    done = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo", "--config", str(config)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = done.stdout + done.stderr
    assert f"Contracts: {len(CONTRACTS)} kept, 0 broken." in report, report
    assert done.returncode == 0, report
