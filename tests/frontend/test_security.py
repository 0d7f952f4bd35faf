"""Names from URLs never reach the file system unchecked; settings are safe by default."""

from __future__ import annotations

import os
import subprocess

import pytest

from reverie import PROJECT_ROOT
from tests.fresh_python import fresh_python
from tests.frontend import synthetic

SIM = synthetic.SIM


@pytest.mark.parametrize(
    "url",
    [
        "/replay/..%2F..%2Fetc/0/",
        "/replay/%2e%2e/0/",
        "/replay/../0/",
        "/replay/.hidden/0/",
        "/demo/..%2Fstorage/0/3/",
        "/demo/%2Fetc%2Fpasswd/0/3/",
        f"/replay_persona_state/{SIM}/0/..%2F..%2F..%2Fconfig/",
        f"/replay_persona_state/..%2F{SIM}/0/Isabella_Rodriguez/",
        "/runs/..%2F..%2F/",
        "/runs/%00/",
        "/assets/../../config.toml",
        "/assets/..%2F..%2Fconfig.toml",
        "/assets/the_ville/visuals/..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd",
        "/assets/%2Fetc%2Fpasswd",
        "/assets/.hidden.png",
        "/assets/the_ville/matrix/maze/collision_maze.csv",
        "/assets/the_ville/visuals/nothing.png",
        "/static/../manage.py",
        "/static/%2e%2e/%2e%2e/manage.py",
    ],
)
def test_traversal_and_odd_names_are_404(client, url):
    r = client.get(url)
    assert r.status_code in (400, 404), url
    assert b"Traceback" not in b"".join(r) if hasattr(r, "streaming_content") else b"Traceback" not in r.content


def test_assets_are_served_by_name(client):
    r = client.get("/assets/the_ville/visuals/map_assets/v1/Room_Builder_32x32.png")
    assert r.status_code == 200 and r["Content-Type"] == "image/png"
    assert b"".join(r.streaming_content)[:8] == b"\x89PNG\r\n\x1a\n"
    r = client.get("/assets/characters/atlas.json")
    assert r.status_code == 200 and r["Content-Type"] == "application/json"


def test_phaser_is_served_from_npm(client):
    r = client.get("/static/vendor/phaser/phaser.min.js")
    assert r.status_code == 200
    head = b"".join(r.streaming_content)[:2000]
    assert b"Phaser" in head or b"phaser" in head


def test_safe_defaults(client):
    from django.conf import settings

    assert settings.DEBUG is False  # the default config has debug = false
    assert set(settings.ALLOWED_HOSTS) - {"testserver"} <= {"localhost", "127.0.0.1", "[::1]"}
    assert len(settings.SECRET_KEY) >= 40
    key_file = PROJECT_ROOT / "environment" / "frontend_server" / "secret_key.txt"
    assert key_file.read_text().strip() == settings.SECRET_KEY
    ignored = subprocess.run(["git", "check-ignore", "-q", str(key_file)], cwd=PROJECT_ROOT)
    assert ignored.returncode == 0, "secret_key.txt must be git-ignored"
    assert "django.contrib.admin" not in settings.INSTALLED_APPS and settings.DATABASES["default"]["NAME"] == ":memory:"


def test_foreign_host_is_refused(client):
    assert client.get("/", HTTP_HOST="evil.example.com").status_code == 400


def test_unknown_url_is_a_friendly_404(client):
    r = client.get("/no/such/page/")
    assert r.status_code == 404 and b"There is no page at this address" in r.content


@pytest.mark.parametrize("text, expected", [("debug = true\n", False), ("[frontend]\ndebug = true\n", True)])
def test_the_simulation_debug_log_does_not_turn_on_djangos_debug(tmp_path, text, expected):
    config = tmp_path / "config.toml"
    config.write_text(text, encoding="utf-8")
    code = (
        "import os, sys; sys.path.insert(0, 'environment/frontend_server'); "
        "os.environ['DJANGO_SETTINGS_MODULE'] = 'frontend_server.settings'; "
        "from django.conf import settings; print(settings.DEBUG)"
    )
    run = fresh_python(code, env={**os.environ, "REVERIE_CONFIG": str(config)})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(expected)
