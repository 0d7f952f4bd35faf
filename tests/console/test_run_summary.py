"""The end-of-run summary, read back from hand-written movement files and ledger lines."""

from __future__ import annotations

import json

from reverie.console.run_summary import place_of, print_summary
from reverie.simulation.storage import SimStorage

HOME = "Willow Creek:Nora Bennett's house:bedroom"
CAFE = "Willow Creek:Willow Bean Cafe:counter"


def move(description, chat=None):
    return {"movement": [1, 1], "pronunciatio": "☕", "description": description, "chat": chat}


def test_place_is_the_sector_of_the_address():
    assert place_of(f"sleeping @ {HOME}") == "Nora Bennett's house"
    assert place_of("idle") is None
    assert place_of("conversing about coffee @ <persona> Theo Alvarez") is None


def test_summary_says_who_went_where_who_talked_and_the_calls(tmp_path, capsys):
    storage = SimStorage(tmp_path, "morning")
    chat = [["Nora Bennett", "Good morning, Theo! The usual coffee?"], ["Theo Alvarez", "Yes please."]]
    steps = {
        2520: {
            "Nora Bennett": move(f"sleeping @ {HOME}"),
            "Theo Alvarez": move("sleeping @ Willow Creek:Theo's house:bed"),
        },
        2521: {
            "Nora Bennett": move(f"walking @ {CAFE}"),
            "Theo Alvarez": move("walking @ Willow Creek:Willow Bean Cafe:table"),
        },
        2522: {
            "Nora Bennett": move(f"chatting @ {CAFE}", chat),
            "Theo Alvarez": move("chatting @ Willow Creek:Willow Bean Cafe:table", chat),
        },
    }
    for step, personas in steps.items():
        storage.write_movement(
            step, {"persona": personas, "meta": {"curr_time": f"February 13, 2023, 07:00:{step - 2520}0"}}
        )
    storage.ledger_path.parent.mkdir(parents=True)
    ledger = [
        {"prompt": "daily_plan", "step": 2520, "attempts": 1, "fallback": False},
        {"prompt": "task_decomp", "step": 2521, "attempts": 2, "fallback": False},
        {"prompt": "action_packed", "step": 2522, "attempts": 3, "fallback": True},
        {"prompt": "action_packed", "step": 2400, "attempts": 3, "fallback": True},
    ]  # an earlier run's
    storage.ledger_path.write_text("".join(json.dumps(line) + "\n" for line in ledger))

    lines = print_summary(storage, 2520, 2523, demo_step=2520)
    assert lines[1] == "  Nora Bennett: Nora Bennett's house -> Willow Bean Cafe"
    assert lines[2] == "  Theo Alvarez: Theo's house -> Willow Bean Cafe"
    assert (
        lines[3] == '  conversation (07:00:20): Nora Bennett and Theo Alvarez: "Good morning, Theo! The usual coffee?"'
    )
    assert lines[4] == "  3 model call(s), 1 repaired, 1 fail-safe(s): http://127.0.0.1:8000/runs/morning/"
    assert lines[5] == "  watch it: http://127.0.0.1:8000/demo/morning/2520/3/"
    assert capsys.readouterr().out.splitlines() == lines
