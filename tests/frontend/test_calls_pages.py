"""/runs/<sim>/calls/ and /runs/<sim>/calls/<n>/ in Django's test client, on a trace written by
the real chain around a scripted fake model (see tests/frontend/traced_calls.py)."""

from __future__ import annotations

import json
import re

from tests.frontend import synthetic
from tests.frontend.traced_calls import CALLS, NEVER, write_trace

SIM = synthetic.SIM


def numbers(html: str) -> list[int]:
    return [int(n) for n in re.findall(rf'href="/runs/{SIM}/calls/(\d+)/">\d+</a>', html)]


def test_the_run_page_leads_from_a_fallback_to_its_calls(client, world):
    write_trace(world)
    page = client.get(f"/runs/{SIM}/").content.decode()
    assert f'class="fallbacks" href="/runs/{SIM}/calls/?prompt=wake_up_hour&amp;outcome=fallback">' in page
    assert f'href="/runs/{SIM}/calls/?prompt=wake_up_hour&amp;outcome=repaired">' in page
    assert f'class="fallbacks" href="/runs/{SIM}/calls/?prompt=action_location' not in page  # it never fell back


def test_the_calls_view_filters_by_outcome_persona_prompt_and_game_time(client, world):
    write_trace(world)
    url = f"/runs/{SIM}/calls/"
    assert numbers(client.get(url).content.decode()) == [1, 2, 3]
    assert numbers(client.get(url, {"outcome": "fallback"}).content.decode()) == [3]
    assert numbers(client.get(url, {"outcome": "repaired"}).content.decode()) == [2]
    assert numbers(client.get(url, {"outcome": "valid"}).content.decode()) == [1]
    assert numbers(client.get(url, {"persona": "Maria Lopez"}).content.decode()) == [2]
    assert numbers(client.get(url, {"from": "07:00", "to": "08:00"}).content.decode()) == [2]
    assert numbers(client.get(url, {"prompt": "daily_plan"}).content.decode()) == []
    assert numbers(client.get(url, {"prompt": "wake_up_hour", "from": "07:00"}).content.decode()) == [2, 3]


def test_a_fallbacks_page_shows_messages_each_reply_and_correction_and_the_fail_safe(client, world):
    path = write_trace(world)
    traced = json.loads(path.read_text().splitlines()[2])
    page = client.get(f"/runs/{SIM}/calls/3/").content.decode()
    assert "fell back" in page and "Klaus Mueller" in page
    for attempt in traced["attempts"]:  # each refused reply and the correction it got
        assert attempt["reply"].startswith(NEVER) and attempt["reply"] in page
        assert attempt["correction"] in page.replace("&#x27;", "'").replace("&quot;", '"')
    assert "Isabella Rodriguez goes to bed around 11pm" in page  # the messages (and inputs)
    value = re.search(r'<pre id="value">(.*?)</pre>', page, re.S).group(1)
    assert json.loads(value.replace("&quot;", '"')) == traced["value"] and traced["value"]["hour"] in (5, 6, 7)
    assert "prompts/wake_up_hour.toml: user template at line" in page
    line = int(re.search(r"user template at line (\d+)", page).group(1))
    from reverie.config import load_settings

    source = (load_settings(world / "config.toml").paths.prompts / "wake_up_hour.toml").read_text().splitlines()
    assert source[line - 1].startswith("user =")


def test_a_repaired_call_and_a_missing_one(client, world):
    write_trace(world)
    page = client.get(f"/runs/{SIM}/calls/2/").content.decode()
    assert "repaired" in page and "Correction sent back" in page and page.count('class="reply"') == len(CALLS[1][2])
    missing = client.get(f"/runs/{SIM}/calls/9/")
    assert missing.status_code == 404 and "no traced call number 9" in missing.content.decode()
    untraced = client.get("/runs/nope/calls/")
    assert untraced.status_code == 404
    for huge in ("9" * 19, "9" * 40):  # past what a file's lines can be counted to: still just not there
        past = client.get(f"/runs/{SIM}/calls/{huge}/")
        assert past.status_code == 404 and "no traced call number" in past.content.decode()
