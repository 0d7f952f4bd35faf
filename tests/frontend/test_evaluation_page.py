"""The evaluation section of /runs/<sim>/: figures over checkpoints and the who-knows-whom graph."""

from __future__ import annotations

import json
import re

import pytest

from tests.frontend import synthetic

SIM = synthetic.SIM
NAMES = ["Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"]


def checkpoint(step, edges, knows_party):
    return {
        "step": step,
        "time": f"February 13, 2023, 0{step}:00:00",
        "personas": NAMES,
        "diffusion": [
            {
                "fact": "there is a party at the cafe",
                "seeded_to": NAMES[0],
                "count": len(knows_party),
                "total": 3,
                "share": round(len(knows_party) / 3, 4),
                "knows": knows_party,
                "answers": {},
            }
        ],
        "relationships": {
            "pairs": 3,
            "known_pairs": len(edges),
            "density": round(len(edges) / 3, 4),
            "edges": edges,
            "answers": {},
        },
        "coordination": [
            {
                "fact": "there is a party at the cafe",
                "host": NAMES[0],
                "place": "Hobbs Cafe:cafe",
                "window": ["February 13, 2023, 00:30", "February 13, 2023, 19:00"],
                "invited": knows_party[1:],
                "attended": ["Maria Lopez"],
                "steps_at_place": {},
                "attended_invited": [],
            }
        ],
    }


def test_the_run_page_shows_the_evaluation(client, world):
    data = {
        "sim_code": SIM,
        "checkpoints": [
            checkpoint(1, [[NAMES[0], NAMES[1]]], [NAMES[0]]),
            checkpoint(6, [[NAMES[0], NAMES[1]], [NAMES[1], NAMES[2]]], [NAMES[0], NAMES[2]]),
        ],
    }
    (world / "storage" / SIM / "evaluation.json").write_text(json.dumps(data))
    html = client.get(f"/runs/{SIM}/").content.decode()
    section = html[html.index("<h2>Evaluation</h2>") : html.index("<h2>Timeline</h2>")]
    rows = section.split("<tr>")[2:]
    assert len(rows) == 2
    assert "<td>1</td>" in rows[0] and "<td>0.333</td>" in rows[0] and "<td>1 / 3</td>" in rows[0]
    assert "<td>6</td>" in rows[1] and "<td>0.667</td>" in rows[1] and "<td>2 / 3</td>" in rows[1]
    assert "1 invited, 1 came (0 of those invited): Maria Lopez" in rows[1]
    data["checkpoints"][1]["coordination"][0].update(reached=False, attended=[])
    (world / "storage" / SIM / "evaluation.json").write_text(json.dumps(data))
    later = client.get(f"/runs/{SIM}/").content.decode()
    assert "not reached yet (1 invited)" in later and "not reached yet" not in html
    # A file without "reached": the checkpoint's time (06:00 here) before the window's start (17:00) says it.
    del data["checkpoints"][1]["coordination"][0]["reached"]
    data["checkpoints"][1]["coordination"][0]["window"][0] = "February 13, 2023, 17:00"
    (world / "storage" / SIM / "evaluation.json").write_text(json.dumps(data))
    assert "not reached yet (1 invited)" in client.get(f"/runs/{SIM}/").content.decode()
    # Two charts over the checkpoints and the graph of the latest one: an edge per known pair.
    assert section.count("<svg") == 3
    graph = section[section.index('class="chart graph"') :]
    assert graph.count('<line class="edge"') == 2 and graph.count('<circle class="node"') == 3
    assert "Who knows whom at step 6 (2 pairs)" in graph


def test_a_sampled_evaluation_says_how_many_pairs_were_asked_and_its_interval(client, world):
    cp = checkpoint(6, [[NAMES[0], NAMES[1]]], [NAMES[0]])
    cp["relationships"].update(pairs=300, pairs_asked=2, density=0.5, sampled=True, interval=[0.0946, 0.9054])
    (world / "storage" / SIM / "evaluation.json").write_text(json.dumps({"sim_code": SIM, "checkpoints": [cp]}))
    html = client.get(f"/runs/{SIM}/").content.decode()
    row = html[html.index("<h2>Evaluation</h2>") : html.index("<h2>Timeline</h2>")].split("<tr>")[2]
    assert "<td>0.500 (95 % interval 0.095–0.905)</td>" in row
    assert "<td>1 / 2 asked, a sample of 300</td>" in row


def test_the_figures_read_from_memory_stand_under_the_interviews(client, world):
    cp = checkpoint(6, [[NAMES[0], NAMES[1]], [NAMES[1], NAMES[2]]], [NAMES[0], NAMES[1], NAMES[2]])
    cp["diffusion"][0]["in_memory"] = {"count": 1, "total": 3, "share": 0.3333, "holders": [NAMES[0]]}
    cp["relationships"]["in_memory"] = {"pairs": 3, "known_pairs": 1, "density": 0.3333, "edges": [NAMES[:2]]}
    (world / "storage" / SIM / "evaluation.json").write_text(json.dumps({"sim_code": SIM, "checkpoints": [cp]}))
    html = client.get(f"/runs/{SIM}/").content.decode()
    row = html[html.index("<h2>Evaluation</h2>") : html.index("<h2>Timeline</h2>")].split("<tr>")[2]
    assert "<td>0.667<br><small>in memory: 0.333</small></td>" in row
    assert "<td>2 / 3<br><small>in memory: 1 / 3</small></td>" in row
    assert "<td>3 / 3<br><small>in memory: 1 / 3</small></td>" in row


def test_a_run_not_evaluated_says_how_and_a_broken_file_is_named(client, world):
    html = client.get(f"/runs/{SIM}/").content.decode()
    assert f"python -m reverie evaluate {SIM}" in html
    (world / "storage" / SIM / "evaluation.json").write_text("{broken")
    r = client.get(f"/runs/{SIM}/")
    assert r.status_code == 200 and b"evaluation.json cannot be read" in r.content


def test_the_diffusion_chart_puts_the_facts_side_by_side_on_a_scale_of_one(client, world):
    """Shares of different facts do not add up: 52 % and 64 % are two columns on 0-1, not one of 1.16."""
    cp = checkpoint(6, [], [NAMES[0]])
    council = dict(cp["diffusion"][0], fact="Sam is running for mayor", share=0.52)
    cp["diffusion"] = [council, dict(cp["diffusion"][0], share=0.64)]
    (world / "storage" / SIM / "evaluation.json").write_text(json.dumps({"sim_code": SIM, "checkpoints": [cp]}))
    html = client.get(f"/runs/{SIM}/").content.decode()
    chart = html[html.index('aria-label="Information diffusion') :]
    chart = chart[: chart.index("</svg>")]
    rects = [
        tuple(float(v) for v in m)
        for m in re.findall(
            r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="[^"]+"><title>', chart
        )
    ]
    (x1, y1, w1, h1), (x2, y2, w2, h2) = rects
    assert x2 >= x1 + w1  # side by side, not stacked
    assert y1 + h1 == pytest.approx(y2 + h2)  # both stand on the axis
    assert h2 / h1 == pytest.approx(0.64 / 0.52, rel=0.01)
    assert '<text x="44" y="32" font-size="10" text-anchor="end">1</text>' in chart  # the scale's top is 1


def test_an_experiment_shows_its_table_beside_the_papers(client, world):
    from reverie.evaluation.experiment_table import table_lines

    end = {
        "candidacy": 0.4,
        "candidacy_in_memory": 0.36,
        "party": 0.6,
        "party_in_memory": 0.56,
        "density": 0.8,
        "density_in_memory": 0.78,
        "invited": 14,
        "came": 6,
        "window_reached": True,
    }
    lines = table_lines({"candidacy": 0.0, "party": 0.04}, end, hours_run=30, hours_asked=48, model="scripted")
    data = {
        "table": lines,
        "hours_run": 30,
        "hours_asked": 48,
        "conversations": 120,
        "conversations_per_agent_day": 7.68,
        "scripted": True,
    }
    (world / "storage" / SIM / "experiment.json").write_text(json.dumps(data))
    html = client.get(f"/runs/{SIM}/").content.decode()
    section = html[html.index("<h2>Experiment</h2>") : html.index("<h2>Evaluation</h2>")]
    assert "4% -&gt; 52%" in section and "4% -&gt; 60%" in section and "14 / 6" in section
    assert "SHORTER than the paper" in section and "30 of 48 game hours run" in section
    assert "not the agents' behaviour" in section


def test_the_papers_method_shows_said_yes_the_unsupported_and_the_hallucination_rate(client, world):
    """Knowing (said yes and the memories support it) stands first; every yes, those with no memory
    of it, the invited who came and the paper's own figures beside."""
    cp = checkpoint(30, [[NAMES[0], NAMES[1]]], [NAMES[0]])
    cp["diffusion"][0].update(said_yes={"count": 3, "total": 3, "share": 1.0}, unsupported=NAMES[1:])
    cp["relationships"]["said_yes"] = {"pairs": 3, "known_pairs": 2, "density": 0.6667, "edges": [NAMES[:2], NAMES[1:]]}
    cp["coordination"][0].update(invited=NAMES[1:], attended=NAMES[1:2], attended_invited=NAMES[1:2], reached=True)
    cp["hallucinations"] = {"answers": 9, "yes": 5, "unsupported": 2}
    (world / "storage" / SIM / "evaluation.json").write_text(json.dumps({"sim_code": SIM, "checkpoints": [cp]}))
    html = client.get(f"/runs/{SIM}/").content.decode()
    section = html[html.index("<h2>Evaluation</h2>") : html.index("<h2>Timeline</h2>")]
    row = section.split("<tr>")[2]
    assert "<td>0.333<br><small>both said yes: 0.667</small></td>" in row
    assert "<td>1 / 3<br><small>said yes: 3, 2 with no memory of it</small></td>" in row
    assert "2 invited, 1 came (1 of those invited): Maria Lopez" in row
    assert "<td>2 of 9 answers (22.2%)</td>" in row
    assert "the paper, two days: candidacy 1 -&gt; 8 of 25 (4% -&gt; 32%)" in section
    assert "12 invited and 5 came, hallucinations 6 of 453 (1.3%)" in section
    # The graph draws the pairs who know each other, not those who both said yes.
    assert section[section.index('class="chart graph"') :].count('<line class="edge"') == 1


def test_an_evaluation_file_with_a_figure_of_the_wrong_kind_is_named(client, world):
    cp = checkpoint(6, [], [NAMES[0]])
    cp["relationships"]["density"] = "high"
    (world / "storage" / SIM / "evaluation.json").write_text(json.dumps({"sim_code": SIM, "checkpoints": [cp]}))
    html = client.get(f"/runs/{SIM}/").content.decode()
    assert "evaluation.json cannot be read: checkpoints.0.relationships.density:" in html
