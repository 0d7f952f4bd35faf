"""The pages against odd folders and methods, and a base they must never write.

Django's test client on a storage folder holding a real copy of the default base, a run
forked from it, and folders no simulation name allows (a space, markup, bytes that are not
UTF-8): /runs/ lists every one as it is and links only those it can open.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

from tests.frontend import djangosetup
from tests.fuzz.test_fuzz_guard_rails import BASE, snapshot, storage_with_base

ODD = ["has space", "<b>bold&'x'", "ünïcödé", "-leading-dash"]
NOT_UTF8 = b"latin1-\xe9t\xe9"


@pytest.fixture
def pages(tmp_path, monkeypatch):
    config, storage = storage_with_base(tmp_path)
    from reverie.simulation.storage import fork

    fork(storage, BASE, "ok_run")
    for name in ODD:
        shutil.copytree(storage / "ok_run", storage / name)
    os.mkdir(os.fsencode(storage) + b"/" + NOT_UTF8)
    (tmp_path / "temp").mkdir()
    (tmp_path / "compressed").mkdir()
    monkeypatch.setenv("REVERIE_CONFIG", str(config))
    djangosetup.setup()
    from django.test import Client

    return Client(), storage, tmp_path


def test_runs_lists_every_folder_and_links_only_openable_ones(pages):
    client, storage, _ = pages
    r = client.get("/runs/")
    assert r.status_code == 200
    html = r.content.decode("utf-8")
    assert 'href="/runs/ok_run/"' in html and f'href="/runs/{BASE}/"' in html
    assert "has space" in html and "&lt;b&gt;bold&amp;&#x27;x&#x27;" in html and "<b>bold" not in html
    assert "ünïcödé" in html and "-leading-dash" in html and "latin1-\\xe9t\\xe9" in html
    for name in ODD:
        assert f'href="/runs/{name}' not in html and f"/replay/{name}" not in html
    assert client.get("/runs/has%20space/").status_code == 404


def test_the_pages_never_write_a_base(pages):
    client, storage, root = pages
    before = snapshot(storage / BASE)
    for url in (
        "/runs/",
        f"/runs/{BASE}/",
        f"/replay/{BASE}/0/",
        f"/replay_persona_state/{BASE}/0/Nora_Bennett/",
        f"/demo/{BASE}/0/3/",
    ):
        assert client.get(url).status_code in (200, 404), url
    assert (
        client.post(
            "/update_environment/", json.dumps({"step": 0, "sim_code": BASE}), content_type="application/json"
        ).status_code
        == 200
    )
    # A server that announced the base (by hand here) gets no positions written into it.
    (root / "temp" / "curr_sim_code.json").write_text(json.dumps({"sim_code": BASE}), encoding="utf-8")
    (root / "temp" / "curr_step.json").write_text(json.dumps({"step": 1}), encoding="utf-8")
    env = json.loads((storage / BASE / "environment" / "0.json").read_text(encoding="utf-8"))
    body = {
        "step": 1,
        "sim_code": BASE,
        "environment": {n: {"maze": "willow_creek", "x": v["x"], "y": v["y"]} for n, v in env.items()},
    }
    r = client.post("/process_environment/", json.dumps(body), content_type="application/json")
    assert r.status_code == 403 and "base" in r.json()["error"]
    assert snapshot(storage / BASE) == before


@pytest.mark.parametrize("method", ["TRACE", "PUT", "DELETE", "PATCH"])
def test_methods_the_pages_do_not_use_get_405(pages, method):
    client, _, _ = pages
    for url in ("/runs/", "/update_environment/", "/"):
        r = client.generic(method, url)
        assert r.status_code == 405, (method, url)
        assert set(r["Allow"].replace(" ", "").split(",")) == {"GET", "HEAD", "POST"}
