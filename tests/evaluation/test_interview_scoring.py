"""How an interview answer is scored: the open question (who is running?) is known only when the
answer names the seed's answer; a yes/no question is the judge's. The judge here is a scripted
stand-in (a function returning a verdict), so the test is about the scoring, not a model."""

from __future__ import annotations

from reverie.evaluation.evaluation_report import Answer
from reverie.evaluation.evaluation import hallucinations, score

EXPECTED = ["Marcus Reed", "Marcus"]


class Judge:
    """A scripted judge that records whether it was asked."""

    def __init__(self, verdict: str):
        self.verdict, self.asked = verdict, 0

    def __call__(self) -> tuple[str, str]:
        self.asked += 1
        return self.verdict, "judged"


def test_an_open_answer_is_known_only_when_it_names_the_candidate():
    judge = Judge("yes")  # a judge that says yes to anything must not decide an open question
    assert score("Yes! Marcus Reed is running for the council.", "Leah Kim", EXPECTED, judge) == ("yes", "Marcus Reed")
    assert score("Yes, Theo Alvarez is running, I believe.", "Leah Kim", EXPECTED, judge) == ("no", "")
    assert score("Yes, I know who is running.", "Leah Kim", EXPECTED, judge) == ("no", "")
    assert judge.asked == 0


def test_the_candidate_may_speak_of_himself_and_is_then_judged():
    assert score("Yes, I am! I'm running myself.", "Marcus Reed", EXPECTED, Judge("yes")) == ("yes", "judged")
    assert score("I have no idea.", "Marcus Reed", EXPECTED, Judge("no")) == ("no", "judged")


def test_a_yes_no_question_is_the_judges():
    judge = Judge("no")
    assert score("Marcus Reed? Never heard of a party.", "Leah Kim", [], judge) == ("no", "judged")
    assert judge.asked == 1


def test_a_yes_the_memories_do_not_support_is_a_hallucination_and_not_knowing():
    answers = [
        Answer(question="q", answer="Yes", verdict="yes", supported=True),
        Answer(question="q", answer="Yes", verdict="yes", supported=False),
        Answer(question="q", answer="No", verdict="no", supported=True),
        Answer(question="q", answer="No", verdict="no", supported=False),
    ]
    assert [a.knows for a in answers] == [True, False, False, False]
    got = hallucinations(answers)
    assert (got.answers, got.yes, got.unsupported) == (4, 2, 1) and got.percent == "25.0%"


def test_a_checkpoints_game_day_figures_are_the_papers():
    from reverie.evaluation.evaluation_metrics import METRICS
    from reverie.evaluation.evaluation_report import Checkpoint
    from reverie.evaluation.metrics import Shown

    cp = Checkpoint.model_validate(
        {
            "step": 9,
            "personas": ["A", "B", "C", "D"],
            "diffusion": [{"fact": "f", "count": 2, "total": 4, "share": 0.5, "knows": ["A", "B"]}],
            "relationships": {"pairs": 6, "known_pairs": 3, "density": 0.5},
            "coordination": [
                {
                    "fact": "f",
                    "host": "A",
                    "invited": ["B", "C"],
                    "attended": ["A", "B", "D"],
                    "attended_invited": ["B"],
                    "reached": True,
                }
            ],
            "hallucinations": {"answers": 10, "yes": 4, "unsupported": 1},
        }
    )
    got = METRICS.collect(cp, Shown.GAME_DAY)
    assert list(got) == ["step", "time", "facts", "density", "invited", "came", "hallucinations"]
    assert (got["facts"]["f"]["share"], got["density"], got["invited"], got["came"]) == (0.5, 0.5, 2, 1)
    assert got["hallucinations"] == {"answers": 10, "yes": 4, "unsupported": 1}
    cp.coordination[0].reached = False  # a window not reached: nobody could come yet
    got = METRICS.collect(cp, Shown.GAME_DAY)
    assert got["came"] is None and got["invited"] == 2


def test_a_seed_says_an_open_questions_answer_and_a_yes_no_seed_keeps_working(tmp_path):
    import json

    import pytest

    from reverie.errors import UserError
    from reverie.simulation.seeds import read_seeds

    base = {"persona": "Marcus Reed", "whisper": "You are running", "fact": "Marcus Reed is running"}
    (tmp_path / "reverie").mkdir()
    path = tmp_path / "reverie" / "seeds.json"
    path.write_text(
        json.dumps(
            [
                {**base, "question": "Do you know who is running?", "answer": "Marcus Reed"},
                {**base, "question": "Did you know that Marcus Reed is running?"},
            ]
        )
    )
    open_seed, yes_no = read_seeds(tmp_path)
    assert open_seed.answer == ("Marcus Reed",) and yes_no.answer == ()
    path.write_text(json.dumps([{**base, "question": "Who is running?", "answer": [3]}]))
    with pytest.raises(UserError) as err:
        read_seeds(tmp_path)
    assert str(err.value) == f"{path}: the answer of seed 0 must be a name or a list of names"
