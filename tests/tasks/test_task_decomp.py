"""task_decomp: the model gives rough minutes, the code scales them to the block; subtasks renamed "<task> (<subtask>)"."""

from __future__ import annotations

import json
import re
import tomllib

import pytest
from pydantic import ValidationError

from reverie import PROJECT_ROOT

from reverie.tasks.task_decomp import TaskDecompReply, describe_schedule, fail_safe, fit_durations, generic_steps
from reverie.tasks.task_decomp import TASK_DECOMP
from reverie.prompt_tools.fixtures import inputs_with


def ctx(duration):
    return {"inputs": inputs_with(TASK_DECOMP, duration=str(duration), first_name="Klaus")}


def test_rough_minutes_are_accepted_whatever_their_sum():
    reply = TaskDecompReply.model_validate({"subtasks": [["a", 30], ["b", 7]]}, context=ctx(60))
    assert [s.minutes for s in reply.subtasks] == [30, 7]


def test_a_step_without_minutes_is_dropped_while_a_timed_one_stands_else_sent_back_by_name():
    """It would take no time once the minutes are scaled (as fit_durations drops a step scaled to 0)."""
    reply = TaskDecompReply.model_validate({"subtasks": [["a", 30], ["b", 0]]}, context=ctx(60))
    assert [(s.action, s.minutes) for s in reply.subtasks] == [("a", 30)]
    with pytest.raises(
        ValidationError, match='subtask 1 "a" lasts 0 minutes; give every subtask a rough positive number'
    ):
        TaskDecompReply.model_validate({"subtasks": [["a", 0], ["b", 0]]}, context=ctx(60))


@pytest.mark.parametrize(
    "items, total, expected",
    [
        ([("a", 30), ("b", 15)], 60, [("a", 40), ("b", 20)]),
        ([("a", 7), ("b", 233), ("c", 12)], 240, [("a", 5), ("b", 225), ("c", 10)]),
        ([("a", 1), ("b", 1), ("c", 1)], 60, [("a", 20), ("b", 20), ("c", 20)]),
        ([("a", 1), ("b", 100)], 60, [("b", 60)]),
        ([("a", 10), ("b", 10)], 62, [("a", 31), ("b", 31)]),
    ],
)
def test_fit_durations_in_five_minute_steps(items, total, expected):
    fitted = fit_durations(items, total, 5)
    assert fitted == expected
    assert sum(m for _, m in fitted) == total


def test_subject_is_removed_from_actions():
    reply = TaskDecompReply.model_validate({"subtasks": [["Klaus is reading.", 60]]}, context=ctx(60))
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
    reply = fail_safe(inputs_with(TASK_DECOMP, duration=str(total)), {})
    TaskDecompReply.model_validate(reply.model_dump(), context=ctx(total))
    assert sum(m for _, m in generic_steps(total)) == total


def test_schedule_context_sentence():
    text = describe_schedule(
        "February 13, 2023", "Klaus Mueller", [(480, 540, "going to the library"), (540, 720, "writing")]
    )
    assert text == (
        "Today is February 13, 2023. From 08:00 to 09:00, Klaus Mueller is planning on going to the library; "
        "from 09:00 to 12:00, Klaus Mueller is planning on writing."
    )


# --- through the facade (scripted chat model: fixed replies, not a real model) ----------

from tests.tasks.planning_support import call_schema, last_user_text, scripted_llm  # noqa: E402

from reverie.tasks.task_decomp import task_decomp  # noqa: E402

KW = dict(
    identity="Name: Klaus Mueller",
    schedule_context="Today is February 13, 2023.",
    first_name="Klaus",
    task="working on his research paper",
    time_range="09:00 to 10:00",
    duration=60,
)


def test_function_renames_subtasks_under_the_task():
    """Scripted valid reply -> "<task> (<subtask>)" entries summing to the block."""
    llm, _ = scripted_llm('{"subtasks": [["reading articles", 25], ["taking notes (on paper)", 35]]}')
    assert task_decomp(llm, **KW) == [
        ("working on his research paper (reading articles)", 25),
        ("working on his research paper (taking notes on paper)", 35),
    ]


def test_function_scales_rough_minutes_without_a_second_call():
    """Scripted: rough minutes adding to 45 are scaled to the 60-minute block in one call."""
    llm, model = scripted_llm('{"subtasks": [["reading", 30], ["notes", 15]]}')
    assert [m for _, m in task_decomp(llm, **KW)] == [40, 20]
    assert len(model.calls) == 1
    assert "add up" not in last_user_text(model)


def test_function_fail_safe_still_fills_the_block():
    """Scripted replies that are never valid -> a three-step split of the block, renamed."""
    llm, _ = scripted_llm('{"subtasks": [["reading", 0]]}')
    steps = task_decomp(llm, **KW)
    assert sum(m for _, m in steps) == 60
    assert steps[0] == ("working on his research paper (getting started)", 5)


def test_the_prompt_asks_for_five_minute_increments_with_no_step_cap():
    """The original's ask: subtasks in 5-minute increments, as many as the block needs."""
    from reverie.prompt_tools.cli import render
    from reverie.config import Settings

    settings = Settings()
    settings.paths.prompts = PROJECT_ROOT / "prompts"
    text = "\n".join(m.content for m in render(settings, "task_decomp", inputs_with(TASK_DECOMP).model_dump(), {}))
    assert "5-minute increments" in text
    assert not re.search(r"\b\d+ to \d+ (steps|subtasks)\b", text)
    assert TaskDecompReply.model_json_schema()["properties"]["subtasks"]["maxItems"] >= 16


def test_a_long_list_of_five_minute_steps_is_taken_whole():
    """Scripted: 15 subtasks of 5 minutes for a 75-minute block (more than the old cap of 8,
    and than the old grammar bound of 12) are kept, one by one, on 5-minute boundaries."""
    steps = [[f"step number {i}", 5] for i in range(1, 16)]
    llm, model = scripted_llm(json.dumps({"subtasks": steps}))
    got = task_decomp(llm, **{**KW, "duration": 75, "time_range": "09:00 to 10:15"})
    assert len(model.calls) == 1
    assert got == [(f"working on his research paper (step number {i})", 5) for i in range(1, 16)]


def test_the_prompt_and_its_reply_fit_the_bundled_models_window():
    """The longest fixture case, at a safe 3 characters a token, leaves room for max_tokens in n_ctx 2048."""
    from reverie.config import Settings
    from reverie.llm.prompt_size import CHARS_PER_TOKEN_SAFE, PER_MESSAGE_TOKENS
    from reverie.prompt_tools.cli import render
    from reverie.prompt_tools.fixtures import load_fixture

    settings = Settings()
    settings.paths.prompts = PROJECT_ROOT / "prompts"
    max_tokens = tomllib.loads((PROJECT_ROOT / "prompts" / "task_decomp.toml").read_text())["max_tokens"]
    for case in load_fixture("task_decomp").cases:
        messages = render(settings, "task_decomp", case.inputs, case.choices)
        tokens = sum(len(m.content) / CHARS_PER_TOKEN_SAFE + PER_MESSAGE_TOKENS for m in messages)
        assert tokens + max_tokens <= settings.models.strong.n_ctx, tokens


def test_the_same_subtask_twice_in_a_row_is_one():
    """Scripted: a reply that repeats a subtask (as small models do) gives one entry for the run."""
    llm, _ = scripted_llm('{"subtasks": [["reading", 15], ["reading", 15], ["notes", 15], ["reading", 15]]}')
    assert task_decomp(llm, **KW) == [
        ("working on his research paper (reading)", 30),
        ("working on his research paper (notes)", 15),
        ("working on his research paper (reading)", 15),
    ]


@pytest.mark.parametrize("duration, most", [(60, 6), (90, 9), (240, 16)])
def test_the_grammar_allows_one_subtask_per_ten_minutes_of_the_block(duration, most):
    """Scripted: the call's schema bounds the list by the block (a small model fills a list to
    its bound: 16 subtasks for an hour was the common reply), and the format line says so."""
    llm, model = scripted_llm('{"subtasks": [["reading", 30]]}')
    task_decomp(llm, **{**KW, "duration": duration})
    assert call_schema(model)["properties"]["subtasks"]["maxItems"] == most
    assert f"(at most {most} items)" in last_user_text(model)


def test_a_subtask_copies_no_list_number():
    """The bundled model numbered subtasks as the plan it read ("1. wake up and complete morning routine")."""
    from reverie.tasks.task_decomp import TaskDecompReply

    reply = TaskDecompReply.model_validate({"subtasks": [["1. mixing the dough", 20], ["2) baking bread", 40]]})
    assert [s.action for s in reply.subtasks] == ["mixing the dough", "baking bread"]
