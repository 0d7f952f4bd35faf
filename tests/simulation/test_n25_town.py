"""The 25-person town forks and runs; its seeds join their personas' `currently` (no code puts
the party into anyone's plan); `evaluate` measures diffusion, relationships and coordination by
the paper's method.

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
from reverie.evaluation import evaluation
from reverie.simulation.history import load_history
from reverie.evaluation.evaluation_report import read_evaluation
from reverie.persona.events import PlannedEvent
from reverie.simulation.seeds import Seed, read_seeds
from reverie.simulation.simulation import Simulation
from reverie.simulation.storage import SimStorage, fork as fork_storage
from reverie.tasks.registry import product_tasks

from tests.recorded_replies import recorded_llm
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


def fake_llm(settings, sim_dir: Path, model: FakeChatModel | None = None) -> LLM:
    model = model or town_chat()
    return LLM(
        settings,
        tasks=product_tasks(),
        chat_models={"strong": model, "cheap": model},
        ledger_path=sim_dir / "reverie" / "llm_calls.jsonl",
    )


def evaluated(settings, sim_dir: Path, model: FakeChatModel | None = None, pairs: int | None = None):
    """The town evaluated again now, on ``model`` (the scripted town model by default)."""
    sim = Simulation.open(settings, "town", llm=fake_llm(settings, sim_dir, model))
    try:
        return evaluation.evaluate(sim, say=lambda _line: None, pairs=pairs)
    finally:
        sim.close()


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
    code = evaluation.main(
        argparse.Namespace(sim="town"), settings, llm=fake_llm(settings, storage / "town"), say=lines.append
    )
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
        nodes = json.loads(
            (sim_dir / "personas" / seed.persona / "bootstrap_memory" / "associative_memory" / "nodes.json").read_text()
        )
        assert not any(
            "council" in n["description"] or "Valentine" in n["description"]
            for n in nodes.values()
            if n["type"] == "thought" and n["subject"] == seed.persona and n["predicate"] != "plan"
        )
    party = next(s for s in seeds if s.event)
    assert party.event.day == "February 14, 2023"  # the run starts on the 13th: the party is on day 2
    for name in ("Nora Bennett", "Ken Sato"):
        scratch = json.loads((sim_dir / "personas" / name / "bootstrap_memory" / "scratch.json").read_text())
        assert all(a != party.event.activity for a, _ in scratch["f_daily_schedule"])


def test_evaluation_figures_match_the_recorded_answers(town):
    settings, sim_dir, lines = town
    (cp,) = read_evaluation(sim_dir).checkpoints
    names = cp.personas
    assert cp.step == 3 and len(names) == 25
    # Diffusion: the recorded verdicts, counted again; only the seeded persona knows after 3 steps,
    # from its identity (the seed is in its `currently`, in no memory yet).
    for row in cp.diffusion:
        yes = sorted(n for n, a in row.answers.items() if a.verdict == "yes")
        assert yes == [row.seeded_to] and row.said_yes.count == 1 and row.total == 25
        # Knowing: said yes, and a memory or the identity holds the fact's keywords.
        supported = sorted(n for n, a in row.answers.items() if a.supported)
        assert supported == row.in_memory.holders == [row.seeded_to]
        assert sorted(row.knows) == [n for n in yes if n in supported] and row.count == len(row.knows)
        assert row.unsupported == []
        for a in row.answers.values():
            assert a.evidence.lower() in a.answer.lower()
    council, party = cp.diffusion
    # The paper's questions: the candidacy asked openly, known when the answer names Marcus Reed.
    assert council.question == "Do you know who is running for the town council?"
    assert council.answers["Marcus Reed"].evidence == "Marcus Reed"
    assert party.question == "Did you know there is a Valentine's Day party?"
    assert [council.in_memory.keywords, party.in_memory.keywords] == [["run", "council"], ["party"]]
    assert any(
        "1/25 (4%) know; 1 said yes (0 with no memory of it); 1/25 (4%) hold it in memory" in line for line in lines
    )
    # Relationships: a pair counts when both know of each other (said so, memories name the other).
    rel = cp.relationships
    answers = rel.answers
    assert set(answers) == set(names) and all(len(row) == 24 for row in answers.values())
    assert all(a.question == f"Do you know of {b}?" for row in answers.values() for b, a in row.items())
    pairs = list(combinations(sorted(names), 2))
    edges = [[a, b] for a, b in pairs if answers[a][b].knows and answers[b][a].knows]
    assert rel.pairs == 300 and rel.edges == edges and rel.known_pairs == len(edges)
    assert rel.density == round(len(edges) / 300, 4) and 0 < rel.density < 1
    one_way = [[a, b] for a, b in pairs if answers[a][b].knows != answers[b][a].knows]
    assert one_way and not any(p in edges for p in one_way)  # one-sided knowledge is no edge
    # In memory: every pair whose memories both name the other, counted over all 300 pairs.
    named = rel.in_memory
    assert named.pairs == 300 and 0 < named.density < 1 and set(map(tuple, edges)) <= set(map(tuple, named.edges))
    # This model says yes only from a memory: no yes lacks support.
    assert (cp.hallucinations.answers, cp.hallucinations.unsupported) == (25 * 26, 0)
    assert any(line.startswith("  hallucinations  0 of 650 answers (0.0%)") for line in lines)
    assert any(line.startswith("  the paper, two days: candidacy 1 -> 8 of 25 (4% -> 32%)") for line in lines)
    # Coordination: the party is later than three steps after midnight: nobody could be there yet.
    (event,) = cp.coordination
    assert event.host == "Nora Bennett" and event.attended == [] and event.reached is False
    assert any(line.endswith("invited; the run has not reached the window yet") for line in lines)
    assert any(line.startswith("  relationships  density") for line in lines)
    # The judge's calls are in the run's ledger: every yes/no question; the open one needs none
    # (its answer names Marcus Reed or not).
    ledger = [json.loads(line) for line in (sim_dir / "reverie" / "llm_calls.jsonl").read_text().splitlines()]
    assert sum(1 for e in ledger if e.get("prompt") == "interview_judge") == 25 * 25
    # The questions are the code's own: no safety check is asked for them.
    assert not any(e.get("prompt") == "safety_score" for e in ledger)


def say_yes_to_everything(call) -> dict:
    props = set(call.schema.get("properties", {}))
    if props == {"summary"}:
        return {"summary": "The persona remembers a lot."}
    if props == {"utterance"}:
        return {"utterance": "Yes, of course! Marcus Reed is running, and I know them all."}
    if props == {"evidence", "verdict"}:
        return {"evidence": "Yes, of course", "verdict": "yes"}
    return {}


def test_a_yes_no_memory_supports_is_counted_apart_as_a_hallucination(town):
    """A scripted fake model that says yes to every question, names the candidate and is judged yes:
    against the residents' real memories (Chroma, the run's nodes), only the supported yeses know."""
    settings, sim_dir, _ = town
    cp = evaluated(settings, sim_dir, FakeChatModel(replies=say_yes_to_everything), pairs=40)
    for row in cp.diffusion:
        assert row.said_yes.count == 25
        assert row.knows == row.in_memory.holders == [row.seeded_to]  # the whisper reached only its persona
        assert sorted(row.unsupported) == sorted(n for n in cp.personas if n != row.seeded_to)
    rel = cp.relationships
    assert rel.said_yes.density == 1.0  # every pair asked said yes both ways
    memory_edges = {tuple(e) for e in rel.in_memory.edges}
    assert rel.edges and all(tuple(e) in memory_edges for e in rel.edges) and rel.density < 1.0
    every = [a for row in cp.diffusion for a in row.answers.values()] + [
        a for row in rel.answers.values() for a in row.values()
    ]
    unsupported = sum(1 for a in every if not a.supported)
    assert cp.hallucinations.yes == cp.hallucinations.answers == len(every) == 50 + 80
    assert cp.hallucinations.unsupported == unsupported > 48


def test_the_invited_and_those_in_the_place_during_its_window_came(town):
    """Who came, from the run's movement files: a window over the run's three steps at the arena
    where one resident stood; the host is not counted among the invited."""
    settings, sim_dir, _ = town
    movement = json.loads((sim_dir / "movement" / "1.json").read_text())
    sim = Simulation.open(settings, "town", llm=fake_llm(settings, sim_dir))
    try:

        def arena(name):
            x, y = movement["persona"][name]["movement"]
            return sim.maze.tiles[y][x]["sector"], sim.maze.tiles[y][x]["arena"]

        guest = next(n for n in sorted(movement["persona"]) if all(arena(n)))
        sector, room = arena(guest)
        away = next(n for n in sorted(movement["persona"]) if arena(n) != (sector, room))
        host = next(n for n in sorted(movement["persona"]) if n not in (guest, away))
        event = PlannedEvent("February 13, 2023", 0, 60, sector, room, "a test gathering")
        seed = Seed(host, "You host a gathering", "Did you know there is a gathering?", "a gathering", event)
        came = evaluation.coordination(sim, seed, [host, guest, away])
        assert came.reached is True and came.invited == [guest, away]
        assert guest in came.attended and came.attended_invited == [guest] and came.steps_at_place[guest] >= 1
        assert all(arena(n) == (sector, room) for n in came.attended)
        later = evaluation.coordination(
            sim,
            Seed(host, "w", "q", "f", PlannedEvent("February 14, 2023", 17 * 60, 19 * 60, sector, room, "later")),
            [host, guest],
        )
        assert later.reached is False and later.attended == []
    finally:
        sim.close()


def test_a_sampled_evaluation_asks_both_ways_about_the_drawn_pairs_only(town):
    settings, sim_dir, _ = town
    cp = evaluated(settings, sim_dir, pairs=30)
    rel = cp.relationships
    asked = sorted({tuple(sorted((a, b))) for a, row in rel.answers.items() for b in row})
    assert len(asked) == rel.pairs_asked == 30 and rel.pairs == 300
    assert all(b in rel.answers[a] and a in rel.answers[b] for a, b in asked)  # both ways
    edges = [[a, b] for a, b in asked if rel.answers[a][b].knows and rel.answers[b][a].knows]
    assert rel.edges == edges and rel.density == round(len(edges) / 30, 4)
    assert rel.interval[0] <= rel.density <= rel.interval[1]
    assert all(row.total == 25 for row in cp.diffusion)  # the seeded facts: still everyone
    assert any("pairs asked" in line for line in evaluation.summary_lines(cp))


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
    assert checkpoint.relationships.known_pairs > 0


def test_on_a_multi_slot_server_personas_are_interviewed_at_once_with_the_same_answers(town):
    """Fake model answering like a 4-slot server (each call takes a moment, so calls overlap)."""
    settings, sim_dir, _ = town
    answers = []
    for slots in (1, 4):
        s = settings.model_copy(deep=True)
        s.backend.kind, s.backend.parallel_slots = "openai", slots
        model = town_chat()
        model.delay_s = 0.01
        cp = evaluated(s, sim_dir, model, pairs=12)
        answers.append((cp.diffusion, cp.relationships))
        assert model.peak_in_flight == (1 if slots == 1 else 4)
    assert answers[0] == answers[1]


def test_evaluating_again_at_the_same_step_replaces_the_checkpoint(town, tmp_path):
    settings, sim_dir, _ = town
    (cp,) = read_evaluation(sim_dir).checkpoints
    again = evaluation.save_checkpoint(sim_dir, "town", cp.model_copy(update={"time": "later"}))
    assert [c.time for c in again.checkpoints] == ["later"]
    more = evaluation.save_checkpoint(sim_dir, "town", cp.model_copy(update={"step": 1}))
    assert [c.step for c in more.checkpoints] == [1, 3]
    assert [c.step for c in read_evaluation(sim_dir).checkpoints] == [1, 3]


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_the_town_steps_twice_on_the_bundled_model(base_settings, tmp_path):
    """25 agents, two steps of a morning on the bundled model's answers, packed actions (the fastest path).

    The day is planned first, in one step at 08:00 on the fake model (every prompt on its
    fail-safe: the seeds still join their personas' identities); the bundled model's answers
    then drive two steps of the morning: perception, reactions and any conversation it starts.
    The model only drives our code here: its replies are a recording (tests/recorded_replies.py,
    tests/recordings/n25_two_steps.jsonl); a call the recording lacks goes to the model itself."""
    settings = town_settings(base_settings, tmp_path)
    settings.simulation.packed_actions = True
    planner = LLM(
        settings,
        tasks=product_tasks(),
        chat_models={"strong": FakeChatModel(), "cheap": FakeChatModel()},
        ledger_path=tmp_path / "planning.jsonl",
    )
    sim = Simulation.fork(settings, BASE, "real", start="08:00", llm=planner)
    try:
        assert sim.run(1) == 1
        sim.save()
    finally:
        sim.close()
    planning = [json.loads(line) for line in (tmp_path / "planning.jsonl").read_text().splitlines()]
    assert not any(e["prompt"] == "whisper_inner_thought" for e in planning)  # seeds in `currently`, no whisper

    storage = SimStorage(settings.paths.storage, "real")
    llm = recorded_llm(settings, "n25_two_steps", ledger_path=storage.ledger_path, trace_path=storage.trace_path)
    sim = Simulation.open(settings, "real", llm=llm)
    try:
        first = sim.step_no
        assert sim.run(2) == 2
        for step in (first, first + 1):
            movement = json.loads((sim.storage.dir / "movement" / f"{step}.json").read_text())
            assert len(movement["persona"]) == 25
        nora = sim.personas["Nora Bennett"].scratch
        assert "Valentine's Day party" in nora.currently  # the party is tomorrow: in her identity, not today's plan
        ledger = [
            json.loads(line) for line in (sim.storage.dir / "reverie" / "llm_calls.jsonl").read_text().splitlines()
        ]
        assert ledger and all(e["attempts"] >= 1 for e in ledger), "the morning's calls went to the bundled model"
        assert any(not e["fallback"] for e in ledger), "some of the bundled model's answers were taken"
    finally:
        sim.close()
