"""A call trace in the synthetic run, written by the real chain around a scripted fake model
(reverie.llm.fake_model.FakeChatModel): one call valid at once, one repaired, one that falls back."""

from __future__ import annotations

from pathlib import Path

from reverie.config import load_settings
from reverie.sim_layout import SimLayout
from reverie.prompt_tools.fixtures import load_fixture
from tests.frontend import synthetic
from tests.tasks.planning_support import traced_llm

NEVER = "I would rather not say."
# (persona, game time, replies in order)
CALLS = (
    ("Isabella Rodriguez", "February 13, 2023, 06:10:00", ['{"hour": 6}']),
    ("Maria Lopez", "February 13, 2023, 07:20:00", ['{"hour": 24}', '{"hour": 7}']),
    ("Klaus Mueller", "February 13, 2023, 08:30:00", [NEVER, NEVER + " Really.", NEVER + " No."]),
)


def write_trace(world: Path) -> Path:
    """Three wake_up_hour calls traced into the synthetic run; returns the trace's path."""
    settings = load_settings(world / "config.toml")
    layout = SimLayout(settings.paths.storage / synthetic.SIM)
    case = load_fixture("wake_up_hour").cases[0]
    for step, (persona, game_time, replies) in enumerate(CALLS, start=1):
        llm = traced_llm(settings, layout, replies)
        llm.set_clock(step, game_time)
        llm.ask("wake_up_hour", case.inputs, choices=case.choices, persona=persona)
    return layout.trace_path
