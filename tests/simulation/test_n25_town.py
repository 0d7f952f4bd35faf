"""The 25-person town forks and runs; its seeds join their personas' `currently` (no code puts
the party into anyone's plan); `evaluate` measures diffusion, relationships and coordination.

The quick tests run on a scripted fake model (tests/simulation/town_chat.py: interview
prompts answered by rule from the persona's memories, every other prompt on its
fail-safe): a smoke test of 25 agents and a check of evaluate's figures against the
answers it recorded. The slow test runs two steps on the bundled model.
"""

from __future__ import annotations

import argparse
import json
from itertools import combinations
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.llm import LLM
from reverie.llm.fake_model import FakeChatModel
from reverie.simulation import evaluation
from reverie.simulation.history import load_history
from reverie.simulation.seeds import read_seeds
from reverie.simulation.simulation import Simulation
from reverie.simulation.storage import fork as fork_storage
from reverie.tasks.registry import product_tasks

from tests.simulation.town_chat import town_chat

BASE = "base_willow_creek_n25"
HISTORY = "willow_creek_n25/agent_history_init_n25.csv"


@pytest.fixture(scope="module")
def base_settings():
    return load_settings(PROJECT_ROOT / "config.toml")


def town_settings(base_settings, root: Path):
    """The project's defaults with storage in ``root`` (the base linked in, never written)."""
    s = base_settings.model_copy(deep=True)
    s.paths.storage, s.paths.temp_storage = root / "storage", root / "temp_storage"
    s.paths.storage.mkdir(parents=True)
    (s.paths.storage / BASE).symlink_to(base_settings.paths.storage / BASE, target_is_directory=True)
    s.simulation.schedule_passes = 1
    return s


def fake_llm(settings, sim_dir: Path) -> LLM:
    model = town_chat()
    return LLM(settings, tasks=product_tasks(), chat_models={"strong": model, "cheap": model},
               ledger_path=sim_dir / "reverie" / "llm_calls.jsonl")


@pytest.fixture(scope="module")
def town(base_settings, tmp_path_factory):
    """A fork of the 25-person town with its history loaded, run 3 steps on the fake model, then evaluated."""
    settings = town_settings(base_settings, tmp_path_factory.mktemp("n25"))
    storage = settings.paths.storage
    fork_storage(storage, BASE, "town")
    llm = fake_llm(settings, storage / "town")
    sim = Simulation.open(settings, "town", llm=llm)
    load_history(sim, settings.paths.assets / HISTORY)
    assert sim.run(3) == 3
    sim.save()
    sim.close()
    lines = []
    code = evaluation.main(argparse.Namespace(sim="town"), settings,
                           llm=fake_llm(settings, storage / "town"), say=lines.append)
    assert code == 0
    return settings, storage / "town", lines


def test_the_town_forks_and_steps_with_25_agents(town):
    settings, sim_dir, _ = town
    for step in range(3):
        movement = json.loads((sim_dir / "movement" / f"{step}.json").read_text())
        assert len(movement["persona"]) == 25
    meta = json.loads((sim_dir / "reverie" / "meta.json").read_text())
    assert meta["step"] == 3 and meta["maze_name"] == "willow_creek_n25"


def test_seeds_join_currently_and_no_code_plans_the_party(town):
    settings, sim_dir, _ = town
    seeds = read_seeds(sim_dir)
    for seed in seeds:
        scratch = json.loads((sim_dir / "personas" / seed.persona / "bootstrap_memory" / "scratch.json").read_text())
        assert seed.currently and seed.currently in scratch["currently"], seed.persona
        nodes = json.loads((sim_dir / "personas" / seed.persona / "bootstrap_memory" / "associative_memory"
                            / "nodes.json").read_text())
        assert not any("council" in n["description"] or "Valentine" in n["description"] for n in nodes.values()
                       if n["type"] == "thought" and n["subject"] == seed.persona and n["predicate"] != "plan")
    party = next(s for s in seeds if s.event)
    assert party.event.day == "February 14, 2023"  # the run starts on the 13th: the party is on day 2
    for name in ("Nora Bennett", "Ken Sato"):
        scratch = json.loads((sim_dir / "personas" / name / "bootstrap_memory" / "scratch.json").read_text())
        assert all(a != party.event.activity for a, _ in scratch["f_daily_schedule"])


def test_evaluation_figures_match_the_recorded_answers(town):
    settings, sim_dir, lines = town
    data = json.loads((sim_dir / "evaluation.json").read_text())
    (cp,) = data["checkpoints"]
    names = cp["personas"]
    assert cp["step"] == 3 and len(names) == 25
    # Diffusion: the recorded verdicts, counted again; the seeds are in two identities, in nobody's
    # memories yet, and the scripted interviews answer from memories only: nobody knows after 3 steps.
    for row in cp["diffusion"]:
        yes = sorted(n for n, a in row["answers"].items() if a["verdict"] == "yes")
        assert sorted(row["knows"]) == yes and row["count"] == len(yes) and row["total"] == 25
        assert yes == []
        for a in row["answers"].values():
            assert a["evidence"].lower() in a["answer"].lower()
            assert (a["verdict"] == "yes") == a["answer"].startswith("Yes")
        # From the memories, no model: no whisper, so no memory holds the fact yet.
        assert row["in_memory"]["holders"] == [] and row["in_memory"]["count"] == 0
    assert [row["in_memory"]["keywords"] for row in cp["diffusion"]] == [["run", "council"], ["party"]]
    assert any("say they know; 0/25 (0%) hold it in memory" in line for line in lines)
    # Relationships: a pair counts when either says yes.
    answers = cp["relationships"]["answers"]
    assert set(answers) == set(names) and all(len(row) == 24 for row in answers.values())
    pairs = list(combinations(sorted(names), 2))
    edges = [[a, b] for a, b in pairs if answers[a][b]["verdict"] == "yes" or answers[b][a]["verdict"] == "yes"]
    rel = cp["relationships"]
    assert rel["pairs"] == 300 and rel["edges"] == edges and rel["known_pairs"] == len(edges)
    assert rel["density"] == round(len(edges) / 300, 4)
    # The history's whispers made some acquaintances: Maya Hale works with Leah Kim.
    assert ["Leah Kim", "Maya Hale"] in edges
    assert 0 < rel["density"] < 1
    # In memory: every pair where one's memories name the other, counted over all 300 pairs.
    named = rel["in_memory"]
    assert named["pairs"] == 300 and ["Leah Kim", "Maya Hale"] in named["edges"] and 0 < named["density"] < 1
    # Coordination: the party is at 5 pm on day 2; three steps after midnight nobody is there yet.
    (party,) = cp["coordination"]
    assert party["host"] == "Nora Bennett" and party["attended"] == [] and party["reached"] is False
    assert lines[-2].endswith("the run has not reached the window yet")   # before "wrote ..."
    assert party["window"] == ["February 14, 2023, 17:00", "February 14, 2023, 19:00"]
    assert any(line.startswith("  relationships  density") for line in lines)
    # The judge's calls are in the run's ledger.
    ledger = [json.loads(line) for line in (sim_dir / "reverie" / "llm_calls.jsonl").read_text().splitlines()]
    assert sum(1 for e in ledger if e.get("prompt") == "interview_judge") == 25 * 26
    # The questions are the code's own: no safety check is asked for them.
    assert not any(e.get("prompt") == "safety_score" for e in ledger)


def test_a_sampled_evaluation_asks_both_ways_about_the_drawn_pairs_only(town):
    settings, sim_dir, _ = town
    sim = Simulation.open(settings, "town", llm=fake_llm(settings, sim_dir))
    try:
        cp = evaluation.evaluate(sim, say=lambda _line: None, pairs=30)
    finally:
        sim.close()
    rel = cp["relationships"]
    asked = sorted({tuple(sorted((a, b))) for a, row in rel["answers"].items() for b in row})
    assert len(asked) == rel["pairs_asked"] == 30 and rel["pairs"] == 300
    assert all(b in rel["answers"][a] and a in rel["answers"][b] for a, b in asked)   # both ways
    edges = [[a, b] for a, b in asked
             if rel["answers"][a][b]["verdict"] == "yes" or rel["answers"][b][a]["verdict"] == "yes"]
    assert rel["edges"] == edges and rel["density"] == round(len(edges) / 30, 4)
    assert rel["interval"][0] <= rel["density"] <= rel["interval"][1]
    assert all(row["total"] == 25 for row in cp["diffusion"])     # the seeded facts: still everyone
    assert "pairs asked" in evaluation.summary_lines(cp)[-2 if cp["coordination"] else -1]


def test_an_evaluation_leaves_the_memories_as_they_were(town):
    """In a run that goes on (the game-day benchmark), interviews must not change recency."""
    settings, sim_dir, _ = town
    sim = Simulation.open(settings, "town", llm=fake_llm(settings, sim_dir))
    try:
        before = {(p.name, n.node_id): n.last_accessed for p in sim.personas.values() for n in p.a_mem.nodes()}
        checkpoint = evaluation.evaluate(sim, say=lambda _line: None)
        after = {(p.name, n.node_id): n.last_accessed for p in sim.personas.values() for n in p.a_mem.nodes()}
    finally:
        sim.close()
    assert before and after == before
    assert checkpoint["relationships"]["known_pairs"] > 0


def test_on_a_multi_slot_server_personas_are_interviewed_at_once_with_the_same_answers(town):
    """Fake model answering like a 4-slot server (each call takes a moment, so calls overlap)."""
    settings, sim_dir, _ = town
    answers = []
    for slots in (1, 4):
        s = settings.model_copy(deep=True)
        s.backend.kind, s.backend.parallel_slots = "openai", slots
        model = town_chat()
        model.delay_s = 0.01
        llm = LLM(s, tasks=product_tasks(), chat_models={"strong": model, "cheap": model},
                  ledger_path=sim_dir / "reverie" / "llm_calls.jsonl")
        sim = Simulation.open(s, "town", llm=llm)
        try:
            cp = evaluation.evaluate(sim, say=lambda _line: None, pairs=12)
        finally:
            sim.close()
        answers.append((cp["diffusion"], cp["relationships"]))
        assert model.peak_in_flight == (1 if slots == 1 else 4)
    assert answers[0] == answers[1]


def test_evaluating_again_at_the_same_step_replaces_the_checkpoint(town, tmp_path):
    settings, sim_dir, _ = town
    data = json.loads((sim_dir / "evaluation.json").read_text())
    again = evaluation.save_checkpoint(sim_dir, "town", {**data["checkpoints"][0], "time": "later"})
    assert [c["time"] for c in again["checkpoints"]] == ["later"]
    more = evaluation.save_checkpoint(sim_dir, "town", {**data["checkpoints"][0], "step": 1})
    assert [c["step"] for c in more["checkpoints"]] == [1, 3]


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_the_town_steps_twice_on_the_bundled_model(base_settings, tmp_path):
    """25 agents, two steps of a morning on the bundled model, packed actions (the fastest path).

    The day is planned first, in one step at 08:00 on the fake model (every prompt on its
    fail-safe: the seeds still join their personas' identities); the bundled model then runs
    two steps of the morning: perception, reactions and any conversation it starts."""
    settings = town_settings(base_settings, tmp_path)
    settings.simulation.packed_actions = True
    planner = LLM(settings, tasks=product_tasks(), chat_models={"strong": FakeChatModel(), "cheap": FakeChatModel()},
                  ledger_path=tmp_path / "planning.jsonl")
    sim = Simulation.fork(settings, BASE, "real", start="08:00", llm=planner)
    try:
        assert sim.run(1) == 1
        sim.save()
    finally:
        sim.close()
    planning = [json.loads(line) for line in (tmp_path / "planning.jsonl").read_text().splitlines()]
    assert not any(e["prompt"] == "whisper_inner_thought" for e in planning)  # seeds in `currently`, no whisper

    sim = Simulation.open(settings, "real")
    try:
        first = sim.step_no
        assert sim.run(2) == 2
        for step in (first, first + 1):
            movement = json.loads((sim.storage.dir / "movement" / f"{step}.json").read_text())
            assert len(movement["persona"]) == 25
        nora = sim.personas["Nora Bennett"].scratch
        assert "Valentine's Day party" in nora.currently   # the party is tomorrow: in her identity, not today's plan
        ledger = [json.loads(line) for line in (sim.storage.dir / "reverie" / "llm_calls.jsonl").read_text().splitlines()]
        assert ledger and all(e["attempts"] >= 1 for e in ledger), "the morning's calls went to the bundled model"
        assert any(not e["fallback"] for e in ledger), "some of the bundled model's answers were taken"
    finally:
        sim.close()
