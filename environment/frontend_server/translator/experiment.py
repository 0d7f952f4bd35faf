"""The experiment section of `/runs/<sim>/`: the paper's table beside this run's, as
`python -m reverie experiment` wrote it (<sim>/experiment.json)."""

from __future__ import annotations

from pathlib import Path

from reverie.evaluation.experiment_report import ExperimentKey as R
from reverie.sim_layout import EXPERIMENT_REPORT as EXPERIMENT_FILE
from translator.simfiles import BrokenFile, read_json


def section(sim_path: Path) -> dict | None:
    """None when the run is no experiment; else its table lines and what it says of itself."""
    path = sim_path / EXPERIMENT_FILE
    if not path.is_file():
        return None
    try:
        data = read_json(path)
    except BrokenFile as exc:
        return {"error": str(exc)}
    if not isinstance(data, dict) or not isinstance(data.get(R.TABLE), list):
        return {"error": f"{EXPERIMENT_FILE} has no table."}
    return {
        "table": "\n".join(str(line) for line in data[R.TABLE]),
        "hours_run": data.get(R.HOURS_RUN),
        "hours_asked": data.get(R.HOURS_ASKED),
        "conversations": data.get(R.CONVERSATIONS),
        "per_agent_day": data.get(R.CONVERSATIONS_PER_AGENT_DAY),
        "scripted": bool(data.get(R.SCRIPTED)),
        "force_seed_plan": bool(data.get(R.FORCE_SEED_PLAN)),
    }
