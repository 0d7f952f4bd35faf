"""Real headless Chromium against `manage.py runserver`: the demo animates, the persona page lists the schedule.

Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from reverie.config import load_settings
from reverie.console.compress import compress
from tests.frontend import synthetic

pytestmark = pytest.mark.slow


def wait_ready(driver, timeout=60):
    WebDriverWait(driver, timeout).until(
        lambda d: d.execute_script("return !!(window.reverie && window.reverie.world.ready)")
    )


def canvas_colors(driver, name: str, artifacts) -> int:
    """Distinct colours in a screenshot of the game canvas (a blank canvas has one)."""
    png = driver.find_element(By.CSS_SELECTOR, "#game-container canvas").screenshot_as_png
    (artifacts / name).write_bytes(png)
    img = Image.open(io.BytesIO(png)).convert("RGB").resize((300, 160))
    return len(set(img.getdata()))


def moved_on(driver, before: dict, step_past: int = 0, timeout: float = 30) -> dict:
    """The sprites' positions once one of them has left its place in ``before`` and the replay is
    past step ``step_past`` (or, after ``timeout`` seconds, as they are then: the asserts decide)."""

    def positions_if_moved(d):
        now = d.execute_script("return window.reverie.positions()")
        moved = any((before[k]["x"], before[k]["y"]) != (now[k]["x"], now[k]["y"]) for k in before)
        return now if moved and d.execute_script("return window.reverie.step") > step_past else None

    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.2).until(positions_if_moved)
    except TimeoutException:
        return driver.execute_script("return window.reverie.positions()")


def test_demo_page_draws_the_map_and_sprites_move(world, live_server, browser, artifacts):
    compress(load_settings(world / "config.toml"), synthetic.SIM)
    browser.get(f"{live_server}/demo/{synthetic.SIM}/0/3/")
    wait_ready(browser)
    before = browser.execute_script("return window.reverie.positions()")
    assert canvas_colors(browser, "demo_start.png", artifacts) > 50, "the canvas is blank"
    after = moved_on(browser, before, step_past=1)
    browser.save_screenshot(str(artifacts / "demo_page.png"))
    assert canvas_colors(browser, "demo_later.png", artifacts) > 50
    moved = [k for k in before if (before[k]["x"], before[k]["y"]) != (after[k]["x"], after[k]["y"])]
    assert moved, f"no sprite moved: {before} -> {after}"
    assert browser.execute_script("return window.reverie.step") > 1
    # The panel shows the carried state, and the label the emoji.
    assert browser.find_element(By.ID, "current_action__Maria_Lopez").text in ("sleeping", "studying")
    assert after["Isabella_Rodriguez"]["label"].startswith("IR: ")
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
    assert not errors, errors


def test_demo_of_the_original_sample(world, smallville_dir, live_server, browser, artifacts):

    sample = "July1_the_ville_isabella_maria_klaus-step-3-20"
    synthetic.copy_writable(smallville_dir / "storage" / sample, world / "storage" / sample)
    compress(load_settings(world / "config.toml"), sample)
    browser.get(f"{live_server}/demo/{sample}/0/6/")
    wait_ready(browser)
    WebDriverWait(browser, 20).until(lambda d: "End of the run" in d.find_element(By.ID, "status").text)
    assert canvas_colors(browser, "demo_original_sample.png", artifacts) > 50
    assert browser.find_element(By.ID, "current_action__Isabella_Rodriguez").text == "sleeping"


def test_persona_state_page_lists_the_schedule(world, live_server, browser, artifacts):
    browser.get(f"{live_server}/replay_persona_state/{synthetic.SIM}/0/Isabella_Rodriguez/")
    rows = browser.find_elements(By.CSS_SELECTOR, "#daily-schedule tbody tr")
    browser.save_screenshot(str(artifacts / "persona_state.png"))
    assert [r.find_elements(By.TAG_NAME, "td")[1].text for r in rows] == [a for a, _ in synthetic.SCHEDULE]
    assert rows[2].find_elements(By.TAG_NAME, "td")[0].text == "07:00"


def test_demo_on_the_default_world(default_world, live_server, browser, artifacts):
    compress(load_settings(default_world / "config.toml"), synthetic.SIM)
    browser.get(f"{live_server}/demo/{synthetic.SIM}/0/4/")
    wait_ready(browser)
    before = browser.execute_script("return window.reverie.positions()")
    after = moved_on(browser, before)
    browser.save_screenshot(str(artifacts / "demo_default_world.png"))
    assert canvas_colors(browser, "demo_default_world_canvas.png", artifacts) > 20
    assert any((before[k]["x"], before[k]["y"]) != (after[k]["x"], after[k]["y"]) for k in before)
