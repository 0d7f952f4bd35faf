"""The interactive server on a forked 3-agent base: print commands, hints, save, exit.

No command here asks the model, so the bundled model is never loaded.
"""

from __future__ import annotations

import io
import json

import pytest

from reverie.console.interactive import Server
from reverie.simulation.simulation import Simulation

from .conftest import BASE, NAMES


@pytest.fixture
def server(settings):
    sim = Simulation.fork(settings, BASE, "cmds")
    out = io.StringIO()
    yield Server(sim, settings, headless=True, out=out), out, sim


def said(out: io.StringIO) -> str:
    text = out.getvalue()
    out.seek(0)
    out.truncate()
    return text


def test_print_commands_answer_and_bad_ones_hint(server):
    srv, out, sim = server
    assert srv.handle("print current time") is None
    assert said(out) == "February 13, 2023, 00:00:00\nsteps: 0\n"
    srv.handle("print persona current tile Isabella Rodriguez")
    assert said(out).strip() == "(72, 14)"
    srv.handle("print tile event 72, 14")
    assert "Isabella Rodriguez" in said(out)
    srv.handle("print tile details 72, 14")
    text = said(out)
    assert "world: the Ville" in text and "arena: main room" in text
    srv.handle("print persona spatial memory klaus mueller")
    assert "Dorm for Oak Hill College" in said(out)
    srv.handle("print persona schedule Maria Lopez")
    assert said(out).strip() == "(no schedule yet)"
    srv.handle("print all persona schedule")
    text = said(out)
    assert all(name in text for name in NAMES)
    srv.handle("print persona associative memory (event) Maria Lopez")
    assert "no event memories" in said(out)
    srv.handle("print persona chatting with buffer Maria Lopez")
    assert "(empty)" in said(out)
    for bad in (
        "dance",
        "run",
        "run two",
        "print tile event 999, 999",
        "print persona schedule Nobody",
        "call -- load history no/such.csv",
        "",
    ):
        assert srv.handle(bad) is None
        text = said(out)
        assert text.startswith("error: ") and text.count("\n") == 1, (bad, text)


def test_save_then_exit_deletes_without_saving(server):
    srv, out, sim = server
    srv.handle("save")
    assert "saved cmds at step 0" in said(out)
    meta = json.loads(sim.storage.meta_path.read_text())
    assert meta["fork_sim_code"] == BASE and meta["step"] == 0
    assert srv.handle("exit") == 0
    assert not sim.storage.dir.exists()


def test_server_asks_for_fork_and_name_then_reads_commands(village):
    from .conftest import reverie_cmd

    proc = reverie_cmd(village, input="\nasked\nprint current time\nwhat now\nrun zero\nfin\n", timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "computational constructs" in out
    assert "February 13, 2023, 00:00:00" in out
    assert out.count("error: ") == 2 and "type 'help'" in out
    meta = json.loads((village.parent / "storage" / "asked" / "reverie" / "meta.json").read_text())
    assert meta["fork_sim_code"] == BASE
    assert json.loads((village.parent / "temp_storage" / "curr_sim_code.json").read_text()) == {"sim_code": "asked"}


def test_run_refuses_an_existing_name(village):
    from .conftest import reverie_cmd

    (village.parent / "storage" / "taken").mkdir()
    proc = reverie_cmd(village, "run", "--sim", "taken", "--steps", "1", timeout=300)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1].startswith("error: simulation 'taken' already exists")
