#!/usr/bin/env python
"""Django's command-line utility for the environment server (run from this folder)."""

import os
import sys
from pathlib import Path

# The project root holds the `reverie` package and config.toml.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "frontend_server.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
