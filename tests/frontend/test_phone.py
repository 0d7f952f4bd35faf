"""The run pages on a phone: real headless Chromium at 390 px with touch emulation, against
`manage.py runserver` on our default world.

Nothing may stick out past the screen's right edge (tables scroll inside their box, charts
shrink), and the demo and replay maps move under a one-finger drag and zoom under a
two-finger pinch, sent as real touch events through the DevTools protocol. Screenshots go
to tests/artifacts/phone_*.png.
"""

from __future__ import annotations

import base64
import json

import pytest

from reverie.config import load_settings
from reverie.console.compress import compress
from tests.frontend import synthetic
from tests.frontend.test_browser import wait_ready
from tests.frontend.test_evaluation_page import NAMES, checkpoint

pytestmark = pytest.mark.slow

WIDTH, HEIGHT = 390, 844


def as_phone(driver) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 2, "mobile": True}
    )
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})


def full_page(driver, path) -> None:
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
    path.write_bytes(base64.b64decode(shot["data"]))


def sticking_out(driver) -> list[str]:
    """Elements whose box reaches past the right edge of the screen, and the page's own width."""
    return driver.execute_script("""
        const out = [];
        const w = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth > w) out.push('page ' + document.documentElement.scrollWidth);
        for (const el of document.querySelectorAll('main table, main svg, main figure, main pre, canvas, h1, p')) {
          const r = el.getBoundingClientRect();
          if (r.width && r.right > w + 1) out.push(el.tagName + ' ' + Math.round(r.right));
        }
        return out;""")


def touch(driver, kind: str, points: list[tuple[float, float]]) -> None:
    driver.execute_cdp_cmd(
        "Input.dispatchTouchEvent",
        {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]},
    )


def camera(driver) -> dict:
    return driver.execute_script(
        "const c = window.reverie.world.scene.cameras.main; return {x: c.scrollX, y: c.scrollY, zoom: c.zoom};"
    )


def drag_and_pinch(driver) -> tuple[dict, dict, dict]:
    """The camera before, after a one-finger drag up-left, and after a two-finger pinch outwards."""
    box = driver.execute_script(
        "const r = document.querySelector('#game-container canvas').getBoundingClientRect();"
        "return {x: r.left, y: r.top, w: r.width, h: r.height};"
    )
    cx, cy = box["x"] + box["w"] / 2, box["y"] + box["h"] / 2
    driver.execute_script("window.reverie.world.focus = null;")
    start = camera(driver)
    touch(driver, "touchStart", [(cx, cy)])
    for i in range(1, 9):
        touch(driver, "touchMove", [(cx - 10 * i, cy - 8 * i)])
    touch(driver, "touchEnd", [])
    dragged = camera(driver)
    touch(driver, "touchStart", [(cx - 20, cy), (cx + 20, cy)])
    for i in range(1, 9):
        touch(driver, "touchMove", [(cx - 20 - 8 * i, cy), (cx + 20 + 8 * i, cy)])
    touch(driver, "touchEnd", [])
    return start, dragged, camera(driver)


def test_runs_pages_fit_a_phone(default_world, live_server, browser, artifacts):
    as_phone(browser)
    browser.get(f"{live_server}/runs/")
    assert browser.execute_script("return document.documentElement.clientWidth") == WIDTH
    full_page(browser, artifacts / "phone_runs.png")
    assert sticking_out(browser) == []
    evaluation = {
        "sim_code": synthetic.SIM,
        "checkpoints": [
            checkpoint(1, [[NAMES[0], NAMES[1]]], [NAMES[0]]),
            checkpoint(6, [[NAMES[0], NAMES[1]], [NAMES[1], NAMES[2]]], [NAMES[0], NAMES[2]]),
        ],
    }
    (default_world / "storage" / synthetic.SIM / "evaluation.json").write_text(json.dumps(evaluation))
    browser.get(f"{live_server}/runs/{synthetic.SIM}/")
    full_page(browser, artifacts / "phone_run_detail.png")
    assert browser.execute_script("return document.querySelectorAll('svg.chart').length") > 8
    assert browser.execute_script("return document.querySelectorAll('svg.graph, table.evaluation').length") == 2
    assert sticking_out(browser) == []
    # The ledger table is wider than the phone: it scrolls inside its own box.
    assert browser.execute_script(
        "const t = document.querySelector('table.ledger');"
        "return t.scrollWidth > t.clientWidth && getComputedStyle(t).overflowX == 'auto';"
    )


@pytest.mark.parametrize("page", ["demo", "replay"])
def test_the_map_pans_by_touch_and_zooms_by_pinch(page, default_world, live_server, browser, artifacts):
    compress(load_settings(default_world / "config.toml"), synthetic.SIM)
    as_phone(browser)
    url = f"/demo/{synthetic.SIM}/0/1/" if page == "demo" else f"/replay/{synthetic.SIM}/0/"
    browser.get(live_server + url)
    wait_ready(browser)
    if page == "demo":
        browser.execute_script("document.getElementById('pause_button').click();")
    start, dragged, pinched = drag_and_pinch(browser)
    full_page(browser, artifacts / f"phone_{page}.png")
    assert sticking_out(browser) == []
    assert dragged["x"] > start["x"] + 30 and dragged["y"] > start["y"] + 20, (start, dragged)
    assert pinched["zoom"] > dragged["zoom"] * 1.3, (dragged, pinched)
