"""The scripted town model in a town nobody here wrote: the original release's 3-person
Smallville, whose residents are described in prose with few clock times ("goes to the
library at <college> early in the morning ... and eats at <cafe>"). Its residents must
leave home for the places their descriptions name. The scripted model answers by rule from
each prompt's own inputs (the plumbing's check, not a model of behaviour); the town, its
memories, embedder and Chroma are real. The original's data is linked, never copied."""

from __future__ import annotations

from collections import defaultdict

import pytest

from tests.simulation.scripted_towns import cafe_visitors, quiet_day, seeded_town
from tests.the_ville_run import BASE, make_village


def _sectors_visited(settings, sim_code: str) -> dict[str, set[str]]:
    """{resident: the sectors it stood in} over the run's movement files."""
    from reverie.evaluation.evaluation import movement_frames
    from reverie.simulation.storage import SimStorage
    from reverie.world.maze import Maze

    storage = SimStorage(settings.paths.storage, sim_code)
    meta = storage.read_meta()
    maze = Maze.load(settings.paths.assets, meta["maze_name"])
    seen: dict[str, set[str]] = defaultdict(set)
    for _when, tiles in movement_frames(storage, meta["persona_names"]):
        for name, (x, y) in tiles.items():
            seen[name].add(maze.tiles[y][x]["sector"])
    return seen


def _scripted_morning(settings, base: str) -> dict[str, set[str]]:
    """Two game hours of ``base`` from 07:30 on the scripted town model: the sectors each resident stood in."""
    from reverie.config import SCRIPTED

    settings.models.strong.path = settings.models.cheap.path = SCRIPTED
    quiet_day(settings, base, "morning", hours=2, start="07:30")
    return _sectors_visited(settings, "morning")


@pytest.mark.slow
def test_smallville_residents_leave_home_for_the_places_their_descriptions_name(tmp_path, smallville_dir):
    from reverie.config import load_settings

    settings = load_settings(make_village(tmp_path, smallville_dir))
    seen = _scripted_morning(settings, BASE)
    # "goes to the library at Oak Hill College early in the morning" (no clock time)
    assert "Oak Hill College" in seen["Klaus Mueller"], seen["Klaus Mueller"]
    # "opens Hobbs Cafe at 8am everyday": she leaves her apartment for it
    assert "Hobbs Cafe" in seen["Isabella Rodriguez"], seen["Isabella Rodriguez"]


@pytest.mark.slow
def test_alder_bay_residents_go_where_their_prose_says(tmp_path):
    """The second generated town, written the original's way (few clock times): the same rules,
    no word of theirs names its places."""
    from tests.forked_base import fork_base

    settings, _storage = fork_base(tmp_path, "base_alder_bay", "unused")
    seen = _scripted_morning(settings, "base_alder_bay")
    # "walks to the Alder Bay Harbour Office early in the morning"
    assert "Alder Bay Harbour Office" in seen["Edwin Marsh"], seen["Edwin Marsh"]
    # "looks after Alder Bay Library, and eats lunch at Driftwood Bakery"
    assert "Alder Bay Library" in seen["Mira Haddon"], seen["Mira Haddon"]


PARTY_DAY = "February 14, 2023"
HOST = "Nora Bennett"
PARTY = (
    "Nora Bennett is throwing a Valentine's Day party at Willow Bean Cafe on February 14, 2023, from 5 pm to 7 pm. "
    "Nora asks everyone she meets to come to the party at Willow Bean Cafe."
)
# The host's seed: what she knows and tells, and the interview's question about it.
NEWS = {
    "persona": HOST,
    "currently": PARTY,
    "keywords": ["party"],
    "question": "Did you know there is a party?",
    "fact": "there is a party at Willow Bean Cafe",
}
HEARD = "Nora Bennett told you that she is throwing a Valentine's Day party at Willow Bean Cafe on February 14, 2023, from 5 pm to 7 pm"


@pytest.mark.slow
def test_invited_residents_reach_the_party_in_its_window(tmp_path):
    """February 14 with the party known: the guests heard of it on the 13th (a memory each, as
    a conversation leaves it); the new day's revision and plan must keep its hours, and at
    5 pm they must walk to the cafe. Runs 23:50 -> 00:05 (the new day's planning), then
    16:45 -> 17:30."""
    from reverie.simulation.fast_forward import fast_forward
    from reverie.simulation.history import load_history
    from reverie.simulation.simulation import Simulation
    from reverie.simulation.storage import SimStorage

    seed = {
        **NEWS,
        "event": {
            "sector": "Willow Bean Cafe",
            "arena": "cafe",
            "day": PARTY_DAY,
            "start": "17:00",
            "end": "19:00",
            "description": "hosting the party at the cafe",
        },
    }
    settings, _base = seeded_town(tmp_path, "party_base", [seed])
    history = tmp_path / "heard.csv"
    guests = ["Iris Novak", "Theo Alvarez"]
    history.write_text("Name,Whisper\n" + "".join(f'{g},"{HEARD}"\n' for g in guests))

    sim = Simulation.fork(settings, "party_base", "valentine", start="23:50")
    try:
        load_history(sim, history)
        sim.run(15 * 6, headless=True)  # past midnight: February 14 is planned
        plans = {name: " ".join(sim.personas[name].scratch.daily_req) for name in guests}
    finally:
        sim.close()
    for name in guests:
        assert "5:00 pm" in plans[name] and "Willow Bean Cafe" in plans[name], (
            f"{name} did not plan the party: {plans[name]}"
        )

    storage = SimStorage(settings.paths.storage, "valentine")
    fast_forward(storage, "16:45")
    sim = Simulation.open(settings, "valentine")
    try:
        sim.run(45 * 6, headless=True)
        from datetime import datetime

        came = cafe_visitors(sim, storage, (datetime(2023, 2, 14, 17), datetime(2023, 2, 14, 19)))
    finally:
        sim.close()
    assert set(guests) <= set(came), f"not every guest reached the cafe between 5 and 7 pm: {came}"


@pytest.mark.slow
def test_a_conversation_passes_the_news_on_and_the_two_know_each_other(tmp_path):
    """At the cafe in the morning (the host works there from 7, the other buys a coffee at 8):
    they talk, the news goes into the listener's memory with who told it, and the interview
    says yes to the news and to knowing the host, each from a memory that holds it."""
    from reverie.evaluation.evaluation import ask, know_question
    from reverie.simulation.simulation import Simulation

    seed = NEWS
    settings, _base = seeded_town(tmp_path, "talk_base", [seed])
    quiet_day(settings, "talk_base", "talk", hours=1, start="07:50")

    sim = Simulation.open(settings, "talk")
    try:
        theo = sim.personas["Theo Alvarez"]
        memos = [n.description for n in theo.a_mem.seq_thought if f"from {HOST}" in n.description]
        assert any("party" in memo for memo in memos), f"no memory of the party told by {HOST}: {memos}"
        party = ask(sim, theo, seed["question"], supported=True)
        knows = ask(sim, theo, know_question(HOST), supported=True)
    finally:
        sim.close()
    assert party.verdict == "yes", party
    assert knows.verdict == "yes" and HOST in knows.answer, knows
