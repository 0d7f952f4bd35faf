"""pronunciatio: emoji only, at most two kept whole (ZWJ sequences, flags); the fail-safe matches the action."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from reverie.tasks.pronunciatio import DEFAULT_EMOJI, PronunciatioReply, emoji_clusters, emoji_for, fail_safe
from reverie.tasks.pronunciatio import PRONUNCIATIO
from reverie.prompt_tools.fixtures import inputs_with


@pytest.mark.parametrize(
    "text, clusters",
    [
        ("☕", ["☕"]),
        ("☕📖", ["☕", "📖"]),
        ("👩‍🍳📖", ["👩‍🍳", "📖"]),
        ("🇺🇸", ["🇺🇸"]),
        ("👍🏽", ["👍🏽"]),
        ("🍽️ ☕", ["🍽️", "☕"]),
    ],
)
def test_emoji_are_split_whole(text, clusters):
    assert emoji_clusters(text) == clusters


def test_three_emoji_are_cut_to_two_without_breaking_one():
    assert PronunciatioReply.model_validate({"emoji": "👩‍🍳☕📖"}).emoji == "👩‍🍳☕"


@pytest.mark.parametrize("text", ["coffee", "☕!", ":coffee:", "1"])
def test_words_and_punctuation_are_rejected(text):
    with pytest.raises(ValidationError, match="is not an emoji"):
        PronunciatioReply.model_validate({"emoji": text})


@pytest.mark.parametrize(
    "action, emoji",
    [
        ("sleeping", "😴"),
        ("eating breakfast", "🍽️"),
        ("making coffee for customers", "☕"),
        ("streaming a game on Twitch", "🎮"),
        ("staring into space", DEFAULT_EMOJI),
    ],
)
def test_fail_safe_picks_by_keyword_and_is_valid(action, emoji):
    assert emoji_for(action) == emoji
    reply = fail_safe(inputs_with(PRONUNCIATIO, action=action), {})
    assert PronunciatioReply.model_validate(reply.model_dump()).emoji == emoji


# --- through the facade (scripted chat model: fixed replies, not a real model) ----------

from tests.tasks.planning_support import last_user_text, scripted_llm  # noqa: E402

from reverie.tasks.pronunciatio import pronunciatio  # noqa: E402


def test_function_uses_the_subtask_and_returns_the_emoji():
    """Scripted reply "☕📖"; the prompt shows the text inside the parentheses."""
    llm, model = scripted_llm('{"emoji": "☕📖"}')
    assert pronunciatio(llm, action_description="working at the cafe (making coffee)") == "☕📖"
    assert "Activity: making coffee\n" in last_user_text(model)


def test_function_fail_safe_is_a_fitting_emoji():
    """Scripted replies in words -> the keyword emoji."""
    llm, _ = scripted_llm('{"emoji": "sleep"}')
    assert pronunciatio(llm, action_description="sleeping") == "😴"
