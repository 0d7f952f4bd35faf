"""task_decomp: durations are validated, scaled to sum exactly, and subtasks renamed "<task> (<subtask>)"."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from reverie.tasks.task_decomp import TaskDecompReply, describe_schedule, fail_safe, fit_durations, generic_steps


def ctx(duration):
    return {"inputs": {"duration": str(duration), "first_name": "Klaus"}}


def test_sum_must_match_and_the_message_gives_both_numbers():
    with pytest.raises(ValidationError, match="durations must add up to 60 minutes; yours add up to 45"):
        TaskDecompReply.model_validate({"subtasks": [{"action": "a", "minutes": 30}, {"action": "b", "minutes": 15}]}, context=ctx(60))


def test_subject_is_removed_from_actions():
    reply = TaskDecompReply.model_validate({"subtasks": [{"action": "Klaus is reading.", "minutes": 60}]}, context=ctx(60))
    assert reply.subtasks[0].action == "reading"


@pytest.mark.parametrize(
    "items, total, expected",
    [
        ([("a", 30), ("b", 30)], 60, [("a", 30), ("b", 30)]),
        ([("a", 30), ("b", 15)], 60, [("a", 40), ("b", 20)]),
        ([("a", 100), ("b", 100)], 60, [("a", 30), ("b", 30)]),
        ([("a", 1), ("b", 1), ("c", 1)], 5, [("a", 2), ("b", 1), ("c", 2)]),
        ([("a", 50), ("b", 1)], 10, [("a", 10)]),
        ([("a", 0)], 30, [("a", 30)]),
    ],
)
def test_fit_durations_sums_exactly(items, total, expected):
    fitted = fit_durations(items, total)
    assert fitted == expected
    assert sum(m for _, m in fitted) == total


@pytest.mark.parametrize("total", [5, 15, 30, 60, 180, 240, 62])
def test_fail_safe_is_valid_for_any_block(total):
    reply = fail_safe({"duration": str(total)}, {})
    TaskDecompReply.model_validate(reply.model_dump(), context=ctx(total))
    assert sum(m for _, m in generic_steps(total)) == total


def test_schedule_context_sentence():
    text = describe_schedule("February 13, 2023", "Klaus Mueller", [(480, 540, "going to the library"), (540, 720, "writing")])
    assert text == ("Today is February 13, 2023. From 08:00 to 09:00, Klaus Mueller is planning on going to the library; "
                    "from 09:00 to 12:00, Klaus Mueller is planning on writing.")


# --- through the facade (scripted chat model: fixed replies, not a real model) ----------

from planning_support import last_user_text, scripted_llm  # noqa: E402

from reverie.tasks.task_decomp import task_decomp  # noqa: E402

KW = dict(identity="Name: Klaus Mueller", schedule_context="Today is February 13, 2023.", first_name="Klaus",
          task="working on his research paper", time_range="09:00 to 10:00", duration=60)


def test_function_renames_subtasks_under_the_task():
    """Scripted valid reply -> "<task> (<subtask>)" entries summing to the block."""
    llm, _ = scripted_llm('{"subtasks": [{"action": "reading articles", "minutes": 25}, {"action": "taking notes (on paper)", "minutes": 35}]}')
    assert task_decomp(llm, **KW) == [("working on his research paper (reading articles)", 25),
                                      ("working on his research paper (taking notes on paper)", 35)]


def test_function_feeds_back_the_sum_and_then_accepts_the_fix():
    """Scripted: durations adding to 45, then to 60; the correction gives both numbers."""
    llm, model = scripted_llm('{"subtasks": [{"action": "reading", "minutes": 30}, {"action": "notes", "minutes": 15}]}',
                              '{"subtasks": [{"action": "reading", "minutes": 30}, {"action": "notes", "minutes": 30}]}')
    assert [m for _, m in task_decomp(llm, **KW)] == [30, 30]
    assert "durations must add up to 60 minutes; yours add up to 45" in last_user_text(model)


def test_function_fail_safe_still_fills_the_block():
    """Scripted replies that are never valid -> a three-step split of the block, renamed."""
    llm, _ = scripted_llm('{"subtasks": [{"action": "reading", "minutes": 7}]}')
    steps = task_decomp(llm, **KW)
    assert sum(m for _, m in steps) == 60
    assert steps[0] == ("working on his research paper (getting started)", 5)
