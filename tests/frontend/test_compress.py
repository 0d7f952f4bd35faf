"""`python -m reverie compress SIM`: the original demo format, built from movement files."""

from __future__ import annotations

import argparse
import json
import shutil

import pytest

from reverie.errors import UserError
from reverie.console import compress as compress_cmd
from tests.frontend import synthetic

FIELDS = {"movement", "pronunciatio", "description", "chat"}


def run_cli(settings, *argv) -> int:
    parser = argparse.ArgumentParser()
    compress_cmd.configure(parser)
    return compress_cmd.main(parser.parse_args(list(argv)), settings)


def test_compress_keeps_only_changes(world, settings_for, capsys):
    assert run_cli(settings_for, synthetic.SIM) == 0
    assert "compressed_storage" in capsys.readouterr().out
    out = world / "compressed_storage" / synthetic.SIM
    master = json.loads((out / "master_movement.json").read_text())
    assert list(master) == [str(i) for i in range(synthetic.STEPS)]
    assert set(master["0"]) == set(synthetic.START)
    assert all(set(rec) == FIELDS for step in master.values() for rec in step.values())
    # Maria only changes at step 5; Klaus stops moving after step 10 but starts chatting at 12.
    assert "Maria Lopez" not in master["1"] and "Maria Lopez" in master["5"]
    assert "Klaus Mueller" not in master["11"] and master["12"]["Klaus Mueller"]["chat"]
    assert json.loads((out / "meta.json").read_text()) == json.loads(
        (world / "storage" / synthetic.SIM / "reverie" / "meta.json").read_text()
    )
    assert (out / "personas" / "Klaus Mueller" / "bootstrap_memory" / "scratch.json").is_file()
    # The demo format keeps emoji as \\u escapes, like the original.
    assert "\\ud83d" in (out / "master_movement.json").read_text()


def test_carrying_changes_forward_reproduces_every_step(world, settings_for):
    out = compress_cmd.compress(settings_for, synthetic.SIM)
    master = json.loads((out / "master_movement.json").read_text())
    state: dict = {}
    for step in range(synthetic.STEPS):
        for name, rec in master[str(step)].items():
            state[name] = rec
        assert state == synthetic.movement(step)["persona"], step


def test_compress_the_original_sample(world, settings_for, smallville_dir):
    sample = "July1_the_ville_isabella_maria_klaus-step-3-20"
    synthetic.copy_writable(smallville_dir / "storage" / sample, world / "storage" / sample)
    out = compress_cmd.compress(settings_for, sample)
    master = json.loads((out / "master_movement.json").read_text())
    assert list(master) == ["0", "1", "2", "3", "4"]
    assert set(master["0"]) == {"Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"}
    original = json.loads((smallville_dir / "storage" / sample / "movement" / "3.json").read_text())["persona"]
    state: dict = {}
    for step in range(4):
        state.update(master[str(step)])
    assert state == original
    assert json.loads((out / "meta.json").read_text())["step"] == 8655
    assert not (out / "personas").exists()  # the sample has no persona folders


def test_recompress_replaces_the_old_output(world, settings_for):
    out = compress_cmd.compress(settings_for, synthetic.SIM)
    (out / "stale.txt").write_text("old")
    compress_cmd.compress(settings_for, synthetic.SIM)
    assert not (out / "stale.txt").exists()
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]


def test_gap_in_movement_is_a_user_error(world, settings_for):
    (world / "storage" / synthetic.SIM / "movement" / "7.json").unlink()
    with pytest.raises(UserError, match="movement/7.json is missing"):
        compress_cmd.compress(settings_for, synthetic.SIM)
    assert not (world / "compressed_storage" / synthetic.SIM).exists()


@pytest.mark.parametrize("name", ["nope", "../storage", ".", ""])
def test_unknown_simulation_is_a_user_error(world, settings_for, name):
    with pytest.raises(UserError, match="no simulation"):
        compress_cmd.compress(settings_for, name)


def test_no_movement_yet_is_a_user_error(world, settings_for):
    shutil.rmtree(world / "storage" / synthetic.SIM / "movement")
    with pytest.raises(UserError, match="run the simulation first"):
        compress_cmd.compress(settings_for, synthetic.SIM)


def test_a_run_whose_clock_was_moved_forward_compresses(world, settings_for):
    """Like `bench --start 08:00`: the first movement file is not step 0."""
    movement = world / "storage" / synthetic.SIM / "movement"
    first = 4
    for step in range(first):
        (movement / f"{step}.json").unlink()
    out = compress_cmd.compress(settings_for, synthetic.SIM)
    master = json.loads((out / "master_movement.json").read_text())
    assert list(master) == [str(i) for i in range(synthetic.STEPS)]
    assert master["0"] == synthetic.movement(first)["persona"]  # everyone, as at the first step
    assert all(master[str(step)] == {} for step in range(1, first + 1))
    state: dict = {}
    for step in range(synthetic.STEPS):
        for name, rec in master[str(step)].items():
            state[name] = rec
        if step >= first:
            assert state == synthetic.movement(step)["persona"], step
    assert compress_cmd.first_step(world / "storage" / synthetic.SIM) == first


def test_a_gap_inside_the_run_is_still_refused(world, settings_for):
    (world / "storage" / synthetic.SIM / "movement" / "6.json").unlink()
    with pytest.raises(UserError) as refused:
        compress_cmd.compress(settings_for, synthetic.SIM)
    assert "movement/6.json is missing" in str(refused.value)
