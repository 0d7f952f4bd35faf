"""The generated town on the scripted town model, for the scripted-town tests: a base with
seeds planted, a quiet stretch of day, and who came to its cafe. The scripted model answers by
rule from each prompt's own inputs: the plumbing's check, not a model of behaviour."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the run's modules load when a test asks for a town, not when tests are collected
    from reverie.config import Settings
    from reverie.simulation.storage import SimStorage


def seeded_town(root: Path, base: str, seeds: list[dict]) -> tuple[Settings, SimStorage]:
    """The default town forked as ``base`` (packed actions, a tile a step) with ``seeds`` planted,
    and settings that run it on the scripted town model."""
    from reverie.config import SCRIPTED, load_settings
    from tests.fuzz.test_fuzz_runs import town

    config, storage = town(root, base, packed_actions="true")
    storage.write_meta({**storage.read_meta(), "sec_per_step": 10})  # people walk a tile a step
    (storage.dir / "reverie" / "seeds.json").write_text(json.dumps(seeds))
    settings = load_settings(config)
    settings.models.strong.path = settings.models.cheap.path = SCRIPTED
    return settings, storage


def quiet_day(settings: Settings, base: str, sim_code: str, *, hours: int, start: str, **day) -> None:
    """``run_day`` of ``base`` forked as ``sim_code`` from ``start``: no whispers loaded, nobody
    interviewed, nothing said."""
    from reverie.evaluation.game_day import DayAsk, run_day

    ask = DayAsk(base, sim_code, hours, evaluate_every=-1, start=start, history=None)
    run_day(settings, ask, say=lambda _l: None, **day)


def cafe_visitors(sim, storage: SimStorage, window: tuple) -> dict[str, int]:
    """{resident: steps in Willow Bean Cafe's cafe} over ``sim``'s movement files inside ``window``."""
    from reverie.evaluation.evaluation import movement_frames
    from reverie.evaluation.evaluation_figures import attendance

    cafe = {
        (x, y)
        for y, row in enumerate(sim.maze.tiles)
        for x, t in enumerate(row)
        if t["sector"] == "Willow Bean Cafe" and t["arena"] == "cafe"
    }
    return attendance(movement_frames(storage, sim.persona_names), lambda tile: tile in cafe, window, sim.persona_names)
