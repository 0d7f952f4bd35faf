"""Daytime with the bundled model: two personas meet in the cafe and talk.

Our base world is forked into a temporary folder; Nora and Theo are given a planned day and
put side by side in the Willow Bean Cafe at 10:00 (Iris sleeps at home), so no day has to be
planned. One step lets them perceive each other and decide; when the model does not choose
to talk, the test starts the conversation itself (the step after the decision is what is
under test). The engine then runs until the thoughts on the chat are made. Everything is real: the
embedder, Chroma, the files, and the bundled model's answers; the model only drives our code here,
so its replies are a recording (tests/recorded_replies.py, tests/recordings/cafe_conversation.jsonl)
and a call the recording lacks goes to the model itself.
"""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.memory.scratch import NewAction
from reverie.persona.react import chat_react
from reverie.simulation.fast_forward import fast_forward
from reverie.simulation.simulation import Simulation
from reverie.simulation.storage import fork
from reverie.prompt_tools.evaluate import read_ledger
from tests.recorded_replies import recorded_llm

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

BASE = "base_willow_creek"
CAFE = "Willow Creek:Willow Bean Cafe:cafe"
DAY = [
    ["sleeping", 420],
    ["having breakfast at home", 60],
    ["working at the cafe", 480],
    ["reading at home", 180],
    ["sleeping", 300],
]


def plan_the_day(persona, sim, address: str, activity: str) -> None:
    s = persona.scratch
    s.curr_time = sim.curr_time - timedelta(seconds=sim.sec_per_step)  # the same day: nothing to plan
    s.daily_req = [activity]
    s.f_daily_schedule = [list(item) for item in DAY]
    s.f_daily_schedule_hourly_org = [list(item) for item in DAY]
    s.add_new_action(
        NewAction(
            address=address,
            duration=120,
            description=activity,
            pronunciatio="\u2615",
            event=[s.name, "is", activity],
            start_time=sim.curr_time - timedelta(minutes=30),
        )
    )


def side_by_side(maze) -> tuple[tuple[int, int], tuple[int, int]]:
    tiles = sorted(maze.address_tiles[CAFE])
    for x, y in tiles:
        if not maze.collision[y][x] and (x + 1, y) in maze.address_tiles[CAFE] and not maze.collision[y][x + 1]:
            return (x, y), (x + 1, y)
    raise AssertionError("no two free tiles side by side in the cafe")


@pytest.fixture
def cafe(tmp_path):
    settings = load_settings(PROJECT_ROOT / "config.toml").model_copy(deep=True)
    settings.paths.storage = tmp_path / "storage"
    settings.paths.temp_storage = tmp_path / "temp"
    settings.paths.storage.mkdir()
    (settings.paths.storage / BASE).symlink_to(load_settings(PROJECT_ROOT / "config.toml").paths.storage / BASE)
    storage = fork(settings.paths.storage, BASE, "cafe")
    fast_forward(storage, "10:00")
    llm = recorded_llm(settings, "cafe_conversation", ledger_path=storage.ledger_path, trace_path=storage.trace_path)
    sim = Simulation.open(settings, "cafe", storage=storage, llm=llm)
    try:
        yield sim
    finally:
        sim.close()
        shutil.rmtree(tmp_path / "storage", ignore_errors=True)


def meet_at_the_cafe(sim):
    """Nora at the counter and Theo beside her with his coffee, Iris asleep at home: (nora, theo, iris)."""
    nora, theo, iris = (sim.personas[n] for n in ("Nora Bennett", "Theo Alvarez", "Iris Novak"))
    a, b = side_by_side(sim.maze)
    plan_the_day(nora, sim, f"{CAFE}:cafe counter", "working at the cafe")
    plan_the_day(theo, sim, f"{CAFE}:<random>", "having coffee at the cafe")
    plan_the_day(iris, sim, f"{iris.scratch.living_area}:bed", "sleeping")
    env = {nora.name: a, theo.name: b, iris.name: tuple(iris.scratch.curr_tile)}
    sim.storage.write_environment(
        sim.step_no, {n: {"maze": sim.maze_name, "x": x, "y": y} for n, (x, y) in env.items()}
    )
    return nora, theo, iris


def test_two_personas_talk_and_remember_the_conversation(cafe):
    sim = cafe
    nora, theo, iris = meet_at_the_cafe(sim)

    sim.run(1)
    if not nora.scratch.chatting_with and not theo.scratch.chatting_with:
        chat_react(sim.maze, nora, theo, sim.llm)  # the model chose not to talk: start it here
    talker = nora if nora.scratch.chatting_with else theo
    partner = sim.personas[talker.scratch.chatting_with]
    assert partner.scratch.chatting_with == talker.name
    transcript = talker.scratch.chat
    assert transcript and {speaker for speaker, _ in transcript} == {nora.name, theo.name}
    assert all(line.strip() for _, line in transcript)
    for p in (talker, partner):
        assert p.scratch.act_event[1] == "chat with"
        assert sum(minutes for _, minutes in p.scratch.f_daily_schedule) == 24 * 60

    # Up to the step before the chat's end, where the thoughts on it are made (the next
    # step would only choose the next action).
    end = talker.scratch.chatting_end_time
    steps = int((end - sim.curr_time).total_seconds() // sim.sec_per_step)
    sim.run(steps)

    for p, other in ((talker, partner), (partner, talker)):
        chat = p.a_mem.get_last_chat(other.name)
        assert chat is not None and chat.filling, f"{p.name} remembers the conversation with {other.name}"
        thoughts = [n.description for n in p.a_mem.seq_thought]
        assert any(t.startswith(f"For {p.name}'s planning:") for t in thoughts), thoughts

    asked = {line["prompt"] for line in read_ledger(sim.storage.ledger_path)}
    for prompt in (
        "iterative_chat_utterance",
        "relationship_summary",
        "summarize_conversation",
        "new_decomp_schedule",
        "planning_thought_on_convo",
        "memo_on_convo",
    ):
        assert prompt in asked, prompt
    assert "chat_poignancy" not in asked, "deferred ratings: the chat memory takes its event's score"
    movement = sim.storage.read_movement(sim.step_no - steps)
    assert movement["persona"][talker.name]["chat"], "the movement file carries the transcript for the page"
    assert not {line["persona"] for line in read_ledger(sim.storage.ledger_path)} & {iris.name}, (
        "Iris sleeps through it without a model call"
    )
