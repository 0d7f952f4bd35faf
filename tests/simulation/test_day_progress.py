"""The day benchmark's typed state: what a day asks and what it has done so far, read back as a
stopped day's ``--resume`` reads it (no simulation runs here)."""

from __future__ import annotations

from reverie.config import Settings
from reverie.evaluation.day_run import DayAsk, DayProgress, LoadedHistory

PROGRESS_KEYS = ["base", "sim", "history", "start", "hours", "evaluations", "force_seed_plan"]


def _ask(**given):
    return DayAsk(**{"base": "base_town", "sim_code": "day", "hours": 3, "evaluate_every": 0, **given})


def test_a_fresh_day_starts_at_midnight_with_no_history():
    progress = DayProgress.fresh(_ask(), Settings())
    assert progress.to_json() == {
        "base": "base_town",
        "sim": "day",
        "history": {"file": None, "memories": 0, "calls": 0},
        "start": "00:00",
        "hours": [],
        "evaluations": [],
        "force_seed_plan": False,
    }
    assert DayProgress.fresh(_ask(start="07:00"), Settings()).start == "07:00"


def test_a_resumed_day_keeps_the_earlier_sittings_base_start_history_and_forced_plan():
    report = {  # a whole earlier report: the keys beyond the progress's are left out
        "base": "earlier_base",
        "sim": "day",
        "start": "07:00",
        "hours_asked": 1,
        "history": {"file": "history.csv", "memories": 11, "calls": 14},
        "hours": [{"hour": 7, "calls": 15}],
        "evaluations": [{"step": 42}],
        "force_seed_plan": True,
        "day": {"calls": 15},
    }
    progress = DayProgress.resume(report, _ask(base="other_base", start="09:00"), Settings())
    as_json = progress.to_json()
    assert list(as_json) == PROGRESS_KEYS
    assert (as_json["base"], as_json["start"], as_json["force_seed_plan"]) == ("earlier_base", "07:00", True)
    assert progress.history == LoadedHistory("history.csv", 11, 14)
    # The rows are the day's own: adding this sitting's does not touch the report read.
    progress.hours.append({"hour": 8})
    assert report["hours"] == [{"hour": 7, "calls": 15}] and len(as_json["hours"]) == 1
    # What `on_hour` wrote is read back as it was.
    assert DayProgress.resume(as_json, _ask(), Settings()).to_json() == as_json


def test_a_resumed_day_without_a_base_or_history_takes_the_asked_base_and_none():
    progress = DayProgress.resume({"hours": []}, _ask(), Settings())
    assert (progress.base, progress.start, progress.history) == ("base_town", "00:00", LoadedHistory())


def test_interviews_fall_due_every_n_hours_and_after_the_last_hour_run():
    def due(ask, stopped_after=None):
        return [h for h in range(ask.hours) if ask.evaluation_due(h, stopped=h == stopped_after)]

    assert due(_ask(hours=5, evaluate_every=2)) == [1, 3, 4]
    assert due(_ask(hours=5, evaluate_every=0)) == [4]
    assert due(_ask(hours=5, evaluate_every=-1)) == []
    assert due(_ask(hours=5, evaluate_every=0), stopped_after=1) == [1, 4]  # the day stops after hour 1
