"""A figure is one metric registered in one place: registering it puts it into evaluation.json,
the summary `evaluate` prints, experiment.json's and game_day.json's figures and a column of
the run page, with no other file touched; an old run's file, written before the metric existed,
shows it computed from its checkpoint."""

from __future__ import annotations

import json
from argparse import Namespace

import pytest

from reverie.evaluation.evaluation_metrics import METRICS
from reverie.evaluation.evaluation_report import Checkpoint
from reverie.evaluation.metrics import MetricKey, Shown, Unit, metric
from tests.frontend import djangosetup


def answers_per_resident(cp: Checkpoint) -> float | None:
    return round(cp.hallucinations.answers / len(cp.personas), 2) if cp.hallucinations and cp.personas else None


NEW = metric(
    "answers_per_resident", "Answers per resident", Unit.RATIO, answers_per_resident, *Shown
)  # shown everywhere


def test_a_registered_metric_reaches_the_evaluation_file_the_summary_the_reports_and_the_page(tmp_path, monkeypatch):
    """Fake model, fail-safe only (a fast smoke test): the interviews' answers do not matter, the
    metric's value is what our code computes from the checkpoint it wrote."""
    from reverie.config import load_settings
    from reverie.llm import LLM
    from reverie.llm.fake_model import FakeChatModel
    from reverie.evaluation import evaluation
    from reverie.evaluation.experiment_table import figures, table_lines
    from reverie.tasks.registry import product_tasks
    from tests.fuzz.test_fuzz_runs import town

    config, storage = town(tmp_path, "town")
    settings = load_settings(config)
    model = FakeChatModel()
    llm = LLM(
        settings, tasks=product_tasks(), chat_models={"strong": model, "cheap": model}, ledger_path=storage.ledger_path
    )
    said: list[str] = []
    with METRICS.registered(NEW):
        assert evaluation.main(Namespace(sim="town", pairs=None, into=None), settings, llm=llm, say=said.append) == 0
        written = json.loads((storage.dir / "evaluation.json").read_text(encoding="utf-8"))["checkpoints"][0]
        cp = Checkpoint.model_validate(written)
        expected = round(written["hallucinations"]["answers"] / len(written["personas"]), 2)
        assert written["hallucinations"]["answers"] > 0 and written["answers_per_resident"] == expected
        assert f"  Answers per resident  {expected:.3f}" in said
        assert figures(cp)["answers_per_resident"] == expected
        assert METRICS.collect(cp, Shown.GAME_DAY)["answers_per_resident"] == expected
        table = table_lines(figures(cp), figures(cp), hours_run=48, hours_asked=48, model="fake")
        assert any(
            line.startswith("Answers per resident") and f"{expected:.3f} -> {expected:.3f}" in line for line in table
        )
        page = run_page(monkeypatch, config, "town")
        assert "<th>Answers per resident</th>" in page and f"<td>{expected:.3f}</td>" in page
        # A file from before the metric existed: the page computes it from the checkpoint.
        del written["answers_per_resident"]
        written["hallucinations"]["answers"] = 5 * len(written["personas"])
        (storage.dir / "evaluation.json").write_text(json.dumps({"checkpoints": [written]}), encoding="utf-8")
        assert "<td>5.000</td>" in run_page(monkeypatch, config, "town")
    assert "Answers per resident" not in run_page(monkeypatch, config, "town")


def test_two_metrics_shown_in_one_place_cannot_share_a_key_nor_hide_a_checkpoints_field():
    twin = metric(MetricKey.DENSITY, "another density", Unit.RATIO, lambda cp: 0.0, Shown.EXPERIMENT)
    with pytest.raises(ValueError, match="'density' is registered twice for experiment.json"):
        METRICS.register(twin)
    assert twin not in list(METRICS)
    residents = metric("personas", "residents", Unit.COUNT, lambda cp: len(cp.personas), Shown.EVALUATION)
    with METRICS.registered(residents), pytest.raises(ValueError, match="'personas': a checkpoint's own field"):
        METRICS.stamp(Checkpoint(step=1, personas=["A", "B"]))


def run_page(monkeypatch, config, sim: str) -> str:
    monkeypatch.setenv("REVERIE_CONFIG", str(config))
    djangosetup.setup()
    from django.test import Client

    response = Client().get(f"/runs/{sim}/")
    assert response.status_code == 200
    html = response.content.decode()
    return html[html.index("<h2>Evaluation</h2>") : html.index("<h2>Timeline</h2>")]
