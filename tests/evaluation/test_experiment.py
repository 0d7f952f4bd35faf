"""The experiment's table and report from hand-made evaluation checkpoints (the two days
themselves are a benchmark, not a test)."""

from __future__ import annotations

import argparse
import json

import pytest

from reverie.errors import UserError
from reverie.evaluation.experiment import build_report, conversations
from reverie.evaluation.experiment_table import figures, meets, paper_figures, table_lines


def experiment_args(*argv: str) -> argparse.Namespace:
    """The arguments of ``experiment`` as its own parser reads ``argv`` (the rest at their defaults)."""
    from reverie.evaluation.experiment import configure

    parser = argparse.ArgumentParser()
    configure(parser)
    return parser.parse_args(argv)


def checkpoint(step, *, candidacy, party, density, came, reached=True):
    def row(fact, share):
        return {
            "fact": fact,
            "count": round(share * 25),
            "total": 25,
            "share": share,
            "in_memory": {"count": round(share * 25), "total": 25, "share": share},
        }

    return {
        "step": step,
        "time": "February 14, 2023, 20:00:00",
        "diffusion": [
            row("Marcus Reed is running for the town council", candidacy),
            row("there is a party at Willow Bean Cafe", party),
        ],
        "relationships": {"density": density, "in_memory": {"density": density}},
        "coordination": [
            {
                "fact": "there is a party at Willow Bean Cafe",
                "invited": ["a"] * 13,
                "attended": ["b"] * came,
                "attended_invited": ["b"] * came,
                "reached": reached,
            }
        ],
    }


def test_a_checkpoint_gives_the_papers_figures_telling_the_party_by_its_event():
    end = figures(checkpoint(9, candidacy=0.36, party=0.6, density=0.8, came=6))
    assert (end["candidacy"], end["party"], end["density"], end["invited"], end["came"]) == (0.36, 0.6, 0.8, 13, 6)
    assert meets(end) == {"candidacy": True, "party": True, "density": True, "came": True}
    short = figures(checkpoint(9, candidacy=0.2, party=0.6, density=0.5, came=4))
    assert meets(short) == {"candidacy": False, "party": True, "density": False, "came": False}


def test_the_table_puts_the_paper_beside_the_run_and_says_when_the_run_is_shorter():
    start = figures(checkpoint(0, candidacy=0.0, party=0.0, density=0.2, came=0, reached=False))
    end = figures(checkpoint(9, candidacy=0.36, party=0.6, density=0.8, came=6))
    lines = table_lines(start, end, hours_run=48, hours_asked=48, model="scripted")
    assert "SHORTER" not in lines[0] and any("4% -> 32%" in l and "0% -> 36%" in l for l in lines)
    assert any("12 / 5" in l and "13 / 6  (6 in the place during the party)" in l for l in lines)
    early = table_lines(
        start,
        figures(checkpoint(3, candidacy=0.1, party=0.2, density=0.3, came=0, reached=False)),
        hours_run=12,
        hours_asked=48,
        model="scripted",
    )
    assert "SHORTER" in early[0] and any("window not reached" in l for l in early)
    assert early[-1] == "(the run reached 12 of the 48 game hours asked)"


def test_a_packed_conversation_counts_once_whether_its_topic_came_with_it_or_was_asked(tmp_path):
    """Packed mode: three conversations written in one call (the second's topic failed, so a summary
    followed in the same step), and one whose call failed and was held line by line."""

    def line(prompt, who, step, fallback=False):
        return {"prompt": prompt, "persona": who, "step": step, "fallback": fallback}

    lines = [
        line("conversation_packed", "Nora", 10),
        line("conversation_packed", "Theo", 10),
        line("summarize_conversation", "Theo", 10),
        line("conversation_packed", "Nora", 40),
        line("conversation_packed", "Iris", 50, fallback=True),
        line("summarize_conversation", "Iris", 50),
    ]
    ledger = tmp_path / "llm_calls.jsonl"
    ledger.write_text("".join(json.dumps(l) + "\n" for l in lines))
    assert conversations(ledger) == 4


def test_the_report_counts_conversations_per_resident_and_game_day(tmp_path):
    sim = tmp_path / "exp"
    (sim / "reverie").mkdir(parents=True)
    lines = [{"prompt": "summarize_conversation"}] * 30 + [{"prompt": "action_packed"}] * 5
    (sim / "reverie" / "llm_calls.jsonl").write_text("".join(json.dumps(l) + "\n" for l in lines))
    (sim / "evaluation.json").write_text(
        json.dumps(
            {
                "checkpoints": [
                    checkpoint(0, candidacy=0.04, party=0.04, density=0.2, came=0, reached=False),
                    checkpoint(9, candidacy=0.36, party=0.6, density=0.8, came=6),
                ]
            }
        )
    )
    held = conversations(sim / "reverie" / "llm_calls.jsonl")
    report = build_report(
        sim,
        sim_code="exp",
        model="scripted",
        hours_asked=48,
        progress={"base": "b", "hours": [{}] * 24},
        residents=25,
        conversations_held=held,
    )
    assert held == 30 and report["conversations_per_agent_day"] == 2.4  # 60 residents' talks over 25 in one day
    assert report["shorter_than_paper"] and report["scripted"] and report["paper"] == paper_figures()
    assert report["end"]["came"] == 6 and report["start"]["party"] == 0.04


def test_resume_needs_a_run_with_progress(tmp_path, monkeypatch):
    from reverie.config import Settings
    from reverie.evaluation import experiment

    settings = Settings()
    settings.paths.storage = tmp_path
    args = experiment_args("--resume", "--sim", "nothing", "--model", "scripted", "--base", "b")
    with pytest.raises(UserError, match="no experiment_progress.json"):
        experiment.main(args, settings)


def test_scripted_needs_no_model_file(write_config):
    from reverie.config import SCRIPTED, load_settings

    settings = load_settings(write_config('[models.strong]\npath = "scripted"\n[models.cheap]\npath = "scripted"\n'))
    assert settings.models.strong.path == settings.models.cheap.path == SCRIPTED


def test_a_resumed_experiment_reports_the_hours_before_and_after_and_keeps_each_hour(tmp_path, monkeypatch):
    """The experiment's own plumbing around ``run_day`` (replaced here: the two days are a
    benchmark): every finished hour is saved and written to the progress file, and the report
    counts the hours of the earlier sitting with those of this one."""
    from reverie.config import Settings
    from reverie.evaluation import experiment, game_day
    from reverie.sim_layout import EXPERIMENT_PROGRESS, EXPERIMENT_REPORT

    settings = Settings()
    settings.paths.storage = tmp_path
    sim_dir = tmp_path / "exp"
    sim_dir.mkdir()
    (sim_dir / EXPERIMENT_PROGRESS).write_text(json.dumps({"base": "b", "hours": [{"hour": 7}]}))
    saved = []

    class Sim:
        personas = {name: None for name in "abc"}

        def save(self):
            saved.append(json.loads((sim_dir / EXPERIMENT_PROGRESS).read_text())["hours"])

    def run_day(settings, ask, *, previous, on_hour, **_):
        progress = dict(previous)
        for hour in range(ask.hours):
            progress = {**progress, "hours": [*progress["hours"], {"hour": 8 + hour}]}
            on_hour(Sim(), progress)
        return progress

    monkeypatch.setattr(game_day, "run_day", run_day)
    args = experiment_args(
        "--hours", "3", "--resume", "--sim", "exp", "--model", "scripted", "--history", "none", "--base", "b"
    )
    assert experiment.main(args, settings) == 0
    assert [len(hours) for hours in saved] == [1, 2]  # saved before each hour's rows are written
    assert [row["hour"] for row in json.loads((sim_dir / EXPERIMENT_PROGRESS).read_text())["hours"]] == [7, 8, 9]
    report = json.loads((sim_dir / EXPERIMENT_REPORT).read_text())
    assert report["hours_run"] == 3 and report["base"] == "b"
    assert report["conversations_per_agent_day"] == 0.0  # three residents, none talked: not a division by zero


def test_any_base_takes_its_seeds_from_a_file_and_one_without_seeds_is_refused(tmp_path):
    """`experiment --base NAME --seeds FILE`: the fork plants the file's seeds in place of the
    base's; a base with no seeds and no file, or a file that is no seeds file, stops with a line."""
    from reverie.evaluation.experiment import _seeds_for
    from reverie.simulation.seeds import read_seeds
    from reverie.simulation.simulation import Simulation
    from tests.forked_base import fork_base

    settings, storage = fork_base(tmp_path, "base_willow_creek", "seedless")
    (storage.dir / "reverie" / "seeds.json").unlink(missing_ok=True)
    with pytest.raises(UserError, match="seedless has no reverie/seeds.json: give --seeds FILE"):
        _seeds_for(settings, "seedless", None)
    bad = tmp_path / "bad.json"
    bad.write_text('{"seeds": 3}')
    with pytest.raises(UserError, match="bad.json: give a list of seeds"):
        _seeds_for(settings, "seedless", bad)
    good = tmp_path / "seeds.json"
    good.write_text(
        json.dumps(
            [
                {
                    "persona": "Nora Bennett",
                    "currently": "Nora Bennett is hosting a picnic.",
                    "question": "Did you know there is a picnic?",
                    "fact": "a picnic",
                }
            ]
        )
    )
    assert _seeds_for(settings, "seedless", good) == good
    sim = Simulation.fork(settings, "seedless", "seeded", seeds=good)
    try:
        assert [s.currently for s in read_seeds(sim.storage.dir)] == ["Nora Bennett is hosting a picnic."]
        assert [s.text for s in sim.personas["Nora Bennett"].seeds.status] == ["Nora Bennett is hosting a picnic."]
    finally:
        sim.close()
