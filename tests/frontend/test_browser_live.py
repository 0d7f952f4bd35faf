"""The live page in a real browser, driving the file protocol (docs/SERVER.md §3).

`test_live_page_drives_the_file_protocol` plays the simulation server's side of the
protocol with a small thread that only moves files (no model, no cognition): it waits
for environment/<s>.json and answers movement/<s>.json. It checks the page's half of
the protocol: polling, animating, posting positions atomically, advancing steps.
"""

from __future__ import annotations

import json
import threading
import time

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from reverie.jsonio import write_json_atomic
from tests.frontend import synthetic
from tests.the_ville_run import replayed_server

pytestmark = pytest.mark.slow


def file_side(sim_dir, first: int, count: int, stop: threading.Event) -> None:
    """For steps first..first+count-1: wait for environment/<s>.json, answer one tile to the right."""
    for step in range(first, first + count):
        env_file = sim_dir / "environment" / f"{step}.json"
        while not env_file.exists():
            if stop.wait(0.1):
                return
        env = json.loads(env_file.read_text())
        write_json_atomic(
            sim_dir / "movement" / f"{step}.json",
            {
                "persona": {
                    name: {
                        "movement": [pos["x"] + 1, pos["y"]],
                        "pronunciatio": "\U0001f3c3",
                        "description": f"jogging @ the Ville:Johnson Park:park:step {step}",
                        "chat": None,
                    }
                    for name, pos in env.items()
                },
                "meta": {"curr_time": f"February 13, 2023, 00:{step // 6:02d}:{step % 6 * 10:02d}"},
            },
        )


def test_live_page_drives_the_file_protocol(world, live_server, browser, artifacts):
    sim_dir = world / "storage" / synthetic.SIM
    synthetic.announce(world, 0)
    first = synthetic.STEPS  # the page replays movement/39, then posts environment/40
    stop = threading.Event()
    side = threading.Thread(target=file_side, args=(sim_dir, first, 3, stop), daemon=True)
    side.start()
    try:
        browser.get(f"{live_server}/simulator_home")
        WebDriverWait(browser, 90).until(
            lambda d: d.execute_script("return window.reverie && window.reverie.step") >= first + 3
        )
        WebDriverWait(browser, 30).until(lambda d: (sim_dir / "environment" / f"{first + 3}.json").exists())
        browser.save_screenshot(str(artifacts / "live_page.png"))
    finally:
        stop.set()
        side.join(5)
    start = json.loads((sim_dir / "environment" / f"{first}.json").read_text())
    end = json.loads((sim_dir / "environment" / f"{first + 3}.json").read_text())
    for name in synthetic.START:
        assert end[name]["x"] == start[name]["x"] + 3 and end[name]["y"] == start[name]["y"]
    status = browser.find_element("id", "current_action__Klaus_Mueller").text
    assert status == "jogging"
    assert browser.find_element("id", "game-time-content").text.startswith("February 13, 2023")
    assert not [p for p in (sim_dir / "environment").iterdir() if p.name.startswith(".")]


@pytest.mark.timeout(3600)
def test_live_page_with_the_simulation_server(
    world, smallville_dir, the_ville_recording, live_server, browser, artifacts
):
    """Backend and frontend in separate processes, as users run them: `python -m reverie` forks the
    original 3-agent base world and runs 3 steps; the steps only advance because the page posts
    the agents' positions. The model's replies are the recorded ones of the session's real run of
    the same base (`the_ville_recording`): this test is about the two servers and the page, and
    the same decisions must give the same movement as that run."""
    import os
    import subprocess
    import sys

    from reverie import PROJECT_ROOT

    base = synthetic.BASE
    _config, recorded_storage, cassette, _seconds = the_ville_recording
    synthetic.copy_writable(smallville_dir / "storage" / base, world / "storage" / base)
    env = dict(os.environ, REVERIE_CONFIG=str(world / "config.toml"), PYTHONUNBUFFERED="1")
    log_path = world / "backend.log"
    with log_path.open("w") as log:
        backend = subprocess.Popen(
            [sys.executable, "-m", "reverie", *replayed_server(base, "live_e2e", cassette, "run 3", "fin")],
            cwd=PROJECT_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            announced = world / "temp_storage" / "curr_sim_code.json"
            deadline = time.time() + 300
            while not announced.exists():
                assert backend.poll() is None, "the simulation server stopped:\n" + log_path.read_text()
                assert time.time() < deadline, "the simulation server did not announce its simulation"
                time.sleep(0.5)
            browser.get(f"{live_server}/simulator_home")
            WebDriverWait(browser, 3300, poll_frequency=2).until(
                lambda d: (
                    backend.poll() is not None or d.execute_script("return window.reverie && window.reverie.step") >= 3
                )
            )
            browser.save_screenshot(str(artifacts / "live_with_backend.png"))
            assert browser.execute_script("return window.reverie.step") >= 3, log_path.read_text()
            backend.wait(timeout=600)
        finally:
            if backend.poll() is None:
                backend.terminate()
                backend.wait(timeout=30)
    sim = world / "storage" / "live_e2e"
    for step in range(3):
        assert (sim / "movement" / f"{step}.json").is_file(), log_path.read_text()
        assert (sim / "environment" / f"{step + 1}.json").is_file()
        recorded = json.loads((recorded_storage / "rec" / "movement" / f"{step}.json").read_text())
        assert json.loads((sim / "movement" / f"{step}.json").read_text())["persona"] == recorded["persona"]
    assert backend.returncode == 0, log_path.read_text()
