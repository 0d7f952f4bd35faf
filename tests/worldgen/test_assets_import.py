"""`python -m reverie assets import PATH` on the original data laid out like its repository."""

from __future__ import annotations

import argparse

import pytest

from reverie.config import load_settings
from reverie.errors import UserError
from reverie.worldgen import assets_import
from reverie.world import checks


@pytest.fixture
def clone(tmp_path, smallville_dir):
    """<tmp>/clone/environment/frontend_server/{static_dirs,storage} linked to the original data."""
    front = tmp_path / "clone" / "environment" / "frontend_server"
    front.mkdir(parents=True)
    (front / "static_dirs").symlink_to(smallville_dir / "static_dirs", target_is_directory=True)
    (front / "storage").symlink_to(smallville_dir / "storage", target_is_directory=True)
    return tmp_path / "clone"


@pytest.fixture
def settings(write_config):
    return load_settings(write_config('[paths]\nassets = "assets"\nstorage = "storage"\n'), check_files=False)


def run(settings, *argv):
    parser = argparse.ArgumentParser()
    assets_import.configure(parser)
    return assets_import.main(parser.parse_args(list(argv)), settings)


def test_import_then_a_second_import_does_nothing(clone, settings, capsys, smallville_dir):
    assert run(settings, "import", str(clone)) == 0
    assets, storage = settings.paths.assets, settings.paths.storage
    assert "imported" in capsys.readouterr().out
    original = smallville_dir / "static_dirs" / "assets"
    for rel in (
        "the_ville/matrix/maze/collision_maze.csv",
        "the_ville/visuals/the_ville_jan7.json",
        "the_ville/visuals/map_assets/v1/interiors_pt5.png",
        "the_ville/agent_history_init_n3.csv",
        "characters/Klaus_Mueller.png",
        "characters/profile/Maria_Lopez.png",
        "speech_bubble/v3.png",
    ):
        assert (assets / rel).read_bytes() == (original / rel).read_bytes()
    sim = "base_the_ville_isabella_maria_klaus"
    assert (storage / sim / "personas" / "Klaus Mueller" / "bootstrap_memory" / "scratch.json").is_file()
    assert not any(p.name.startswith("July1") for p in storage.iterdir())  # only base_* folders
    assert checks.check_simulation(assets, storage, sim) == []
    before = {p: p.stat().st_mtime_ns for p in assets.rglob("*") if p.is_file()}
    assert run(settings, "import", str(clone / "environment" / "frontend_server")) == 0
    assert "nothing to do" in capsys.readouterr().out
    assert before == {p: p.stat().st_mtime_ns for p in assets.rglob("*") if p.is_file()}


def test_a_wrong_path_is_one_line(tmp_path, settings):
    with pytest.raises(UserError) as err:
        run(settings, "import", str(tmp_path / "nowhere"))
    assert "missing static_dirs/" in str(err.value) and "\n" not in str(err.value)


def test_an_incomplete_clone_lists_what_is_missing(tmp_path, settings, smallville_dir):
    front = tmp_path / "partial" / "environment" / "frontend_server"
    (front / "static_dirs" / "assets").mkdir(parents=True)
    (front / "static_dirs" / "assets" / "characters").symlink_to(
        smallville_dir / "static_dirs" / "assets" / "characters", target_is_directory=True
    )
    with pytest.raises(UserError) as err:
        run(settings, "import", str(tmp_path / "partial"))
    message = str(err.value)
    assert "\n" not in message and "is incomplete: missing" in message
    assert "the_ville/matrix/maze_meta_info.json" in message and "more" in message
    assert not settings.paths.assets.exists()  # nothing copied


def test_existing_different_files_need_force(clone, settings):
    target = settings.paths.assets / "characters" / "Klaus_Mueller.png"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"not the original sprite")
    ours = settings.paths.assets / "speech_bubble" / "v3.png"
    ours.parent.mkdir(parents=True)
    ours.write_bytes(b"the default world's own bubble")
    with pytest.raises(UserError) as err:
        run(settings, "import", str(clone))
    assert "Klaus_Mueller.png" in str(err.value) and "--force" in str(err.value)
    assert target.read_bytes() == b"not the original sprite"
    assert run(settings, "import", str(clone), "--force") == 0
    assert target.read_bytes() != b"not the original sprite"
    assert ours.read_bytes() == b"the default world's own bubble"  # the default world keeps its own


def test_command_line_prints_one_error_line(tmp_path, write_config, monkeypatch, capsys):
    """Through `python -m reverie assets import` (only this command registered, to stay in this room)."""
    from reverie import cli

    monkeypatch.setattr(cli, "COMMANDS", {"assets": cli.COMMANDS["assets"]})
    config = write_config('[paths]\nassets = "assets"\nstorage = "storage"\n')
    assert cli.main(["--config", str(config), "assets", "import", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "nowhere" in err
