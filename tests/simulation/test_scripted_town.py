"""The scripted town model drives the whole loop: perception -> memory -> conversation -> memory,
and identity -> plan -> movement (the scripted model answers by rule from each prompt's own
inputs; it is the plumbing's check, not a model of behaviour)."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.simulation.scripted_towns import cafe_visitors, quiet_day, seeded_town

PARTY = (
    "Nora Bennett is hosting a party at Willow Bean Cafe on February 13, 2023 from 9 am to 11 am "
    "and invites everyone she meets."
)
GUEST = "Iris Novak is going to the party at Willow Bean Cafe on February 13, 2023 from 9 am to 11 am."


def _seed(persona: str, text: str, event: bool) -> dict:
    seed = {
        "persona": persona,
        "currently": text,
        "whisper": text,
        "keywords": ["party"],
        "question": "Did you know there is a party at Willow Bean Cafe?",
        "fact": "there is a party at Willow Bean Cafe",
    }
    if event:
        seed["event"] = {
            "sector": "Willow Bean Cafe",
            "arena": "cafe",
            "day": "February 13, 2023",
            "start": "09:00",
            "end": "11:00",
            "description": "hosting the party at the cafe",
        }
    return seed


@pytest.mark.slow
def test_news_travels_and_people_gather_in_a_small_town(tmp_path):
    from reverie.llm import LLM
    from reverie.llm.models import build_chat_models
    from reverie.simulation.storage import SimStorage
    from reverie.tasks.registry import product_tasks

    settings, base = seeded_town(
        tmp_path, "party_base", [_seed("Nora Bennett", PARTY, True), _seed("Iris Novak", GUEST, True)]
    )
    iris = base.dir / "personas" / "Iris Novak" / "bootstrap_memory" / "scratch.json"
    scratch = json.loads(iris.read_text())  # a free morning: her painting from 9 am would come first
    iris.write_text(json.dumps({**scratch, "daily_plan_req": "Iris Novak works at Creek Corner Shop from 1pm to 6pm."}))
    ledger = settings.paths.storage / "party" / "reverie" / "llm_calls.jsonl"
    llm = LLM(settings, tasks=product_tasks(), chat_models=build_chat_models(settings), ledger_path=ledger)
    shutil.rmtree(settings.paths.storage / "party")  # the ledger's folder: the fork makes it again
    quiet_day(settings, "party_base", "party", hours=3, start="07:00", llm=llm)

    storage = SimStorage(settings.paths.storage, "party")
    theo = storage.dir / "personas" / "Theo Alvarez" / "bootstrap_memory" / "associative_memory" / "nodes.json"
    heard = [n["description"] for n in json.loads(theo.read_text()).values() if "party" in n["description"].lower()]
    assert heard, "the party never reached Theo's memory"

    from reverie.simulation.simulation import Simulation

    sim = Simulation.open(settings, "party", llm=llm)
    try:
        from datetime import datetime

        came = cafe_visitors(sim, storage, (datetime(2023, 2, 13, 9), datetime(2023, 2, 13, 10)))
    finally:
        sim.close()
    assert set(came) - {"Nora Bennett"}, f"nobody but the host was in the cafe during the party: {came}"
