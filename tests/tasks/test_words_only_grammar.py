"""The fields a model writes words into are words only in the grammar (a JSON-schema pattern).

What the pattern lets through is checked with Python's ``re`` (the pattern is a plain character
class, read the same way there). That llama.cpp's grammar keeps to it is checked on the model:

Two ``actions_packed`` calls of a 25-person day on the real bundled model, where the model ran
a string of emoji into ``predicate`` and on through the next fields until the reply was
cut off at its token limit (both failed three times and fell back on a call per subtask). The
same calls, asked again on the bundled GGUF through llama.cpp with the words-only pattern in
the grammar, come back whole the first time.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.llm import LLM
from reverie.prompt_tools.evaluate import read_ledger
from reverie.tasks.action_packed import PackedActionReply
from reverie.tasks.actions_packed import ACTIONS_PACKED
from reverie.tasks.chat_utterance import UtteranceReply
from reverie.tasks.common import WORD_CHARACTERS, check_text, word_count
from reverie.tasks.conversation_packed import ConversationReply
from reverie.tasks.convo_thoughts import MemoReply
from reverie.tasks.focal_points import FocalPointsReply
from reverie.tasks.insights import InsightsReply
from reverie.tasks.registry import product_tasks

CASES = json.loads((Path(__file__).parents[1] / "fixtures" / "actions_packed_emoji_runs.json").read_text())["cases"]


def test_the_phrase_fields_carry_the_words_only_pattern():
    properties = PackedActionReply.model_json_schema()["properties"]
    for field in ("predicate", "target", "state"):
        assert properties[field]["pattern"].startswith(f"^[{WORD_CHARACTERS}]{{0,")
    assert "pattern" not in properties["emoji"]


def _pattern(schema: dict, *path: str) -> str:
    node = schema
    for key in path:
        node = node[key]
        if "$ref" in node:
            node = schema["$defs"][node["$ref"].split("/")[-1]]
    return node["pattern"]


SENTENCES = {  # a field's pattern, from its reply schema
    "conversation line": _pattern(ConversationReply.model_json_schema(), "properties", "lines", "items"),
    "utterance": _pattern(UtteranceReply.model_json_schema(), "properties", "utterance"),
    "focal question": _pattern(FocalPointsReply.model_json_schema(), "properties", "questions", "items"),
    "insight": _pattern(InsightsReply.model_json_schema(), "properties", "insights", "items", "properties", "insight"),
    "memo (a Text answer)": _pattern(MemoReply.model_json_schema(), "properties", "memo"),
}


@pytest.mark.parametrize("field", sorted(SENTENCES))
def test_a_sentence_field_takes_words_and_none_of_what_the_small_model_ran_into(field):
    pattern = re.compile(SENTENCES[field])
    for good in (
        "Isabella is hosting a party at Hobbs Cafe at 5 pm.",
        "Café talk: can't wait, see you (maybe) at 7!",
        "What did Maria learn about the 2 new neighbours?",
        "Изабелла устраивает вечеринку.",
        "伊莎贝拉在咖啡馆举办派对。",
        "パーティーを開きます！",
        "이사벨라가 파티를 연다",
    ):
        assert pattern.fullmatch(good), good
    for bad in (
        "The_Milo_Hale_has_been_reading_the_book",
        "2021-02-13 12:34:39.161",
        " \n{ ",
        "\u2026",
        "I love ice cream \U0001f368\U0001f368",
        'She said "hi"',
    ):
        assert not pattern.fullmatch(bad), bad


AT_LEAST_THREE_WORDS = ("focal question", "insight", "memo (a Text answer)")


@pytest.mark.parametrize("field", AT_LEAST_THREE_WORDS)
def test_a_field_that_needs_three_words_cannot_be_written_with_fewer(field):
    """The bundled model answered insights with "morning" until the fail-safe (a reflection lost):
    where the checks ask for three words, so does the grammar, in any script."""
    pattern = re.compile(SENTENCES[field])
    for short in ("morning", "Good morning", "Good  morning", "伊莎", "Isabella,party"):
        assert not pattern.fullmatch(short), short
    for enough in (
        "Good morning, Clara!",
        "Maya loves books",
        "伊莎贝拉在咖啡馆举办派对。",
        "이사벨라가 파티를 연다",
        "Maya Hale goes to the library every morning because the quiet helps her write her book.",
    ):
        assert pattern.fullmatch(enough), enough
        assert word_count(enough) >= 3


OTHER_SCRIPTS = (
    "Изабелла устраивает вечеринку.",
    "伊莎贝拉在咖啡馆举办派对。",
    "パーティーを開きます！",
    "이사벨라가 파티를 연다",
    "Η Ισαβέλλα κάνει πάρτι.",
    "איזבלה עורכת מסיבה.",
)


@pytest.mark.parametrize("text", OTHER_SCRIPTS)
def test_what_the_grammar_lets_a_persona_write_in_another_script_the_checks_take(text):
    """A sentence the words-only pattern allows, in another script, passes the field's own
    checks too (they used to ask for a Latin letter, so a persona written in Greek or Japanese
    could only ever get its fail-safe)."""
    assert re.fullmatch(SENTENCES["memo (a Text answer)"], text)
    assert MemoReply.model_validate({"memo": text}).memo == text
    line = UtteranceReply.model_validate({"utterance": text, "end": False})
    assert line.utterance == text


@pytest.mark.parametrize("text", ["!!! ???", "12:30", "(3)", "\uff1f\uff01"])
def test_text_without_letters_in_any_script_is_still_sent_back(text):
    with pytest.raises(ValueError, match="has no words"):
        MemoReply.model_validate({"memo": text})


@pytest.mark.parametrize(
    "text",
    [
        "Theo Alvare,theo alvare,theo alvare,theo alvare,theo alvare,theo alvare,theo alvare,theo",
        "Theo Alvare,Theo Alvare,Theo Alvare,Theo Alvare,Theo Alvare,Theo Alvare,Theo Alvare,Theo",
        "Theo Alvare: Theo Alvare, Theo Alvare, Theo Alvare, Theo",
    ],
)
def test_a_name_looped_with_commas_is_sent_back_as_too_few_different_words(text):
    """The bundled model's notes after a conversation (day_32): one name over and over, joined by
    commas without a space, passed as many words; stored, each then cost an event_triple call
    that could only fail (predicate and target both "Theo Alvare"). A note cuts such a loop to
    its first copy before the checks: what is left is too short, and still sent back."""
    with pytest.raises(ValueError, match=r"repeats the same 2 words \(theo alvare\); write at least 3 different words"):
        check_text(text, "the note", min_words=3)
    with pytest.raises(ValueError, match=r"the note is too short \(2 words\)"):
        MemoReply.model_validate({"memo": text})
    for sentence in (
        "Theo Alvarez, the teacher, is organising a science fair.",
        "Morning, Priya Nair! Zara Okafor is here.",
    ):
        assert MemoReply.model_validate({"memo": sentence}).memo == sentence


@pytest.mark.slow
def test_calls_that_ran_emoji_until_cut_off_come_back_whole(tmp_path):
    ledger = tmp_path / "llm_calls.jsonl"
    llm = LLM.from_settings(load_settings(PROJECT_ROOT / "config.toml"), tasks=product_tasks(), ledger_path=ledger)
    for case in CASES:
        llm.ask(ACTIONS_PACKED, ACTIONS_PACKED.typed(case["inputs"]), choices=case["choices"])
    lines = read_ledger(ledger)
    assert [line["prompt"] for line in lines] == ["actions_packed"] * len(CASES)
    cut = [error for line in lines for error in line["errors"] if "cut off" in error]
    assert not cut, cut
    assert not any(line["fallback"] for line in lines)
