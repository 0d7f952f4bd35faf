"""Seeds the original's way: a seed's text joins its persona's `currently`, the next day's
identity revision works from it, and the code keeps it there when the revision drops it;
a seed's event enters the persona's plan only with force_seed_plan.

The revision runs on the scripted fake chat model (reverie/llm/fake_model.py, not a real
model) answering with a status that has lost the seed: the failure path under test. The
town, its personas, memories, embedder and Chroma are real (a fork of base_willow_creek_n25).
"""

from __future__ import annotations

import json
from datetime import datetime
from types import SimpleNamespace

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.errors import UserError
from reverie.llm.fake_model import FakeChatModel
from reverie.memory import Scratch
from reverie.persona.persona import Persona
from reverie.persona.plan_day import revise_identity
from reverie.persona.seeded_status import keep_seeded, with_status
from reverie.simulation.seeds import attach_seeds, plant_seeds, read_seeds

from tests.forked_base import forked_sim

BASE = "base_willow_creek_n25"
FORGOTTEN = "Nora Bennett is baking pastries and chatting with her regulars at the cafe."


def _write(tmp_path, seeds) -> None:
    (tmp_path / "reverie").mkdir(exist_ok=True)
    (tmp_path / "reverie" / "seeds.json").write_text(json.dumps(seeds))


def test_a_seed_with_only_a_whisper_still_reads(tmp_path):
    _write(tmp_path, [{"persona": "Nora Bennett", "whisper": "You host a party", "question": "Q?", "fact": "a party"}])
    (seed,) = read_seeds(tmp_path)
    assert seed.whisper == "You host a party" and seed.currently == "" and seed.event is None


def test_a_seed_needs_a_currently_or_a_whisper(tmp_path):
    _write(tmp_path, [{"persona": "Nora Bennett", "question": "Q?", "fact": "a party"}])
    with pytest.raises(UserError, match="seed 0 needs a 'currently'"):
        read_seeds(tmp_path)


def test_the_shipped_seeds_are_the_originals_two_facts():
    seeds = {s.persona: s for s in read_seeds(load_settings(PROJECT_ROOT / "config.toml").paths.storage / BASE)}
    nora, marcus = seeds["Nora Bennett"], seeds["Marcus Reed"]
    assert "Valentine's Day party at Willow Bean Cafe on February 14, 2023" in nora.currently
    assert "5 pm to 7 pm" in nora.currently and nora.event.day == "February 14, 2023"
    assert (nora.event.start, nora.event.end) == (17 * 60, 19 * 60)
    assert "running for the Willow Creek town council" in marcus.currently and "neighbors" in marcus.currently
    assert not nora.whisper and not marcus.whisper


def test_with_status_adds_once_and_keep_seeded_lets_go_after_the_event_day():
    assert with_status("Nora runs the cafe", "She hosts a party.") == "Nora runs the cafe. She hosts a party."
    assert (
        with_status("Nora runs the cafe. She hosts a party.", "She hosts a party.")
        == "Nora runs the cafe. She hosts a party."
    )
    seeds = read_seeds(load_settings(PROJECT_ROOT / "config.toml").paths.storage / BASE)
    nora = [s for s in seeds if s.persona == "Nora Bennett"]

    p = Persona("Nora Bennett", SimpleNamespace(scratch=Scratch(name="Nora Bennett")))  # attach_seeds needs no more
    attach_seeds(nora, {"Nora Bennett": p})
    assert keep_seeded(FORGOTTEN, p.seeds.status, datetime(2023, 2, 14, 6)).endswith(nora[0].currently)
    assert keep_seeded(FORGOTTEN, p.seeds.status, datetime(2023, 2, 15, 6)) == FORGOTTEN
    assert p.seeds.events == ()
    attach_seeds(nora, {"Nora Bennett": p}, force_plan=True)
    assert p.seeds.events == (nora[0].event,)


@pytest.fixture
def town(tmp_path):
    model = FakeChatModel(replies={"identity_new_currently": [{"status": FORGOTTEN}]})
    with forked_sim(tmp_path, BASE, "town", model) as sim:
        yield sim, model


def test_the_seed_joins_currently_and_survives_a_new_day(town):
    sim, model = town
    nora, marcus = sim.personas["Nora Bennett"], sim.personas["Marcus Reed"]
    before = nora.scratch.currently
    seeds = {s.persona: s for s in read_seeds(sim.storage.dir)}
    plant_seeds(sim)
    assert nora.scratch.currently.startswith(before) and nora.scratch.currently.endswith(
        seeds["Nora Bennett"].currently
    )
    assert seeds["Marcus Reed"].currently in marcus.scratch.currently
    assert seeds["Nora Bennett"].currently in nora.identity()  # in every prompt of hers
    assert "whisper_inner_thought" not in model.prompts()  # no whisper: the original's way
    assert nora.seeds.events == ()  # force_seed_plan is off: no code puts the party into her plan

    nora.scratch.set_time(datetime(2023, 2, 14, 6, 0))
    revise_identity(nora, sim.llm, 6)
    calls = [c for c in model.calls if c.prompt == "identity_new_currently"]
    assert calls and seeds["Nora Bennett"].currently in calls[-1].user_text  # the revision works from it
    # The model's status lost the party: the code kept it, after the model's own words.
    assert nora.scratch.currently == f"{FORGOTTEN} {seeds['Nora Bennett'].currently}"

    nora.scratch.curr_time = datetime(2023, 2, 15, 6, 0)  # the party is over: the model's word stands
    revise_identity(nora, sim.llm, 6)
    assert nora.scratch.currently == FORGOTTEN


def test_a_whisper_only_seed_is_still_whispered(tmp_path):
    """Backward compatibility, on the scripted fake model (its inner thought is the fail-safe's):
    a seed with only a whisper becomes one memory and leaves `currently` as it was."""
    model = FakeChatModel()
    with forked_sim(tmp_path, "base_willow_creek", "small", model) as sim:
        _write(
            sim.storage.dir,
            [
                {
                    "persona": "Nora Bennett",
                    "whisper": "You are hosting a party at the cafe",
                    "question": "Did you know there is a party?",
                    "fact": "a party",
                }
            ],
        )
        nora = sim.personas["Nora Bennett"]
        before, thoughts = nora.scratch.currently, len(nora.a_mem.seq_thought)
        assert plant_seeds(sim) == {"Nora Bennett": 1}
        assert nora.scratch.currently == before
        assert len(nora.a_mem.seq_thought) == thoughts + 1 and "party" in nora.a_mem.seq_thought[0].description
        assert model.prompts()["whisper_inner_thought"] >= 1


def test_a_seed_whose_fact_currently_already_tells_is_not_added_again(tmp_path):
    """The original's bases carry their facts in `currently`: a seeds file that names them again
    (in other words, or word for word) adds nothing; a fact with another hour is added."""
    from reverie.persona.seeded_status import holds

    told = (
        "Ana Ruiz is planning on having a picnic at Elm Park with her friends on March 3rd, 2023 at 4pm. She is "
        "telling everyone to join the picnic at Elm Park on March 3rd, 2023, from 4pm to 6pm."
    )
    assert holds(told, "Ana Ruiz is having a picnic at Elm Park on March 3rd, 2023, from 4pm to 6pm.")
    assert not holds(told, "Ana Ruiz is having a picnic at Elm Park on March 3rd, 2023, from 5pm to 7pm.")
    assert not holds(told, "Ana Ruiz is running for mayor.")

    model = FakeChatModel()
    with forked_sim(tmp_path, "base_willow_creek", "small", model) as sim:
        nora = sim.personas["Nora Bennett"]
        before = nora.scratch.currently
        again = before.split(". ")[0].rstrip(".").replace(" is ", " is busy ", 1) + "."
        _write(sim.storage.dir, [{"persona": "Nora Bennett", "currently": again, "question": "Q?", "fact": "f"}])
        plant_seeds(sim)
        assert nora.scratch.currently == before
