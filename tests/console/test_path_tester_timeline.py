"""Path-tester mode collects the places around the camera; the timeline reads like a log."""

import json
from datetime import datetime

from reverie.console.path_tester import path_tester_loop
from reverie.simulation.timeline import Timeline
from reverie.world.maze import Maze


def test_path_tester_turns_a_camera_position_into_a_spatial_tree(tmp_path, smallville_dir):
    maze = Maze.load(smallville_dir / "static_dirs" / "assets", "the_ville")
    (tmp_path / "path_tester_env.json").write_text(json.dumps({"maze": "the_ville", "x": 72 * 32, "y": 13 * 32}))
    tree = path_tester_loop(maze, tmp_path, say=lambda text: None, poll_s=0, rounds=1)
    assert not (tmp_path / "path_tester_env.json").exists()
    assert json.loads((tmp_path / "path_tester_out.json").read_text()) == tree
    room = tree["the Ville"]["Isabella Rodriguez's apartment"]["main room"]
    assert "bed" in room


def test_timeline_records_changes_and_each_conversation_once(tmp_path):
    timeline = Timeline(tmp_path / "timeline.md")
    when = datetime(2023, 2, 13, 9, 0, 0)
    chat = [["Maria Lopez", "Hi Klaus!"], ["Klaus Mueller", "Hello Maria."]]
    move = {"description": "conversing about the party @ <persona> Klaus Mueller", "pronunciatio": "💬", "chat": chat}
    timeline.record(1, when, {"Maria Lopez": move})
    timeline.record(2, when, {"Maria Lopez": move})
    text = (tmp_path / "timeline.md").read_text()
    assert "## Monday February 13, 2023" in text
    assert text.count("conversing about the party") == 1
    assert text.count("> **Maria Lopez**: Hi Klaus!") == 1
