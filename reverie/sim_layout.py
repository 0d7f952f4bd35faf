"""Where a simulation's files lie (the original layout plus our extras), for the engine and the pages.

``<storage>/<sim>/`` holds ``reverie/meta.json``, ``environment/<step>.json``,
``movement/<step>.json`` and ``personas/<Name>/bootstrap_memory/``; beside them we add
``reverie/llm_calls.jsonl``, ``reverie/llm_trace.jsonl``, ``reverie/.lock``, ``reverie/chat_templates.json``,
``timeline.md``, ``evaluation.json``, ``game_day.json``, ``experiment.json``, ``chroma/`` and the previous checkpoint
``.checkpoint.prev/``.
"""

from __future__ import annotations

import re
from pathlib import Path

SIM_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
MAX_SIM_NAME = 100  # a folder name (255 bytes at most) with room for ".<name>.forking"
BASE_PREFIX = "base_"  # a shipped starting point: forked, never written
META = "reverie/meta.json"
LEDGER = "llm_calls.jsonl"
TRACE = "llm_trace.jsonl"  # every call kept whole (reverie.llm.call_trace)
TIMELINE = "timeline.md"
CHROMA = "chroma"
LOCK_NAME = ".lock"  # reverie/.lock: the PID of the process running the simulation
ENVIRONMENT = "environment"
MOVEMENT = "movement"
PERSONAS = "personas"
BOOTSTRAP_MEMORY = "bootstrap_memory"
SCRATCH = "scratch.json"
CHAT_TEMPLATES = "chat_templates.json"
EVALUATION = "evaluation.json"
GAME_DAY_REPORT = "game_day.json"
EXPERIMENT_REPORT = "experiment.json"
EXPERIMENT_PROGRESS = "experiment_progress.json"
GAME_DAY_PROGRESS = "game_day_progress.json"
PREVIOUS_CHECKPOINT = ".checkpoint.prev"
# Files of one run (its calls, its figures, its lock, its saves in progress): a fork starts without them.
PER_RUN_EXTRAS = (
    LEDGER,
    TRACE,
    TIMELINE,
    CHROMA,
    CHAT_TEMPLATES,
    EVALUATION,
    GAME_DAY_REPORT,
    EXPERIMENT_REPORT,
    EXPERIMENT_PROGRESS,
    GAME_DAY_PROGRESS,
    LOCK_NAME,
    PREVIOUS_CHECKPOINT,
)


# Names Windows keeps for devices, with or without an extension: no folder can have them there.
RESERVED_NAMES = re.compile(r"^(CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9])(\..*)?$", re.IGNORECASE)


def is_sim_name(name: object) -> bool:
    """True for a name usable as a simulation folder on any system (letters, digits, '.', '_',
    '-', starting with a letter or digit; not a name Windows keeps for a device)."""
    return (
        isinstance(name, str)
        and len(name) <= MAX_SIM_NAME
        and SIM_NAME.fullmatch(name) is not None
        and RESERVED_NAMES.fullmatch(name) is None
    )


class SimLayout:
    """The paths of one simulation folder ``sim_dir``."""

    def __init__(self, sim_dir: Path):
        self.dir = Path(sim_dir)
        self.meta_path = self.dir / META
        self.ledger_path = self.dir / "reverie" / LEDGER
        self.trace_path = self.dir / "reverie" / TRACE
        self.lock_path = self.dir / "reverie" / LOCK_NAME
        self.timeline_path = self.dir / TIMELINE
        self.chroma_dir = self.dir / CHROMA
        self.personas_dir = self.dir / PERSONAS
        self.environment_dir = self.dir / ENVIRONMENT
        self.movement_dir = self.dir / MOVEMENT

    def persona_dir(self, name: str) -> Path:
        """``personas/<name>/bootstrap_memory``: the persona's saved state."""
        return self.personas_dir / name / BOOTSTRAP_MEMORY

    def environment_path(self, step: int) -> Path:
        return self.environment_dir / f"{step}.json"

    def movement_path(self, step: int) -> Path:
        return self.movement_dir / f"{step}.json"
