"""Generative agents, local-first: a port of Smallville that runs on your own machine."""

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
