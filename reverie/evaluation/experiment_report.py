"""The keys of ``<sim>/experiment.json``, the report `python -m reverie experiment` writes and
the run's page (``/runs/<sim>/``) reads. The figures of each checkpoint in it ("start", "end",
"checkpoints") are the metrics shown in ``experiment.json`` (``reverie/evaluation/evaluation_metrics.py``).

A neutral helper: it imports nothing of the engine, so the pages may import it too.
"""

from __future__ import annotations

from enum import StrEnum


class ExperimentKey(StrEnum):
    SIM = "sim"
    BASE = "base"
    MODEL = "model"
    HOURS_ASKED = "hours_asked"
    HOURS_RUN = "hours_run"
    SHORTER_THAN_PAPER = "shorter_than_paper"
    PAPER = "paper"  # the paper's figures (experiment_table.paper_figures)
    START = "start"  # the first checkpoint's figures
    END = "end"  # the last checkpoint's figures
    CHECKPOINTS = "checkpoints"  # every checkpoint's figures
    CONVERSATIONS = "conversations"
    CONVERSATIONS_PER_AGENT_DAY = "conversations_per_agent_day"
    MEETS_PAPER = "meets_paper"
    SCRIPTED = "scripted"
    FORCE_SEED_PLAN = "force_seed_plan"
    TABLE = "table"  # the printed table, line by line
