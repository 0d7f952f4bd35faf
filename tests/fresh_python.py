"""Python code run in a fresh interpreter from the project's root: what a module imports, or what
a setting reads, when nothing of the test's own process is loaded."""

from __future__ import annotations

import subprocess
import sys

from reverie import PROJECT_ROOT


def fresh_python(code: str, *, timeout: float = 120, **run) -> subprocess.CompletedProcess[str]:
    """``python -c CODE`` with its output captured as text (``run``: more of subprocess.run's keywords)."""
    return subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=timeout, **run
    )
