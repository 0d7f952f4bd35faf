"""The file protocol endpoints (process_environment, update_environment, path_tester_update)."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.frontend import synthetic

SIM = synthetic.SIM
NAMES = list(synthetic.START)


def env_body(step: int, sim=SIM, **override) -> dict:
    env = {n: {"maze": "the_ville", "x": 10, "y": 20} for n in NAMES}
    env.update(override)
    return {"step": step, "sim_code": sim, "environment": env}


def post(client, url, body, content_type="application/json"):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, data=data, content_type=content_type)


@pytest.fixture
def running(world):
    synthetic.announce(world, 0)
    return world


def test_process_environment_writes_the_next_step_atomically(client, running):
    r = post(client, "/process_environment/", env_body(synthetic.STEPS))
    assert r.status_code == 200 and r.content == b"received"
    folder = running / "storage" / SIM / "environment"
    written = json.loads((folder / f"{synthetic.STEPS}.json").read_text())
    assert written == {n: {"maze": "the_ville", "x": 10, "y": 20} for n in NAMES}
    assert not [p for p in folder.iterdir() if p.name.startswith(".")], "no temp file left behind"


def test_process_environment_without_backend_is_503(client, world):
    assert post(client, "/process_environment/", env_body(synthetic.STEPS)).status_code == 503


def test_process_environment_only_for_the_running_sim(client, running):
    shutil.copytree(running / "storage" / SIM, running / "storage" / "other_sim")
    r = post(client, "/process_environment/", env_body(synthetic.STEPS, sim="other_sim"))
    assert r.status_code == 403
    assert not (running / "storage" / "other_sim" / "environment" / f"{synthetic.STEPS}.json").exists()


def test_process_environment_never_rewrites_a_simulated_step(client, running):
    before = (running / "storage" / SIM / "environment" / "3.json").read_text()
    assert post(client, "/process_environment/", env_body(3)).status_code == 409
    assert (running / "storage" / SIM / "environment" / "3.json").read_text() == before


@pytest.mark.parametrize("step", [synthetic.STEPS + 1, 999_999_998])
def test_process_environment_refuses_a_step_that_is_not_the_next_one(client, running, step):
    """The simulation waits for step STEPS (after its last movement file): positions for a later
    step would be written where nothing reads them, and the page would wait for it forever."""
    r = post(client, "/process_environment/", env_body(step))
    assert r.status_code == 409 and f"step {synthetic.STEPS}," in r.json()["error"]
    assert not (running / "storage" / SIM / "environment" / f"{step}.json").exists()


def test_the_next_step_follows_the_checkpoint_when_nothing_moved_since(client, running):
    """A run whose clock was moved forward (run --start) has no movement file at its step yet."""
    sim = running / "storage" / SIM
    meta = json.loads((sim / "reverie" / "meta.json").read_text())
    (sim / "reverie" / "meta.json").write_text(json.dumps({**meta, "step": synthetic.STEPS + 5}))
    assert post(client, "/process_environment/", env_body(synthetic.STEPS)).status_code == 409
    assert post(client, "/process_environment/", env_body(synthetic.STEPS + 5)).status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        "[1, 2]",
        "null",
        b"\xff\xfe",
        {"step": 40, "sim_code": SIM},
        {"step": 40, "sim_code": SIM, "environment": {}, "extra": 1},
        {"step": "40", "sim_code": SIM, "environment": env_body(40)["environment"]},
        {"step": True, "sim_code": SIM, "environment": env_body(40)["environment"]},
        {"step": -1, "sim_code": SIM, "environment": env_body(40)["environment"]},
        {"step": 40.5, "sim_code": SIM, "environment": env_body(40)["environment"]},
        {"step": 40, "sim_code": SIM, "environment": {NAMES[0]: {"maze": "the_ville", "x": 1, "y": 1}}},
        env_body(40, **{NAMES[0]: {"maze": "../../etc", "x": 1, "y": 1}}),
        env_body(40, **{NAMES[0]: {"maze": "the_ville", "x": 140, "y": 1}}),
        env_body(40, **{NAMES[0]: {"maze": "the_ville", "x": 1, "y": -1}}),
        env_body(40, **{NAMES[0]: {"maze": "the_ville", "x": 1}}),
        env_body(40, **{"Someone Else": {"maze": "the_ville", "x": 1, "y": 1}}),
    ],
)
def test_process_environment_rejects_malformed_bodies(client, running, body):
    r = post(client, "/process_environment/", body)
    assert r.status_code == 400, r.content
    assert "error" in r.json()
    assert not (running / "storage" / SIM / "environment" / "40.json").exists()


@pytest.mark.parametrize(
    "body",
    ["[" * 100_000 + "]" * 100_000, '{"a":' * 5_000 + "1" + "}" * 5_000, '{"step": "' + "x" * 10_000_000 + '"}'],
    ids=["deep-list", "deep-object", "10MB"],
)
@pytest.mark.parametrize("url", ["/process_environment/", "/update_environment/", "/path_tester_update/"])
def test_hostile_bodies_are_a_json_400(client, running, url, body):
    r = post(client, url, body)
    assert r.status_code == 400 and r["Content-Type"] == "application/json", r.content[:200]
    assert r.json()["error"]
    assert not (running / "storage" / SIM / "environment" / "40.json").exists()


def test_process_environment_needs_json_content_type(client, running):
    r = post(client, "/process_environment/", json.dumps(env_body(40)), content_type="text/plain")
    assert r.status_code == 400


def test_post_endpoints_refuse_get(client):
    for url in ("/process_environment/", "/update_environment/", "/path_tester_update/"):
        assert client.get(url).status_code == 405


def test_post_endpoints_check_the_csrf_token(world):
    from django.test import Client

    from tests.frontend import djangosetup

    djangosetup.setup()
    strict = Client(enforce_csrf_checks=True)
    r = post(strict, "/update_environment/", {"step": 0, "sim_code": SIM})
    assert r.status_code == 403 and "CSRF" in r.json()["error"]


def test_update_environment_answers_the_movement(client):
    r = post(client, "/update_environment/", {"step": 2, "sim_code": SIM})
    assert r.status_code == 200
    data = r.json()
    assert data["<step>"] == 2
    assert data["persona"] == synthetic.movement(2)["persona"]
    assert data["meta"]["curr_time"] == "February 13, 2023, 00:00:30"


def test_update_environment_before_the_step_exists(client):
    r = post(client, "/update_environment/", {"step": 500, "sim_code": SIM})
    assert r.status_code == 200 and r.json() == {"<step>": -1}


@pytest.mark.parametrize("sim", ["nope", "../" + SIM, "/etc", f"{SIM}/../{SIM}", ".", ""])
def test_update_environment_unknown_sim(client, sim):
    r = post(client, "/update_environment/", {"step": 0, "sim_code": sim})
    assert r.status_code in (400, 404)


@pytest.mark.parametrize(
    "body",
    [
        "nope",
        {"step": 0},
        {"step": "0", "sim_code": SIM},
        {"step": 0, "sim_code": SIM, "x": 1},
        {"step": 0, "sim_code": 5},
    ],
)
def test_update_environment_malformed(client, body):
    assert post(client, "/update_environment/", body).status_code == 400


def test_path_tester_update_writes_the_camera(client, world):
    r = post(client, "/path_tester_update/", {"camera": {"maze": "the_ville", "x": 1856, "y": 288.5}})
    assert r.status_code == 200
    out = json.loads((world / "temp_storage" / "path_tester_env.json").read_text())
    assert out == {"maze": "the_ville", "x": 1856, "y": 288.5}


@pytest.mark.parametrize(
    "body",
    [
        {"camera": {"maze": "nowhere", "x": 1, "y": 1}},
        {"camera": {"maze": "the_ville", "x": "1", "y": 1}},
        '{"camera": {"maze": "the_ville", "x": 1, "y": Infinity}}',
        {"camera": {"maze": "the_ville", "x": 1}},
        {"maze": "the_ville", "x": 1, "y": 1},
    ],
)
def test_path_tester_update_rejects_bad_bodies(client, world, body):
    assert post(client, "/path_tester_update/", body).status_code == 400
    assert not (world / "temp_storage" / "path_tester_env.json").exists()
