"""Every page route through Django's test client, on a synthetic 3-agent run."""

from __future__ import annotations

import json
import re

import pytest

from reverie.console.compress import compress
from tests.frontend import synthetic

SIM = synthetic.SIM


def game_config(response) -> dict:
    html = response.content.decode()
    m = re.search(r'<script id="game-config" type="application/json">(.*?)</script>', html, re.S)
    assert m, "the page carries its game config"
    return json.loads(m.group(1))


def test_landing_says_the_server_is_up(client):
    r = client.get("/")
    assert r.status_code == 200
    assert b"up and running" in r.content
    assert SIM.encode() in r.content


def test_simulator_home_without_backend_is_a_friendly_page(client):
    r = client.get("/simulator_home")
    assert r.status_code == 503
    assert b"Start the simulation server" in r.content
    assert b"Traceback" not in r.content


def test_simulator_home_follows_the_running_simulation(client, world):
    synthetic.announce(world, 12)
    r = client.get("/simulator_home")
    assert r.status_code == 200
    cfg = game_config(r)
    assert cfg["mode"] == "simulate" and cfg["sim_code"] == SIM
    # A reload resumes at the newest environment file, not at the announced start.
    assert cfg["step"] == synthetic.STEPS - 1
    tiles = {p["name"]: p["tile"] for p in cfg["personas"]}
    assert tiles["Isabella Rodriguez"] == synthetic.tile_at("Isabella Rodriguez", synthetic.STEPS - 2)
    assert cfg["map_url"].endswith("/assets/the_ville/visuals/the_ville_jan7.json")
    # The curr_step file stays (the original deleted it, breaking reloads).
    assert (world / "temp_storage" / "curr_step.json").exists()


def test_simulator_home_ignores_an_announcement_of_a_missing_sim(client, world):
    synthetic.announce(world, 0)
    (world / "temp_storage" / "curr_sim_code.json").write_text('{"sim_code": "../../etc"}')
    r = client.get("/simulator_home")
    assert r.status_code == 503


def test_replay_page_starts_from_the_step(client):
    r = client.get(f"/replay/{SIM}/5/")
    assert r.status_code == 200
    cfg = game_config(r)
    assert cfg["mode"] == "replay" and cfg["step"] == 5 and cfg["last_step"] == synthetic.STEPS - 1
    tiles = {p["name"]: p["tile"] for p in cfg["personas"]}
    assert tiles["Klaus Mueller"] == synthetic.tile_at("Klaus Mueller", 4)
    layers = [layer["name"] for layer in cfg["layers"]]
    assert layers[0] == "Bottom Ground" and "Interior Furniture L2 " in layers
    assert "Collisions" not in layers and "Arena Blocks" not in layers
    assert {layer["name"]: layer["depth"] for layer in cfg["layers"]}["Foreground L1"] == 2
    assert len(cfg["tilesets"]) == 18
    assert set(cfg["sprites"]) == {"Isabella_Rodriguez", "Maria_Lopez", "Klaus_Mueller"}
    assert b'id="current_action__Klaus_Mueller"' in r.content


@pytest.mark.parametrize(
    "url",
    [
        "/replay/nope/0/",
        f"/replay/{SIM}/999/",
        f"/replay/{SIM}/abc/",
        f"/replay/{SIM}/-1/",
        f"/replay/{SIM}/%EF%BC%91/",  # a full-width digit one
    ],
)
def test_replay_unknown_sim_or_step_is_404(client, url):
    r = client.get(url)
    assert r.status_code == 404
    assert b"Traceback" not in r.content


def test_demo_needs_a_compressed_run(client):
    r = client.get(f"/demo/{SIM}/0/3/")
    assert r.status_code == 404
    assert b"python -m reverie compress" in r.content


def test_demo_carries_state_forward(client, settings_for):
    compress(settings_for, SIM)
    r = client.get(f"/demo/{SIM}/6/3/")
    assert r.status_code == 200
    html = r.content.decode()
    cfg = game_config(r)
    assert cfg["mode"] == "demo" and cfg["play_speed"] == 4 and cfg["start_datetime"] == "2023-02-13T00:01:00"
    m = re.search(r'<script id="demo-movement" type="application/json">(.*?)</script>', html, re.S)
    movement = json.loads(m.group(1))
    assert min(map(int, movement)) == 6 and max(map(int, movement)) == synthetic.STEPS - 1
    start = movement["6"]
    # Maria changed last at step 5; her state is carried into the start step.
    assert set(start) == {"Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"}
    assert start["Maria Lopez"]["description"].startswith("studying")
    assert "Maria Lopez" not in movement["7"]  # later steps stay raw (changes only)
    assert {p["name"]: p["tile"] for p in cfg["personas"]}["Klaus Mueller"] == synthetic.tile_at("Klaus Mueller", 6)


def test_demo_unknown_speed_falls_back_and_bad_step_is_404(client, settings_for):
    compress(settings_for, SIM)
    assert game_config(client.get(f"/demo/{SIM}/0/fast/"))["play_speed"] == 2
    assert client.get(f"/demo/{SIM}/100/3/").status_code == 404
    assert client.get(f"/demo/{SIM}/x1/3/").status_code == 404


def test_demo_plays_the_original_sample(client, world, smallville_dir, settings_for):
    """The original's July1 sample (no persona folders), compressed by us, opens in the demo page."""
    sample = "July1_the_ville_isabella_maria_klaus-step-3-20"
    synthetic.copy_writable(smallville_dir / "storage" / sample, world / "storage" / sample)
    compress(settings_for, sample)
    r = client.get(f"/demo/{sample}/0/6/")
    assert r.status_code == 200
    cfg = game_config(r)
    assert [p["name"] for p in cfg["personas"]] == ["Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"]
    assert cfg["play_speed"] == 32


def test_persona_state_lists_the_schedule(client):
    r = client.get(f"/replay_persona_state/{SIM}/3/Isabella_Rodriguez/")
    assert r.status_code == 200
    html = r.content.decode()
    assert "Isabella Rodriguez" in html
    assert "<td>07:00</td><td>opening Hobbs Cafe</td>" in html
    assert "prepare the Valentine" in html


def test_persona_state_falls_back_to_the_compressed_copy(client, world, settings_for):
    compress(settings_for, SIM)
    import shutil

    shutil.rmtree(world / "storage" / SIM)
    r = client.get(f"/replay_persona_state/{SIM}/0/Klaus_Mueller/")
    assert r.status_code == 200 and b"Klaus" in r.content


@pytest.mark.parametrize("persona", ["Nobody_Here", "Isabella%20Rodriguez", "..", "Isabella_Rodriguez.."])
def test_persona_state_unknown_persona_is_404(client, persona):
    assert client.get(f"/replay_persona_state/{SIM}/0/{persona}/").status_code == 404


def test_path_tester_page(client):
    r = client.get("/path_tester/")
    assert r.status_code == 200
    cfg = game_config(r)
    assert cfg["maze"] == "the_ville" and cfg["collision_layer"] == "Collisions"


def test_runs_index_and_detail(client):
    r = client.get("/runs/")
    assert r.status_code == 200 and f"/runs/{SIM}/".encode() in r.content
    r = client.get(f"/runs/{SIM}/")
    assert r.status_code == 200
    html = r.content.decode()
    assert "20 calls" in html and "1 unreadable lines skipped" in html
    assert "300 prompt tokens of memories and chat lines were cut in 2 calls" in html
    assert "strong: mistral-instruct (mistral-instruct), system text folded into the first user turn" in html
    assert html.count("<svg") == 8
    assert "action_location" in html and "wake_up_hour" in html
    # timeline.md is rendered as HTML, with its markup escaped.
    assert "<strong>Klaus Mueller</strong>: Good morning!" in html
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html


def test_a_run_on_a_hosted_api_is_flagged_not_offline(client, world):
    ledger = world / "storage" / SIM / "reverie" / "llm_calls.jsonl"
    lines = [json.loads(line) for line in ledger.read_text().splitlines() if line.startswith("{")]
    for i, line in enumerate(lines):
        line["server"] = "https://openrouter.ai/api/v1" if i % 4 == 0 else "http://127.0.0.1:8080/v1"
    ledger.write_text("".join(json.dumps(line) + "\n" for line in lines))
    html = client.get(f"/runs/{SIM}/").content.decode()
    servers = re.search(r'<p id="model-servers">(.*?)</p>', html, re.S).group(1)
    hosted = -(-len(lines) // 4)
    assert f'https://openrouter.ai/api/v1 ({hosted} calls, <strong class="not-offline">not offline' in servers
    assert f"http://127.0.0.1:8080/v1 ({len(lines) - hosted} calls)" in servers


def test_run_without_ledger_or_timeline(client, world):
    sim = world / "storage" / SIM
    (sim / "reverie" / "llm_calls.jsonl").unlink()
    (sim / "timeline.md").unlink()
    r = client.get(f"/runs/{SIM}/")
    assert r.status_code == 200
    assert b"No model calls recorded" in r.content and b"No timeline.md" in r.content


def test_broken_meta_is_a_friendly_page(client, world):
    (world / "storage" / SIM / "reverie" / "meta.json").write_text("{not json")
    r = client.get(f"/replay/{SIM}/0/")
    assert r.status_code == 500
    assert b"cannot be read" in r.content and b"Traceback" not in r.content


def test_missing_maze_is_a_friendly_page(client, world):
    meta_path = world / "storage" / SIM / "reverie" / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta["maze_name"] = "atlantis"
    meta_path.write_text(json.dumps(meta))
    r = client.get(f"/replay/{SIM}/0/")
    assert r.status_code == 404 and b"python -m reverie assets" in r.content


def test_pages_use_no_cdn(client, world, settings_for):
    """Every page template (the friendly error page included) loads its scripts, styles and images
    from this server, and each of them is there (Phaser from the npm package's folder)."""
    compress(settings_for, SIM)
    pages = ["/simulator_home", "/", f"/replay/{SIM}/0/", f"/demo/{SIM}/0/3/", "/path_tester/", "/runs/"]
    pages += [f"/runs/{SIM}/", f"/runs/{SIM}/calls/", f"/runs/{SIM}/calls/1/"]
    pages += [f"/replay_persona_state/{SIM}/0/Maria_Lopez/"]
    resources = set()
    for number, url in enumerate(pages):
        if number == 1:
            synthetic.announce(world, 12)  # the first page was the friendly one: no simulation yet
        html = client.get(url).content.decode()
        for src in re.findall(r'(?:src|href)="([^"]+)"', html):
            assert not re.match(r"(https?:)?//", src), f"{url} loads {src} from another host"
        resources |= set(re.findall(r'<(?:script|img)[^>]* src="([^"]+)"', html))
        resources |= set(re.findall(r'<link[^>]* href="([^"]+)"', html))
    assert any("phaser" in src for src in resources)
    for src in sorted(resources):
        assert client.get(src).status_code == 200, f"{src} is not served"


def test_persona_state_back_link_stays_on_the_site(client):
    url = f"/replay_persona_state/{SIM}/0/Maria_Lopez/"
    ok = client.get(url, HTTP_REFERER=f"http://testserver/replay/{SIM}/0/").content.decode()
    assert f'href="http://testserver/replay/{SIM}/0/"' in ok
    evil = client.get(url, HTTP_REFERER="http://testserver.evil.example/x").content.decode()
    assert "evil.example" not in evil


def test_default_world_map_is_read_from_its_tiled_file(default_world):
    from django.test import Client

    from tests.frontend import djangosetup

    djangosetup.setup()
    r = Client().get(f"/replay/{SIM}/0/")
    assert r.status_code == 200
    cfg = game_config(r)
    assert cfg["maze"] == "willow_creek"
    assert cfg["map_url"].endswith("/assets/willow_creek/visuals/willow_creek.json")
    assert [t["name"] for t in cfg["tilesets"]] == ["willow_creek_outdoor", "willow_creek_indoor", "blocks"]
    assert "Collisions" not in [layer["name"] for layer in cfg["layers"]]
    assert set(cfg["sprites"]) == {u.replace(" ", "_") for u in synthetic.default_world_start()}
    for ts in cfg["tilesets"]:
        assert Client().get(ts["url"]).status_code == 200


def test_broken_config_is_a_friendly_page(client, world):
    (world / "config.toml").write_text("[paths\nbroken", encoding="utf-8")
    r = client.get("/runs/")
    assert r.status_code == 500
    assert b"not valid TOML" in r.content and b"Traceback" not in r.content
