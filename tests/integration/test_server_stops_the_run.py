"""A model server that cannot serve a run stops it: one line naming ``[backend]``, a non-zero exit,
nothing kept that the server failed (no step, no fork made for a run the server never answered).

Command-line runs and the interactive server on the original 3-agent Smallville and on the
default town, against fake servers on loopback (tests/llm/broken_servers.py,
tests/fuzz/fake_server.py): fakes for failure paths, not models. Each run's seconds are printed
(the figures of docs); the assertions are on the decision, the time bound only catches a hang.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

from tests.fuzz.fake_server import FakeServer
from tests.llm import broken_servers
from tests.willow_run import BASE as WILLOW
from tests.willow_run import willow_config

from .conftest import BASE, reverie_cmd


def with_backend(config: Path, base_url: str, **keys) -> Path:
    lines = [
        'kind = "openai"',
        f'base_url = "{base_url}"',
        "retry_pause_s = 0.05",
        *(f"{key} = {value}" for key, value in keys.items()),
    ]
    with config.open("a", encoding="utf-8") as fh:
        fh.write("[backend]\n" + "\n".join(lines) + "\n")
    return config


def willow_town(root: Path) -> Path:
    """The default town's base linked into ``root``, and a config that forks it."""
    return willow_config(root, f'[simulation]\ndefault_fork = "{WILLOW}"\nschedule_passes = 1\n')


def stopped_with_one_line(run) -> str:
    errors = [line for line in run.stderr.splitlines() if line.startswith("error:")]
    assert run.returncode == 2 and len(errors) == 1, run.stderr[-3000:]
    assert errors[0].startswith("error: [backend]"), errors
    return errors[0]


@pytest.mark.slow  # two command-line runs, each loading the embedding model
@pytest.mark.timeout(600)
@pytest.mark.parametrize("server", ["silent", "dripping"])
def test_a_server_that_does_not_answer_stops_the_run_and_leaves_no_fork(village, server):
    """Silent: accepts connections, never answers (the start's probe finds it). Dripping: answers the
    probe's GETs, then sends each chat reply a byte a second (the first call finds it). Before: the
    silent one held the run for minutes, and either way the fork was left with a step of fail-safes."""
    make = broken_servers.silent if server == "silent" else broken_servers.dripping
    with make() as fake:
        config = with_backend(village, fake.base_url, timeout_s=2)  # 4 tries of a dripping reply: 8 s, not 20
        started = time.monotonic()
        run = reverie_cmd(config, "run", "--sim", "unanswered", "--steps", "3", "--no-progress", timeout=300)
        seconds = time.monotonic() - started
    line = stopped_with_one_line(run)
    assert "2 s" in line and "cannot be reached" not in line, line
    assert not (village.parent / "storage" / "unanswered").exists(), "the fork made for the run is removed"
    assert seconds < 240, f"{seconds:.0f} s"
    print(
        f"\n{server} server, timeout_s = 2: stopped after {seconds:.1f} s (process start and embedder included): {line}"
    )


@pytest.mark.slow  # one command-line run
@pytest.mark.timeout(600)
def test_a_refused_api_key_stops_the_run_of_the_default_town_with_one_line(tmp_path):
    """Before: every ask got its fail-safe after the 401, and the run ended with exit code 0."""
    body = {
        "error": {"message": "Incorrect API key provided", "type": "invalid_request_error", "code": "invalid_api_key"}
    }
    with broken_servers.fixed(401, body, reason="Unauthorized") as fake:
        config = with_backend(willow_town(tmp_path), fake.base_url, api_key='"wrong"')
        started = time.monotonic()
        run = reverie_cmd(config, "run", "--sim", "keyless", "--steps", "2", "--no-progress", timeout=300)
        seconds = time.monotonic() - started
    line = stopped_with_one_line(run)
    assert "api_key" in line and "401" in line, line
    assert not (tmp_path / "storage" / "keyless").exists()
    print(f"\n401: stopped after {seconds:.1f} s (process start and embedder included): {line}")


@pytest.mark.slow  # loads the embedding model
@pytest.mark.timeout(600)
def test_the_interactive_server_goes_back_to_the_checkpoint_when_the_server_drops_mid_step(settings):
    """The probe is answered, then every chat request is dropped. Before: the step was finished on
    fail-safes and saved; `fin` then kept it."""
    from reverie.console.interactive import Server
    from reverie.simulation.simulation import Simulation
    from reverie.simulation.storage import SimStorage

    fake = FakeServer(failures={"drop": 1.0}, script=["reply"]).up()  # the start's tiny request is answered
    try:
        settings.backend.kind, settings.backend.base_url = "openai", fake.base_url
        settings.backend.retries, settings.backend.retry_pause_s = 1, 0.01
        sim = Simulation.fork(settings, BASE, "dropped")
        out = io.StringIO()
        srv = Server(sim, settings, headless=True, out=out)
        assert srv.handle("run 2") is None
        said = out.getvalue().splitlines()
        assert (
            [line for line in said if line.startswith("error:")]
            == [line for line in said if line.startswith("error: [backend]")]
            != []
        ), said
        assert srv.sim is not sim and srv.sim.step_no == 0
        assert fake.counts["drop"] >= 2
        assert srv.handle("fin") == 0
    finally:
        fake.down()
    assert SimStorage(settings.paths.storage, "dropped").read_meta()["step"] == 0, "nothing the server failed was saved"
