"""A shipped base forked into a test's folder (the base linked in, never written)."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from reverie import PROJECT_ROOT
from reverie.config import Settings, load_settings
from reverie.simulation.storage import SimStorage, fork


def fork_base(tmp_path: Path, base: str, name: str) -> tuple[Settings, SimStorage]:
    """The project's settings with storage under ``tmp_path`` and ``base`` forked there as ``name``."""
    shipped = load_settings(PROJECT_ROOT / "config.toml")
    settings = shipped.model_copy(deep=True)
    settings.paths.storage, settings.paths.temp_storage = tmp_path / "storage", tmp_path / "temp"
    settings.paths.storage.mkdir()
    (settings.paths.storage / base).symlink_to(shipped.paths.storage / base, target_is_directory=True)
    return settings, fork(settings.paths.storage, base, name)


@contextmanager
def forked_sim(tmp_path: Path, base: str, name: str, model, *, at: str | None = None):
    """``base`` forked as ``name`` (its clock moved to ``at``, HH:MM, if given), opened with
    ``model`` (a chat model, e.g. a scripted fake) in both roles; closed afterwards."""
    from reverie.llm import LLM
    from reverie.simulation.fast_forward import fast_forward
    from reverie.simulation.simulation import Simulation
    from reverie.tasks.registry import product_tasks

    settings, storage = fork_base(tmp_path, base, name)
    if at:
        fast_forward(storage, at)
    llm = LLM(
        settings,
        tasks=product_tasks(),
        chat_models={"strong": model, "cheap": model},
        ledger_path=storage.dir / "reverie" / "llm_calls.jsonl",
    )
    sim = Simulation.open(settings, name, storage=storage, llm=llm)
    try:
        yield sim
    finally:
        sim.close()
