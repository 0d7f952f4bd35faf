"""``--record FILE | --replay FILE`` on the three commands that run a town: one or the other, and a
cassette to replay that is not there stops the command with one line naming it, before anything
is forked."""

from __future__ import annotations

import pytest

from reverie import cli


@pytest.mark.parametrize(
    "command",
    [
        ["server", "--fork", "base_willow_creek", "--sim", "new"],
        ["run", "--steps", "1", "--fork", "base_willow_creek", "--sim", "new"],
        ["bench", "--fork", "base_willow_creek"],
    ],
    ids=["server", "run", "bench"],
)
def test_a_missing_cassette_stops_the_command_before_anything_is_forked(command, tmp_path, write_config, capsys):
    config = write_config(f'[paths]\nstorage = "{tmp_path / "storage"}"\ntemp_storage = "{tmp_path / "temp"}"\n')
    missing = tmp_path / "no-such-cassette.jsonl"
    assert cli.main(["--config", str(config), *command, "--replay", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --replay ") and err.count("\n") == 1 and str(missing) in err
    assert not (tmp_path / "storage").exists() and not (tmp_path / "temp").exists()


@pytest.mark.parametrize("command", [["server"], ["run", "--steps", "1"], ["bench"]], ids=["server", "run", "bench"])
def test_record_and_replay_are_one_or_the_other(command, tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.main([*command, "--record", str(tmp_path / "a"), "--replay", str(tmp_path / "b")])
    assert stopped.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
