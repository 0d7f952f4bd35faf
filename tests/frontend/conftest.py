"""Fixtures for the frontend: a synthetic run in a temp folder, Django's test client, a real server."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from tests.frontend import djangosetup, synthetic
from tests.loopback_server import loopback_server

FRONTEND = djangosetup.FRONTEND
ARTIFACTS = PROJECT_ROOT / "tests" / "artifacts"


@pytest.fixture
def world(tmp_path, smallville_dir, monkeypatch) -> Path:
    """A fresh synthetic run (storage, compressed_storage, temp_storage, config.toml) under tmp_path."""
    config = synthetic.build(tmp_path, smallville_dir)
    monkeypatch.setenv("REVERIE_CONFIG", str(config))
    return tmp_path


@pytest.fixture
def default_world(tmp_path, smallville_dir, monkeypatch) -> Path:
    """The same synthetic run on our default world (willow_creek) and its base personas."""
    config = synthetic.build(tmp_path, smallville_dir, default_world=True)
    monkeypatch.setenv("REVERIE_CONFIG", str(config))
    return tmp_path


@pytest.fixture
def client(world):
    djangosetup.setup()
    from django.test import Client

    return Client()


@pytest.fixture
def settings_for(world):
    from reverie.config import load_settings

    return load_settings(world / "config.toml")


@pytest.fixture
def live_server(tmp_path):
    """`manage.py runserver --noreload` on loopback, as a user starts it; yields its base URL.

    It reads the config of the run fixture listed before it (`world` or `default_world`).
    """
    assert "REVERIE_CONFIG" in os.environ, "request `world` or `default_world` before `live_server`"
    command = lambda port: [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
    with loopback_server(
        command,
        lambda port: f"http://127.0.0.1:{port}/",
        tmp_path / "server.log",
        what="the frontend server",
        wait_s=60,
        cwd=FRONTEND,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    ) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture
def browser(tmp_path):
    """Headless Chromium from the Debian packages, driven by Selenium (no driver download)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,1200",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
    ):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
