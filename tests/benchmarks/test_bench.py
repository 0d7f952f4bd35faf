"""`python -m reverie bench`: fast-forward without model calls, figures that agree with the
ledger, the one-line row, and `bench compare`.

The whole-run tests fork our 3-agent base world `base_willow_creek` into a temporary folder.
One runs a scripted fake chat model that never answers (a failure path: every ask ends in
its fail-safe); the other records a run with the real bundled model and replays it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.cli import build_parser
from reverie.config import load_settings
from reverie.errors import UserError
from reverie.benchmarks import bench
from reverie.benchmarks.bench_figures import ROW_KEYS, figures, row, totals
from reverie.simulation.fast_forward import fast_forward, target_time
from reverie.jsonio import read_json
from reverie.llm.fake_model import FakeChatModel
from reverie.simulation.storage import SimStorage, fork
from reverie.prompt_tools.evaluate import read_ledger

BASE = "base_willow_creek"
CONFIG = PROJECT_ROOT / "config.toml"


@pytest.fixture(scope="module")
def settings():
    return load_settings(CONFIG)


def report_file(path: Path, **fig) -> Path:
    figures_ = {
        "agents": 3,
        "game_minutes": 60,
        "calls_per_agent_hour": 20.0,
        "prompt_tokens_per_call": 400.0,
        "completion_tokens_per_call": 30.0,
        "wall_s": 100.0,
        "model_share": 0.9,
        "overhead_share": 0.1,
        "cache_hit": None,
        "fallbacks": 4,
        **fig,
    }
    path.write_text(json.dumps({"settings": {"packed": "packed" in path.name}, "figures": figures_}))
    return path


def run_cli(argv: list[str], settings) -> int:
    args = build_parser("bench").parse_args(["bench", *argv])
    return bench.main(args, settings)


# -- compare ---------------------------------------------------------------------------------


def test_compare_prints_both_runs_and_the_ratios_last(tmp_path, settings, capsys):
    a = report_file(tmp_path / "faithful.json")
    b = report_file(
        tmp_path / "packed.json",
        calls_per_agent_hour=8.0,
        prompt_tokens_per_call=600.0,
        wall_s=50.0,
        model_share=0.8,
        overhead_share=0.2,
        cache_hit=0.5,
        fallbacks=0,
    )
    assert run_cli(["compare", str(a), str(b)], settings) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].split() == ["figure", "faithful.json", "packed.json", "B/A"]
    table = {line.split()[0]: line.split()[1:] for line in lines[1 : len(ROW_KEYS) + 1]}
    assert list(table) == list(ROW_KEYS)
    assert table["calls_per_agent_hour"] == ["20.0", "8.0", "0.400"]
    assert table["wall_s"] == ["100.0", "50.0", "0.500"]
    assert table["cache_hit"] == ["n/a", "0.500", "n/a"]  # unmeasured in A: no ratio
    assert table["fallbacks"] == ["4", "0", "0.000"]
    assert "A: packed=False" in lines and "B: packed=True" in lines
    last = dict(item.split("=") for item in lines[-1].split()[1:])
    assert lines[-1].startswith("ratio_b_over_a ") and list(last) == list(ROW_KEYS)
    assert last["agents"] == "1.000" and last["prompt_tokens_per_call"] == "1.500"


def test_compare_warns_when_the_runs_differ_in_size(tmp_path, settings, capsys):
    a, b = report_file(tmp_path / "a.json"), report_file(tmp_path / "b.json", game_minutes=30)
    run_cli(["compare", str(a), str(b)], settings)
    assert "differ in agents or game minutes" in capsys.readouterr().out


def test_compare_rejects_a_file_that_is_not_a_report(tmp_path, settings):
    a = report_file(tmp_path / "a.json")
    (tmp_path / "x.json").write_text('{"calls": 3}')
    with pytest.raises(UserError, match="not a bench report"):
        run_cli(["compare", str(a), str(tmp_path / "x.json")], settings)
    with pytest.raises(UserError, match="no such bench report"):
        run_cli(["compare", str(a), str(tmp_path / "missing.json")], settings)


# -- figures -----------------------------------------------------------------------------------


def test_figures_are_sums_of_the_ledger_over_the_run():
    lines = [
        {
            "prompt": "a",
            "attempts": 1,
            "fallback": False,
            "prompt_tokens": 100,
            "completion_tokens": 10,
            "latency_s": 1.0,
        },
        {
            "prompt": "b",
            "attempts": 3,
            "fallback": True,
            "prompt_tokens": 300,
            "completion_tokens": 30,
            "latency_s": 2.0,
        },
    ]
    total = totals(lines)
    assert total == {
        "calls": 2,
        "attempts": 4,
        "fallbacks": 1,
        "prompt_tokens": 400,
        "completion_tokens": 40,
        "latency_s": 3.0,
        "cached_tokens": None,
    }
    fig = figures(total, agents=2, game_minutes=30, wall_s=4.0, cached_tokens=100)
    assert fig["calls_per_agent_hour"] == 2.0 and fig["prompt_tokens_per_call"] == 200.0
    assert (fig["model_share"], fig["overhead_share"], fig["cache_hit"]) == (0.75, 0.25, 0.25)
    assert row(fig) == (
        "agents=2 game_minutes=30 calls_per_agent_hour=2.0 prompt_tokens_per_call=200.0 "
        "completion_tokens_per_call=20.0 wall_s=4.0 model_share=0.750 overhead_share=0.250 "
        "cache_hit=0.250 fallbacks=1"
    )
    # A ledger whose lines say how many prompt tokens came from the cache is used as is.
    assert totals([{**line, "cached_tokens": 50} for line in lines])["cached_tokens"] == 100


# -- fast-forward ------------------------------------------------------------------------------


def test_target_is_the_next_such_time_on_the_step_grid():
    now = datetime(2023, 2, 13, 0, 0, 0)
    assert target_time(now, "08:00", 10) == datetime(2023, 2, 13, 8, 0, 0)
    assert target_time(datetime(2023, 2, 13, 9, 0, 0), "08:00", 10) == datetime(2023, 2, 14, 8, 0, 0)
    assert target_time(datetime(2023, 2, 13, 7, 59, 55), "08:00", 10) == datetime(2023, 2, 13, 8, 0, 5)
    with pytest.raises(UserError, match="HH:MM"):
        target_time(now, "8 am", 10)


def test_fast_forward_moves_only_the_clock_and_the_positions(tmp_path, settings):
    (tmp_path / BASE).symlink_to(settings.paths.storage / BASE)
    storage = fork(tmp_path, BASE, "ff")
    before = {p: p.read_bytes() for p in storage.personas_dir.rglob("*") if p.is_file()}
    step, when = fast_forward(storage, "08:00")
    meta = storage.read_meta()
    assert (step, meta["step"], meta["curr_time"]) == (2880, 2880, "February 13, 2023, 08:00:00")
    assert when == datetime(2023, 2, 13, 8)
    assert storage.read_environment(2880) == storage.read_environment(0)
    assert {p: p.read_bytes() for p in storage.personas_dir.rglob("*") if p.is_file()} == before
    assert read_json(settings.paths.storage / BASE / "reverie" / "meta.json")["step"] == 0  # the base is untouched
    # Earlier in the day than now: the next day's 07:00, never backwards.
    step, when = fast_forward(storage, "07:00")
    assert (step, when) == (2880 + 23 * 360, datetime(2023, 2, 14, 7))


# -- whole runs ----------------------------------------------------------------------------------


def check_report_against_ledger(report: dict, ledger: list[dict], minutes: int) -> None:
    fig, total = report["figures"], report["totals"]
    assert fig["agents"] == 3 and fig["game_minutes"] == minutes and report["steps"] == minutes * 6
    assert total["calls"] == len(ledger) > 0
    assert total["fallbacks"] == fig["fallbacks"] == sum(1 for line in ledger if line["fallback"])
    assert total["prompt_tokens"] == sum(line["prompt_tokens"] for line in ledger)
    assert fig["calls_per_agent_hour"] == pytest.approx(len(ledger) / (3 * minutes / 60))
    assert fig["prompt_tokens_per_call"] == pytest.approx(total["prompt_tokens"] / len(ledger))
    assert fig["completion_tokens_per_call"] == pytest.approx(
        sum(line["completion_tokens"] for line in ledger) / len(ledger)
    )
    latency = sum(line["latency_s"] for line in ledger)
    assert fig["model_share"] == pytest.approx(latency / fig["wall_s"], abs=1e-3)
    assert fig["overhead_share"] == pytest.approx(1 - fig["model_share"])
    assert sum(r["calls"] for r in report["per_prompt"].values()) == len(ledger)
    # Fast-forwarded: no call before 08:00, and the day is planned at 08:00.
    assert min(line["step"] for line in ledger) == 2880
    first = [line for line in ledger if line["prompt"] == "wake_up_hour"]
    assert len(first) == 3 and {line["game_time"] for line in first} == {"February 13, 2023, 08:00:00"}
    planning = [
        line
        for line in ledger
        if line["prompt"] in ("wake_up_hour", "daily_plan", "hourly_schedule", "hourly_schedule_packed")
    ]
    assert report["day_planning_calls"] == len(planning) >= 9
    awake = report["awake_agent_hours"]
    assert report["calls_per_awake_agent_hour_besides_day_planning"] == pytest.approx(
        (len(ledger) - len(planning)) / awake
    )


@pytest.mark.slow
def test_bench_figures_agree_with_the_ledger_when_every_ask_fails(settings):
    """Failure path, with the fake chat model in its fail-safe-only mode (it never answers with JSON)."""
    fake = FakeChatModel()
    report = bench.run_bench(
        settings, fork=BASE, start="08:00", minutes=2, keep=True, chat_models={"strong": fake, "cheap": fake}
    )
    root = Path(report["sim_dir"]).parents[1]
    try:
        ledger = read_ledger(Path(report["sim_dir"]) / "reverie" / "llm_calls.jsonl")
        check_report_against_ledger(report, ledger, 2)
        assert report["figures"]["fallbacks"] == len(ledger)  # nothing valid came back
        # the fake model gives the same garbage again after the correction, so each ask is asked afresh at its
        # second attempt and ends on the fail-safe at its third
        assert all(line["attempts"] == 3 for line in ledger)
        assert report["totals"]["attempts"] == 3 * len(ledger) == len(ledger) * settings.repair.max_attempts
        assert report["figures"]["cache_hit"] is None  # not a llama.cpp model: nothing to measure
        assert report["start"]["time"] == "February 13, 2023, 08:00:00"
        assert report["end"]["time"] == "February 13, 2023, 08:02:00"
        meta = SimStorage(root / "storage", "bench").read_meta()
        assert meta["step"] == 2892 and meta["fork_sim_code"] == BASE
    finally:
        import shutil

        shutil.rmtree(root, ignore_errors=True)
    assert not root.exists()


def reverie(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.run(
        [sys.executable, "-m", "reverie", "--config", str(CONFIG), *args],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=3000,
    )


@pytest.mark.slow
def test_bench_with_the_bundled_model_then_its_replay(tmp_path, settings):
    """2 game minutes from 08:00 with the real bundled model (recorded), then the same run replayed.
    A real model on purpose: the prompt cache's hit rate and the model's share of the time are
    llama.cpp's own figures. Packed, so the three first days are planned in 15 calls rather than
    the faithful mode's 82 (49 of them the hour-by-hour schedule): the figures are read alike in
    both modes, and the faithful first days on the bundled model are the session's run of the_ville
    (tests/the_ville_run.py)."""
    cassette = tmp_path / "calls.jsonl"
    live = bench.run_bench(
        settings, fork=BASE, start="08:00", minutes=2, model="bundled", packed=True, record=cassette, keep=True
    )
    try:
        ledger = read_ledger(Path(live["sim_dir"]) / "reverie" / "llm_calls.jsonl")
        check_report_against_ledger(live, ledger, 2)
        assert sum(line["completion_tokens"] for line in ledger) > 0
        assert live["totals"]["cache_source"] == "ledger"
        assert all(isinstance(line["cached_tokens"], int) for line in ledger)
        assert 0.0 < live["figures"]["cache_hit"] < 1.0  # the system text is shared; the user text is not
        assert 0.0 < live["figures"]["model_share"] <= 1.0
    finally:
        import shutil

        shutil.rmtree(Path(live["sim_dir"]).parents[1], ignore_errors=True)

    out = tmp_path / "replay.json"
    proc = reverie(
        "bench",
        "--fork",
        BASE,
        "--start",
        "08:00",
        "--minutes",
        "2",
        "--packed",
        "--replay",
        str(cassette),
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    last = proc.stdout.strip().splitlines()[-1]
    values = dict(item.split("=") for item in last.split())
    assert list(values) == list(ROW_KEYS)
    replay = json.loads(out.read_text())
    assert values["agents"] == "3" and values["cache_hit"] == "n/a"
    assert replay["totals"]["calls"] == live["totals"]["calls"]  # the same decisions, call for call
    assert {k: v["calls"] for k, v in replay["per_prompt"].items()} == {
        k: v["calls"] for k, v in live["per_prompt"].items()
    }
    assert replay["figures"]["fallbacks"] == live["figures"]["fallbacks"]
    assert replay["figures"]["model_share"] < live["figures"]["model_share"]  # no model: engine time only


@pytest.mark.slow
def test_packed_mode_asks_one_prompt_instead_of_the_action_pipeline(settings):
    """Failure path, with the fake chat model in its fail-safe-only mode (it never answers with
    JSON): the packed run's new actions go through `action_packed` (its fail-safe), never the
    faithful prompts."""
    fake = FakeChatModel()
    report = bench.run_bench(
        settings,
        fork=BASE,
        start="08:00",
        minutes=1,
        packed=True,
        keep=True,
        chat_models={"strong": fake, "cheap": fake},
    )
    root = Path(report["sim_dir"]).parents[1]
    try:
        prompts = {line["prompt"] for line in read_ledger(Path(report["sim_dir"]) / "reverie" / "llm_calls.jsonl")}
        assert "action_packed" in prompts and "warning" not in report
        assert not prompts & {"action_sector", "action_arena", "action_object", "act_obj_desc"}
    finally:
        import shutil

        shutil.rmtree(root, ignore_errors=True)
