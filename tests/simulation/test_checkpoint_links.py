"""A checkpoint links the persona files that have not changed since the last one instead of
writing them again, and a resume reads it like any other.

The town is the shipped 3-person base forked into the test's folder, on the scripted fake chat
model (reverie/llm/fake_model.py, not a real model: no reply validates, so every prompt takes
its fail-safe); what is tested is the files.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from reverie.llm.fake_model import FakeChatModel
from reverie.sim_layout import PREVIOUS_CHECKPOINT
from reverie.simulation.simulation import Simulation

from tests.forked_base import forked_sim


def _files(folder: Path) -> dict[Path, os.stat_result]:
    return {p.relative_to(folder): p.stat() for p in folder.rglob("*.json")}


def test_unchanged_persona_files_are_linked_and_changed_ones_written(tmp_path):
    with forked_sim(tmp_path, "base_willow_creek", "links", FakeChatModel(), at="02:00") as sim:
        current, previous = sim.storage.personas_dir, sim.storage.dir / PREVIOUS_CHECKPOINT / "personas"
        sim.run(1)
        sim.save()
        first = _files(current)
        sim.save()  # nothing changed: every file is the one before
        again = _files(current)
        assert again.keys() == first.keys() and len(again) >= 3 * 5
        assert all(again[rel].st_ino == first[rel].st_ino for rel in again)

        name = sorted(sim.personas)[0]
        sim.personas[name].scratch.act_description = "reading a letter from an old friend"
        sim.save()  # only this scratch is new
        after = _files(current)
        assert {rel for rel in after if after[rel].st_ino != again[rel].st_ino} == {
            Path(name) / "bootstrap_memory" / "scratch.json"
        }

        sim.run(2)  # asleep: the clocks move, so each scratch is new; a file is shared exactly when unchanged
        sim.save()
        now, before = _files(current), _files(previous)
        both = now.keys() & before.keys()
        same_text = {rel for rel in both if (current / rel).read_bytes() == (previous / rel).read_bytes()}
        linked = {rel for rel in both if now[rel].st_ino == before[rel].st_ino}
        assert linked == same_text and linked
        assert all(Path(name) / "bootstrap_memory" / "scratch.json" not in linked for name in sim.personas)
        # The checkpoint before it still holds its own text (a new file, not the old one changed).
        old = json.loads((previous / name / "bootstrap_memory" / "scratch.json").read_text(encoding="utf-8"))
        new = json.loads((current / name / "bootstrap_memory" / "scratch.json").read_text(encoding="utf-8"))
        assert old["curr_time"] != new["curr_time"]
        settings, storage, step, clock = sim.settings, sim.storage, sim.step_no, sim.personas[name].scratch.curr_time

    resumed = Simulation.open(settings, "links", storage=storage, resume=True)
    try:
        assert resumed.step_no == step
        assert resumed.personas[name].scratch.curr_time == clock
    finally:
        resumed.close()
