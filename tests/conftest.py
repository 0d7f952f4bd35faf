"""Shared fixtures: where the original Smallville data lives, and the settings of a test."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from tests.background_run import RunQueue

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

SHARED = PROJECT_ROOT.parent / "shared"
SMALLVILLE = SHARED / "smallville"


@pytest.fixture(scope="session")
def smallville_dir() -> Path:
    """The original release's data (kept beside the clone for compatibility tests only)."""
    if not SMALLVILLE.is_dir():
        pytest.fail(f"the original Smallville data is expected at {SMALLVILLE}")
    return SMALLVILLE


@pytest.fixture
def write_config(tmp_path):
    """Write a config.toml into tmp_path (text given) and return its path."""

    def _write(text: str = "", name: str = "config.toml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return _write


# The session's real-model runs, by the fixture that returns them: (start(root), finish(root, started)).
# Each starts in the background once the selected tests are known, if one of them needs it.
def _start_the_ville(root: Path):
    from tests.the_ville_run import start_recording_the_ville

    return start_recording_the_ville(root, SMALLVILLE)


def _finish_the_ville(root: Path, started):
    from tests.the_ville_run import finish_recording_the_ville

    return finish_recording_the_ville(root, started)


def _start_readme(root: Path):
    from tests.willow_run import start_the_readme_first_command

    return start_the_readme_first_command(root)


def _finish_readme(root: Path, started):
    from tests.willow_run import finish_the_readme_first_command

    return finish_the_readme_first_command(root, started)


SESSION_RUNS = {
    "the_ville_recording": (_start_the_ville, _finish_the_ville),
    "readme_first_run": (_start_readme, _finish_readme),
}
_QUEUE = pytest.StashKey[tuple[dict[str, Path], RunQueue]]()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the session runs the selected tests will ask for, one at a time, in the order they
    are first needed: their model generates on half the cores, so the tests before them run
    meanwhile instead of waiting for them later."""
    if session.config.option.collectonly:
        return
    first_use: dict[str, int] = {}
    for index, item in enumerate(session.items):
        for name in SESSION_RUNS:
            if name in getattr(item, "fixturenames", ()):
                first_use.setdefault(name, index)
    if not SMALLVILLE.is_dir():  # the fixture fails on it, naming where the data is expected
        first_use.pop("the_ville_recording", None)
    factory = session.config._tmp_path_factory  # type: ignore[attr-defined]  # tmp_path_factory's own
    roots = {name: factory.mktemp(name) for name in sorted(first_use, key=first_use.__getitem__)}
    starts = {name: functools.partial(SESSION_RUNS[name][0], root) for name, root in roots.items()}
    session.config.stash[_QUEUE] = (roots, RunQueue(starts))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop the session runs still going (the session ended before a test collected them)."""
    if _QUEUE in session.config.stash:
        session.config.stash[_QUEUE][1].stop()


def _session_run(name: str, request: pytest.FixtureRequest, tmp_path_factory):
    """The run ``name`` (started at collection, or now if it was not), once it has ended."""
    start, finish = SESSION_RUNS[name]
    roots, queue = request.config.stash.get(_QUEUE, ({}, None))
    if queue is not None and name in queue:
        return finish(roots[name], queue.run(name))
    root = tmp_path_factory.mktemp(name)
    return finish(root, start(root))


@pytest.fixture(scope="session")
def the_ville_recording(request, tmp_path_factory, smallville_dir):
    """One real run of the original 3-agent base with the bundled model, recorded once per
    session: (config, storage, cassette, seconds). See tests/the_ville_run.py."""
    return _session_run("the_ville_recording", request, tmp_path_factory)


@pytest.fixture(scope="session")
def readme_first_run(request, tmp_path_factory):
    """The README's first command on the bundled model, run once per session (a
    tests.willow_run.FirstRun): the first-run test checks its morning, the capture test reads
    its trace."""
    return _session_run("readme_first_run", request, tmp_path_factory)


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    """(assets, storage) folders with a freshly generated default world (the world and worldgen tests)."""
    from reverie.worldgen.generate import generate

    root = tmp_path_factory.mktemp("generated")
    generate(root / "assets", root / "storage")
    return root / "assets", root / "storage"
