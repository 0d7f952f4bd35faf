"""The secret key: generated on first run into a git-ignored file beside manage.py."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from django.core.management.utils import get_random_secret_key


def load_or_create(path: Path) -> str:
    """Return the key stored at `path`, creating the file (mode 600) if it does not exist."""
    try:
        key = path.read_text(encoding="utf-8").strip()
        if key:
            return key
    except FileNotFoundError:
        pass
    key = get_random_secret_key()
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".secret_key.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(key + "\n")
        os.chmod(tmp, 0o600)
        # Keep a key another process wrote first, so both processes agree.
        try:
            os.link(tmp, path)
        except FileExistsError:
            key = path.read_text(encoding="utf-8").strip() or key
    finally:
        os.unlink(tmp)
    return key
