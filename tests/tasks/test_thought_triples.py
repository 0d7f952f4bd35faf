"""thought_triples: one triple per thought in one call, each checked as a single event_triple reply.

The unit's checks are run directly on replies (no model). Its function runs on the real LLM
facade (prompt file, grammar schema, repair loop, ledger) over a scripted fake chat model
(not a real model), as each test's docstring says.
"""

from __future__ import annotations

import json
import logging

import pytest
from pydantic import ValidationError

from reverie.llm.schema import call_schema, items_asked
from reverie.prompt_tools.evaluate import read_ledger
from reverie.prompt_tools.fixtures import load_fixture
from reverie.tasks.event_triple import EVENT_TRIPLE
from reverie.tasks.thought_triples import (
    MAX_THOUGHTS,
    THOUGHT_TRIPLES,
    ThoughtTriplesReply,
    statement_of,
    thought_triples,
)
from tests.tasks.planning_support import scripted_llm

FIXTURE = load_fixture("thought_triples")
CASE = FIXTURE.cases[2]  # Klaus Mueller: a planning thought, what he heard, a habit
INPUTS = THOUGHT_TRIPLES.typed(CASE.inputs)
NAME = INPUTS.subject
THOUGHTS = INPUTS.statement_list
GOOD = [
    {"predicate": "should finish", "target": "the gentrification chapter of his research paper"},
    {"predicate": "heard", "target": "that Isabella Rodriguez is hosting a Valentine's Day party"},
    {"predicate": "spends", "target": "most mornings writing at the library"},
]
# The second triple's target repeats the subject, and "likes" is no verb of its sentence: it fails.
BROKEN = [GOOD[0], {"predicate": "likes", "target": NAME}, GOOD[2]]


def check(triples: list[dict]) -> ThoughtTriplesReply:
    return THOUGHT_TRIPLES.validate({"triples": triples}, CASE.inputs, CASE.choices)


def test_each_triple_is_what_event_triple_makes_of_it_for_its_own_thought():
    # A long predicate is shortened, and a target that repeats the subject is read from the sentence.
    raw = [
        {"predicate": "is going to finish the", "target": "gentrification chapter"},
        {"predicate": "heard", "target": NAME},
        GOOD[2],
    ]
    answers = check(raw).answers(INPUTS)
    for number, (triple, answer) in enumerate(zip(raw, answers), 1):
        assert answer == EVENT_TRIPLE.validate(triple, INPUTS.one(number))
    assert (answers[0].predicate, answers[0].target) == ("is going", "to finish the gentrification chapter")
    assert answers[1].predicate == "heard"
    assert answers[1].target.startswith("from Maria Lopez that Isabella Rodriguez is hosting")


def test_a_triple_that_fails_its_checks_is_left_out_and_the_others_kept():
    answers = check(BROKEN).answers(INPUTS)
    assert answers[1] is None
    assert [(a.predicate, a.target) for a in answers if a is not None] == [
        (GOOD[0]["predicate"], GOOD[0]["target"]),
        (GOOD[2]["predicate"], GOOD[2]["target"]),
    ]


def test_a_triple_with_no_word_of_its_own_thought_is_left_out_but_not_sent_back():
    # A small model's copy of the first thought's triple into the third passes event_triple's checks.
    copied = [GOOD[0], GOOD[1], GOOD[0]]
    assert EVENT_TRIPLE.validate(copied[2], INPUTS.one(3))
    answers = check(copied).answers(INPUTS)
    assert answers[2] is None and None not in answers[:2]
    everywhere = check([GOOD[2], GOOD[2], GOOD[0]]).answers(INPUTS)  # each one another thought's: no send-back
    assert everywhere == [None, None, None]
    # Another ending of a word of the thought is a word of it ("finishing" for "finish", "heard" for "heard").
    assert check([{"predicate": "is finishing", "target": "a chapter"}, GOOD[1], GOOD[2]]).answers(INPUTS)[0]


def test_no_usable_triple_or_the_wrong_count_is_sent_back():
    with pytest.raises(ValidationError, match=f"triples 1, 2, 3: the target repeats the subject '{NAME}'"):
        check([{"predicate": "likes", "target": NAME}] * 3)
    with pytest.raises(
        ValidationError,
        match='give exactly 3 triples in "triples", one for each numbered sentence in order; you gave 2',
    ):
        check(GOOD[:2])


def test_the_schema_fixes_the_list_to_the_thoughts_and_the_fail_safe_answers_nothing():
    for case in FIXTURE.cases:
        schema = call_schema(ThoughtTriplesReply, case.choices)
        triples = schema["properties"]["triples"]
        assert triples["minItems"] == triples["maxItems"] == case.inputs["count"] == items_asked(schema)
        assert len(case.choices["statements"]) == case.inputs["count"]
    assert call_schema(ThoughtTriplesReply, {})["properties"]["triples"]["maxItems"] == MAX_THOUGHTS
    assert THOUGHT_TRIPLES.fail_safe(INPUTS, CASE.choices).answers(INPUTS) == []


def _prompts(ledger) -> list[str]:
    return [line["prompt"] for line in read_ledger(ledger)]


def test_one_call_answers_every_thought_but_the_one_whose_triple_fails(tmp_path):
    """Scripted fake model: one reply with three triples, the second of which fails its checks."""
    llm, fake = scripted_llm(json.dumps({"triples": BROKEN}), ledger_path=tmp_path / "ledger.jsonl")
    found = thought_triples(llm, name=NAME, thoughts=THOUGHTS)
    assert found == [
        (NAME, GOOD[0]["predicate"], GOOD[0]["target"]),
        None,
        (NAME, GOOD[2]["predicate"], GOOD[2]["target"]),
    ]
    assert _prompts(tmp_path / "ledger.jsonl") == ["thought_triples"] and len(fake.calls) == 1
    shown = fake.calls[0].user_text
    assert f"Subject: {NAME}" in shown and shown.count(NAME) == 1 + sum(t.count(NAME) for t in THOUGHTS)
    assert all(f"{number}. {thought}" in shown for number, thought in enumerate(THOUGHTS, 1))


def test_the_wrong_count_goes_back_with_the_count(tmp_path):
    """Scripted fake model: two triples for three thoughts, then three."""
    llm, fake = scripted_llm(
        json.dumps({"triples": GOOD[:2]}), json.dumps({"triples": GOOD}), ledger_path=tmp_path / "ledger.jsonl"
    )
    found = thought_triples(llm, name=NAME, thoughts=THOUGHTS)
    assert found == [(NAME, t["predicate"], t["target"]) for t in GOOD]
    assert len(fake.calls) == 2
    assert "give exactly 3 triples" in fake.calls[1].user_text and "you gave 2" in fake.calls[1].user_text
    [line] = read_ledger(tmp_path / "ledger.jsonl")
    assert line["attempts"] == 2 and not line["fallback"]


def test_a_reply_with_nothing_usable_goes_back_with_what_is_wrong(tmp_path):
    """Scripted fake model: every triple repeats the subject, then a good reply."""
    llm, fake = scripted_llm(
        json.dumps({"triples": [{"predicate": "likes", "target": NAME}] * 3}),
        json.dumps({"triples": GOOD}),
        ledger_path=tmp_path / "ledger.jsonl",
    )
    assert None not in thought_triples(llm, name=NAME, thoughts=THOUGHTS)
    assert f"triples 1, 2, 3: the target repeats the subject '{NAME}'" in fake.calls[1].user_text


def test_triples_copied_from_other_thoughts_are_left_out_without_asking_the_list_again(tmp_path):
    """Scripted fake model: every triple of the reply is another thought's."""
    llm, fake = scripted_llm(
        json.dumps({"triples": [GOOD[2], GOOD[2], GOOD[0]]}), ledger_path=tmp_path / "ledger.jsonl"
    )
    assert thought_triples(llm, name=NAME, thoughts=THOUGHTS) == [None, None, None]
    assert len(fake.calls) == 1 and not read_ledger(tmp_path / "ledger.jsonl")[0]["fallback"]


def test_a_failed_call_answers_no_thought(tmp_path, caplog):
    """Failure path: a scripted fake model that never replies with JSON; the fail-safe is logged."""
    llm, _fake = scripted_llm("I am not sure.", ledger_path=tmp_path / "ledger.jsonl")
    with caplog.at_level(logging.INFO, logger="reverie.tasks.thought_triples"):
        assert thought_triples(llm, name=NAME, thoughts=THOUGHTS) == [None, None, None]
    [line] = read_ledger(tmp_path / "ledger.jsonl")
    assert line["prompt"] == "thought_triples" and line["fallback"]
    assert any("no triples for Klaus Mueller's 3 thoughts" in record.getMessage() for record in caplog.records)


def test_long_batches_go_in_even_calls_and_a_repeated_thought_is_asked_once(tmp_path):
    """Scripted fake model: each call gets one triple per thought it shows."""

    def per_thought(call):
        count = call.schema["properties"]["triples"]["maxItems"]
        return {"triples": [{"predicate": "remembers", "target": f"thing {i}"} for i in range(count)]}

    thoughts = [f"Klaus Mueller remembers thing {i}" for i in range(MAX_THOUGHTS + 2)]
    llm, fake = scripted_llm(per_thought, ledger_path=tmp_path / "ledger.jsonl")
    found = thought_triples(llm, name=NAME, thoughts=thoughts + [thoughts[0]])
    assert [c.schema["properties"]["triples"]["maxItems"] for c in fake.calls] == [4, 4]
    assert len(found) == len(thoughts) + 1 and None not in found and found[-1] == found[0]


def test_fewer_than_two_distinct_thoughts_ask_nothing(tmp_path):
    """Scripted fake model that would answer anything: it must not be called."""
    llm, fake = scripted_llm(json.dumps({"triples": GOOD}), ledger_path=tmp_path / "ledger.jsonl")
    assert thought_triples(llm, name=NAME, thoughts=[THOUGHTS[0], THOUGHTS[0]]) == [None, None]
    assert thought_triples(llm, name=NAME, thoughts=[THOUGHTS[0]]) == [None]
    assert fake.calls == []


def test_a_thought_is_asked_as_event_triple_would_ask_it():
    """A phrase the thought repeats word for word is said once, as in the single prompt."""
    assert statement_of(NAME, "This is a dream, Klaus! This is a dream, Klaus!") == "This is a dream, Klaus!"
