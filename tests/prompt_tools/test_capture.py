"""`prompts capture SIM`: a run's traced calls as eval cases.

The trace here is written by the real chain around a scripted fake model (FakeChatModel), so
the test knows which calls fell back; the real run (bundled model) is in test_capture_real_run.py.
"""

from __future__ import annotations

import json

import pytest

from reverie.cli import build_parser
from reverie.config import Settings
from reverie.errors import UserError
from reverie.sim_layout import SimLayout
from reverie.prompt_tools import cli
from reverie.prompt_tools.fixtures import load_fixture
from tests.tasks.planning_support import traced_llm

SIM = "traced"


@pytest.fixture
def settings(tmp_path) -> Settings:
    s = Settings()
    s.paths.storage = tmp_path / "storage"
    (s.paths.storage / SIM / "reverie").mkdir(parents=True)
    return s


def trace_calls(settings: Settings, calls: list[tuple[str, dict, list[str]]]) -> None:
    """Each (persona, inputs, replies) asked of wake_up_hour through the real chain, traced into SIM."""
    layout = SimLayout(settings.paths.storage / SIM)
    case = load_fixture("wake_up_hour").cases[0]
    for step, (persona, inputs, replies) in enumerate(calls):
        llm = traced_llm(settings, layout, replies)
        llm.set_clock(step, f"February 13, 2023, 0{step}:00:00")
        llm.ask("wake_up_hour", {**case.inputs, **inputs}, choices=case.choices, persona=persona)


def capture(settings: Settings, *args: str) -> int:
    parsed = build_parser("prompts").parse_args(["prompts", "capture", *args])
    return cli.main(parsed, settings)


def written(folder, name="wake_up_hour") -> list[dict]:
    return json.loads((folder / f"{name}.json").read_text())["cases"]


def test_calls_with_the_same_inputs_are_one_case_and_only_failed_keeps_fallbacks(settings, tmp_path, capsys):
    never = ["no", "no!", "no!!"]
    trace_calls(
        settings,
        [
            ("Isabella Rodriguez", {}, ['{"hour": 6}']),
            ("Isabella Rodriguez", {}, ['{"hour": 6}']),  # the same inputs again: one case
            ("Maria Lopez", {"first_name": "Maria"}, never),
            ("Klaus Mueller", {"first_name": "Klaus"}, ['{"hour": 7}']),
        ],
    )
    out = tmp_path / "cases"
    assert capture(settings, SIM, "--out", str(out)) == 0
    cases = written(out)
    assert [c["inputs"]["first_name"] for c in cases] == ["Isabella", "Maria", "Klaus"]
    assert [c["source"]["outcome"] for c in cases] == ["valid", "fallback", "valid"]
    assert cases[1]["source"] | {"sim": SIM} == {
        "sim": SIM,
        "step": 2,
        "game_time": "February 13, 2023, 02:00:00",
        "persona": "Maria Lopez",
        "outcome": "fallback",
        "attempts": 3,
    }
    assert "3 case(s) of 1 prompt(s) from 4 traced call(s)" in capsys.readouterr().out
    # The cases load as fixtures do, with their choices.
    fixture = load_fixture("wake_up_hour", out)
    assert len(fixture.cases) == 3 and fixture.cases[0].choices == load_fixture("wake_up_hour").cases[0].choices

    failed = tmp_path / "failed"
    capture(settings, SIM, "--out", str(failed), "--only-failed")
    assert [c["inputs"]["first_name"] for c in written(failed)] == ["Maria"]

    first = tmp_path / "first"
    capture(settings, SIM, "--out", str(first), "--n", "1")
    assert [c["inputs"]["first_name"] for c in written(first)] == ["Isabella"]
    capture(settings, SIM, "--out", str(first), "--n", "2")  # a second capture adds only the new case
    assert [c["inputs"]["first_name"] for c in written(first)] == ["Isabella", "Maria"]

    capture(settings, SIM, "--out", str(tmp_path / "none"), "--prompt", "daily_plan")
    assert not (tmp_path / "none" / "wake_up_hour.json").exists()


def test_capture_and_eval_cases_errors_are_one_line(settings, tmp_path):
    with pytest.raises(UserError, match="no simulation 'missing'"):
        capture(settings, "missing", "--out", str(tmp_path / "x"))
    with pytest.raises(UserError, match="no call trace"):
        capture(settings, SIM, "--out", str(tmp_path / "x"))
    trace_calls(settings, [("Isabella Rodriguez", {}, ['{"hour": 6}'])])
    (tmp_path / "file").write_text("")
    with pytest.raises(UserError, match="not a folder"):
        capture(settings, SIM, "--out", str(tmp_path / "file"))
    with pytest.raises(UserError, match="no prompt named 'nope'"):
        capture(settings, SIM, "--out", str(tmp_path / "x"), "--prompt", "nope")
    (tmp_path / "empty").mkdir()
    evaluate = build_parser("prompts").parse_args(["prompts", "eval", "--cases", str(tmp_path / "empty")])
    with pytest.raises(UserError, match="no case file for any prompt"):
        cli.main(evaluate, settings)
    compare = build_parser("prompts").parse_args(
        ["prompts", "eval", "--prompt", "wake_up_hour", "--compare", "bundled", "no-such-thing"]
    )
    with pytest.raises(UserError, match="not a prompts folder, a git revision"):
        cli.main(compare, settings)
