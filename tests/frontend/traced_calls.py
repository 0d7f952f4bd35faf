"""A call trace in the synthetic run, written by the real chain around a scripted fake model
(reverie.llm.fake_model.FakeChatModel): one call valid at once, one repaired, one that falls back."""

from __future__ import annotations

from pathlib import Path

from reverie.config import load_settings
from reverie.llm import LLM
from reverie.llm.fake_model import FakeChatModel
from reverie.sim_layout import SimLayout
from reverie.prompt_tools.fixtures import load_fixture
from reverie.tasks.registry import product_tasks
from tests.frontend import synthetic

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
        model = FakeChatModel(replies=replies)
        llm = LLM(
            settings,
            tasks=product_tasks(),
            chat_models={"strong": model, "cheap": model},
            ledger_path=layout.ledger_path,
            trace_path=layout.trace_path,
        )
        llm.set_clock(step, game_time)
        llm.ask("wake_up_hour", case.inputs, choices=case.choices, persona=persona)
    return layout.trace_path
