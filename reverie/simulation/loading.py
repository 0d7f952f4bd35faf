"""Open a simulation's parts: its world, its model, its personas at the environment's positions.

``sim`` is a :class:`reverie.simulation.simulation.Simulation`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from reverie.errors import UserError
from reverie.simulation import checkpoint_check
from reverie.simulation.positions import position
from reverie.simulation.seeds import attach_seeds, read_seeds
from reverie.simulation.storage import DamagedFile

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel


def make_llm(sim: Any, record: Path | None, replay: Path | None) -> LanguageModel:
    from reverie.llm import LLM
    from reverie.tasks.registry import product_tasks

    return LLM.from_settings(
        sim.settings,
        tasks=product_tasks(),
        ledger_path=sim.storage.ledger_path,
        record=record,
        replay=replay,
        trace_path=sim.storage.trace_path,
    )


def load_world(sim: Any) -> None:
    from reverie.world.maze import Maze

    if not (sim.settings.paths.assets / sim.maze_name).is_dir():
        raise UserError(
            f"no world '{sim.maze_name}' under {sim.settings.paths.assets} — set [paths] assets or import it"
        )
    sim.maze = Maze.load(sim.settings.paths.assets, sim.maze_name)


def load_personas(sim: Any) -> None:
    from reverie.memory import Embedder, VectorIndex
    from reverie.persona.options import CognitionOptions
    from reverie.persona.persona import Persona

    env = sim.storage.read_environment(sim.step_no)
    if env is None and not sim.storage.environment_path(sim.step_no).exists():
        # A live run stopped before the browser reported where the last step's moves put
        # everyone: its movement file says it.
        env = checkpoint_check.environment_from_movement(sim.storage, sim.step_no, sim.meta_dict())
        if env is not None:
            sim.storage.write_environment(sim.step_no, env)
    if env is None:
        raise UserError(
            f"{sim.storage.environment_path(sim.step_no)} is missing or unreadable — the simulation cannot start at step {sim.step_no}"
        )
    embedder = Embedder(sim.settings)
    index = sim.vector_index = VectorIndex(sim.settings, sim.storage.dir)
    options = CognitionOptions(
        packed_actions=sim.settings.simulation.packed_actions,
        reuse_answers=sim.settings.simulation.reuse_answers,
        defer_ratings=sim.settings.simulation.defer_ratings,
        schedule_passes=sim.settings.simulation.schedule_passes,
    )
    for name in sim.persona_names:
        if name not in env:
            raise UserError(f"{sim.storage.environment_path(sim.step_no)} has no position for '{name}'")
        try:
            persona = Persona.load(name, sim.storage.persona_dir(name), embedder=embedder, index=index, options=options)
        except (ValueError, KeyError, TypeError) as exc:
            if isinstance(exc, UserError):
                raise
            raise DamagedFile(sim.storage.persona_dir(name), f"{type(exc).__name__}: {exc}") from None
        sim.personas[name] = persona
        tile = position(sim, env, name)
        persona.scratch.move_to(tile)
        sim.maze.add_event_to_tile(persona.current_event(), tile)
    attach_seeds(read_seeds(sim.storage.dir), sim.personas, force_plan=sim.settings.simulation.force_seed_plan)
