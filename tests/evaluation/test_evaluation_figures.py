"""The paper's measurements on hand-made answer sets and movements."""

from __future__ import annotations

from datetime import datetime, timedelta

from reverie.evaluation.evaluation_report import Share
from reverie.evaluation.evaluation_figures import attendance, density, named_in, sample_pairs, wilson


def test_diffusion_counts_who_knows():
    assert Share.of({"A": True, "B": False, "C": False, "D": True}) == Share(count=2, total=4, share=0.5)
    assert Share.of({"A": False}) == Share(count=0, total=1, share=0.0)
    assert Share.of({}) == Share(count=0, total=0, share=0.0)


def test_density_counts_a_pair_only_when_both_know_of_each_other():
    """The paper's undirected graph of mutual knowledge: one-sided knowledge is no edge."""
    names = ["Ann", "Bob", "Cy", "Dee"]
    knows = {
        "Ann": {"Bob": True, "Cy": False, "Dee": True},
        "Bob": {"Ann": False, "Cy": False, "Dee": False},  # Ann knows of Bob, not Bob of Ann: no edge
        "Cy": {"Ann": False, "Bob": False, "Dee": True},
        "Dee": {"Ann": True, "Bob": False, "Cy": True},  # known both ways: one edge each
    }
    got = density(names, knows)
    assert got.pairs == 6 and got.known_pairs == 2
    assert got.edges == [["Ann", "Dee"], ["Cy", "Dee"]]
    assert got.density == round(2 / 6, 4)
    # A pair one of whom was never asked about the other: no edge either.
    assert density(["Ann", "Bob"], {"Ann": {"Bob": True}}).known_pairs == 0


def test_density_of_the_papers_start_and_everyone_knowing_everyone():
    names = [f"P{i:02d}" for i in range(25)]
    nobody = {a: {b: False for b in names if b != a} for a in names}
    assert density(names, nobody).density == 0.0
    # 50 of the 300 pairs known: the paper's 0.167 at the start.
    known = dict((a, dict(row)) for a, row in nobody.items())
    for i in range(50):
        a, b = names[i % 25], names[(i % 25 + 1 + i // 25) % 25]
        known[a][b] = known[b][a] = True
    got = density(names, known)
    assert (got.pairs, got.known_pairs, got.density) == (300, 50, 0.1667)
    everyone = {a: {b: True for b in names if b != a} for a in names}
    assert density(names, everyone).density == 1.0


def test_a_sample_of_pairs_is_drawn_without_repeats_and_the_same_for_the_same_seed():
    names = [f"P{i:02d}" for i in range(25)]
    pairs = sample_pairs(names, 40)
    assert len(pairs) == len(set(pairs)) == 40
    assert all(a < b and a in names and b in names for a, b in pairs)
    assert sample_pairs(list(reversed(names)), 40) == pairs  # the names' order does not matter
    assert sample_pairs(names, 40, seed=1) != pairs
    assert len(sample_pairs(names, 1000)) == 300  # never more than every pair


def test_a_sampled_density_counts_the_asked_pairs_only_and_gives_its_interval():
    names = ["Ann", "Bob", "Cy", "Dee"]
    knows = {
        "Ann": {"Bob": True, "Dee": True},
        "Bob": {"Ann": True},
        "Dee": {"Ann": False, "Cy": True},
        "Cy": {"Dee": True},
    }
    # Asked: Ann-Bob (both know) and Ann-Dee (one way only); Cy-Dee known both ways but never asked.
    got = density(names, knows, [("Bob", "Ann"), ("Ann", "Dee")])
    assert (got.pairs, got.pairs_asked, got.known_pairs, got.density) == (6, 2, 1, 0.5)
    assert got.sampled is True and got.edges == [["Ann", "Bob"]]
    low, high = got.interval
    assert low < 0.5 < high
    # Wilson's interval: 50 of 100 -> 0.404-0.596; never outside 0-1.
    assert [round(x, 3) for x in wilson(50, 100)] == [0.404, 0.596]
    assert wilson(0, 20)[0] == 0.0 and 0 < wilson(0, 20)[1] < 0.2
    assert wilson(20, 20)[1] == 1.0


def test_attendance_counts_steps_at_the_place_inside_the_window_only():
    start = datetime(2023, 2, 13, 17, 0)
    window = (start, start + timedelta(hours=2))
    cafe = {(5, 5), (5, 6)}
    frames = [
        (start - timedelta(seconds=10), {"A": (5, 5), "B": (1, 1)}),  # before: not counted
        (start, {"A": (5, 5), "B": (1, 1)}),
        (start + timedelta(minutes=30), {"A": (5, 6), "B": (5, 5), "C": (9, 9)}),
        (start + timedelta(hours=2), {"C": (5, 5)}),  # the end is excluded
    ]
    got = attendance(frames, lambda t: t in cafe, window, ["A", "B", "C"])
    assert got == {"A": 2, "B": 1}


def test_a_fact_is_held_by_a_memory_with_every_keyword_and_names_are_whole_names():
    from reverie.evaluation.evaluation_figures import holds, names_in

    memories = ["Marcus Reed is running for the Willow Creek town council", "Nora Bennett is baking"]
    assert holds(memories, ["run", "council"])  # "running": a word that starts with "run"
    assert not holds(memories, ["party"]) and not holds(memories, [])
    assert not holds(["the council meets on Monday", "Theo runs to the shop"], ["run", "council"])  # not in one memory
    assert names_in(memories + ["Nora said hello to Theo"], ["Nora Bennett", "Theo Alvarez", "Marcus Reed"]) == {
        "Nora Bennett",
        "Marcus Reed",
    }


def test_an_open_answer_names_what_it_must_as_whole_words():
    expected = ["Marcus Reed", "Marcus"]
    assert named_in("Yes, Marcus Reed is running for the council!", expected) == "Marcus Reed"
    assert named_in("I heard marcus is running.", expected) == "Marcus"  # case aside
    assert named_in("Leah Kim is running, I think.", expected) is None  # someone else
    assert named_in("No, I don't know who is running.", expected) is None  # no one
    assert named_in("Marcusson's bakery is running a sale.", expected) is None  # not a whole word
