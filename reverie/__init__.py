"""Generative agents, local-first: a port of Smallville that runs on your own machine."""

import os
from pathlib import Path

# llama.cpp and torch use OpenMP; busy-waiting threads slow every call down many times over
# when anything else shares the cores (a browser, a second agent process). Set before either loads.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

PROJECT_ROOT = Path(__file__).resolve().parent.parent
