"""Real headless Chromium at 390 px against `manage.py runserver`: a fallback on the run page is two
clicks from its messages and replies. The trace is written by the real chain around a scripted
fake model (see tests/frontend/traced_calls.py). Screenshots go to tests/artifacts/."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from tests.frontend import synthetic
from tests.frontend.traced_calls import CALLS, NEVER, write_trace

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": False}


def page_width(browser) -> int:
    return browser.execute_script("return document.documentElement.scrollWidth")


def test_a_fallback_is_two_clicks_from_its_messages_at_390_px(world, live_server, browser, artifacts):
    write_trace(world)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    browser.get(f"{live_server}/runs/{synthetic.SIM}/")
    assert browser.execute_script("return window.innerWidth") == 390

    browser.find_element(By.CSS_SELECTOR, "a.fallbacks[href*='prompt=wake_up_hour']").click()  # click 1
    rows = browser.find_elements(By.CSS_SELECTOR, "#call-list tbody tr")
    assert [r.find_element(By.CSS_SELECTOR, "td:nth-child(5)").text for r in rows] == ["fell back"]
    assert page_width(browser) <= 390, "the calls list is wider than the phone"
    assert browser.execute_script(
        "const s = document.querySelector('.scroll'); return s.scrollWidth <= s.clientWidth"
    ), "the calls list scrolls sideways"
    browser.save_screenshot(str(artifacts / "calls_list_390.png"))

    rows[0].find_element(By.CSS_SELECTOR, "td:nth-child(4) a").click()  # click 2
    messages = browser.find_element(By.ID, "messages")
    assert messages.is_displayed() and "Isabella Rodriguez goes to bed around 11pm" in messages.text
    replies = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#attempts pre.reply")]
    assert replies == CALLS[2][2] and all(r.startswith(NEVER) for r in replies)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#attempts pre.correction")) == len(replies)
    assert "fell back" in browser.find_element(By.ID, "call-outcome").text
    assert page_width(browser) <= 390, "the call's page is wider than the phone"
    browser.save_screenshot(str(artifacts / "call_page_390.png"))
