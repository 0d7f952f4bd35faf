"""Replies the bundled model gave in the 25-person town that are usable in part: the part the
simulation can use is kept, and a reply with no such part is still sent back.

The replies are the model's own, copied from traced calls; they are checked here with the
units' validators (no model is called).
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from reverie.prompt_tools.fixtures import fixture_inputs
from reverie.tasks.chat_utterance import ITERATIVE_CHAT_UTTERANCE, UtteranceReply
from reverie.tasks.common import without_repeats
from reverie.tasks.convo_thoughts import MEMO_ON_CONVO, PLANNING_THOUGHT_ON_CONVO, MemoReply, PlanningThoughtReply
from reverie.tasks.event_triple import EVENT_TRIPLE, TripleReply
from reverie.tasks.insights import INSIGHTS, InsightsReply
from reverie.tasks.relationship_summary import RELATIONSHIP_SUMMARY, RelationshipReply

THEO, NORA = "Theo Alvarez", "Nora Bennett"


def ctx(task, **inputs):
    return {"inputs": fixture_inputs(task, **inputs), "choices": {}}


# --- a phrase said twice ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("This is a dream, Ken! This is a dream, Ken!", "This is a dream, Ken!"),
        ("I love you. I love you. I love you.", "I love you."),
        (
            "Theo is a close friend of Nora, who is a close friend of Theo, who is a close friend of Nora, "
            "who is a close friend of Theo,",
            "Theo is a close friend of Nora, who is a close friend of Theo, who is a close friend of Nora.",
        ),
        ("Nora opens the cafe at 7, and Theo comes by at 8.", "Nora opens the cafe at 7, and Theo comes by at 8."),
    ],
)
def test_a_repeated_phrase_is_kept_once(text, expected):
    assert without_repeats(text) == expected


def test_a_looping_memo_and_planning_thought_are_stored_said_once():
    memo = MemoReply.model_validate({"memo": "This is a dream, Ken! This is a dream, Ken!"}, context=ctx(MEMO_ON_CONVO))
    assert memo.memo == "This is a dream, Ken!"
    plan = PlanningThoughtReply.model_validate(
        {"thought": "Theo should go to the party. Theo should go to the party."}, context=ctx(PLANNING_THOUGHT_ON_CONVO)
    )
    assert plan.thought == "Theo should go to the party."


def test_a_note_that_runs_on_repeating_words_keeps_their_first_copy():
    """Notes from the 25-person morning: no punctuation between the copies, so only the loop cut finds them."""
    plan = PlanningThoughtReply.model_validate(
        {"thought": "I'm going to wake up tomorrow" + " tomorrow" * 14}, context=ctx(PLANNING_THOUGHT_ON_CONVO)
    )
    assert plan.thought == "I'm going to wake up tomorrow"
    memo = MemoReply.model_validate(
        {"memo": "I am going to visit you at school today " * 3}, context=ctx(MEMO_ON_CONVO)
    )
    assert memo.memo == "I am going to visit you at school today"


def test_an_insight_that_copies_the_answers_format_is_dropped():
    """Five insights of one reply were "morning.Ben.I.am.morning (5) (at most 15 items),": the format line's bound."""
    inputs = {"statements": "0. Ben Okafor waters the garden\n1. Ben Okafor greets Grace", "n": 3, "last_index": 1}
    reply = InsightsReply.model_validate(
        {
            "insights": [
                {"insight": "morning.Ben.I.am.morning (5) (at most 15 items),", "evidence": ["0"]},
                {"insight": "Ben Okafor starts his mornings in the garden", "evidence": ["0", "1"]},
            ]
        },
        context=ctx(INSIGHTS, **inputs),
    )
    assert [i.insight for i in reply.insights] == ["Ben Okafor starts his mornings in the garden"]
    with pytest.raises(ValidationError, match="copies its format"):
        MemoReply.model_validate(
            {"memo": "Grace said good morning (at most 300 characters)"}, context=ctx(MEMO_ON_CONVO)
        )


def test_a_looping_relationship_summary_is_kept_once_and_still_must_name_the_listener():
    inputs = dict(speaker=THEO, listener=NORA)
    reply = RelationshipReply.model_validate(
        {
            "summary": f"{THEO} is having coffee at {NORA}'s cafe, and theo is having a party at the cafe, "
            "and theo is having a party at the cafe, and theo is having a party at the cafe,"
        },
        context=ctx(RELATIONSHIP_SUMMARY, **inputs),
    )
    assert reply.summary == f"{THEO} is having coffee at {NORA}'s cafe, and theo is having a party at the cafe."
    with pytest.raises(ValidationError, match="mention Nora by name"):
        RelationshipReply.model_validate(
            {"summary": "Theo likes his morning coffee. Theo likes his morning coffee."},
            context=ctx(RELATIONSHIP_SUMMARY, **inputs),
        )


# --- event_triple -------------------------------------------------------------------------


def test_a_thought_triple_whose_target_is_the_subject_takes_its_object_from_the_sentence():
    """The model's reply to the whisper "Theo Alvarez buys a coffee every morning ...", three
    attempts running: the verb is right, the target is Theo himself."""
    statement = f"{THEO} buys a coffee every morning at Willow Bean Cafe on {THEO}'s way to the town hall."
    reply = TripleReply.model_validate(
        {"predicate": "buy", "target": THEO}, context=ctx(EVENT_TRIPLE, subject=THEO, statement=statement)
    )
    # The target is cut at a word to the schema's 80 characters.
    assert (reply.predicate, reply.target) == (
        "buys",
        f"a coffee every morning at Willow Bean Cafe on {THEO}'s way to the town",
    )
    reply = TripleReply.model_validate(
        {"predicate": "eat", "target": "Sam Kim"},
        context=ctx(EVENT_TRIPLE, subject="Sam Kim", statement="Sam Kim is eating breakfast"),
    )
    assert (reply.predicate, reply.target) == ("is eating", "breakfast")


@pytest.mark.parametrize(
    "predicate, statement",
    [
        ("walk", f"{THEO} buys a coffee every morning"),  # a verb the sentence does not have
        ("buy", f"{THEO} buys"),  # nothing after the verb
        ("buy", f"Nora says {THEO} buys a coffee"),  # the sentence is not about the subject
    ],
)
def test_a_target_that_is_the_subject_is_still_sent_back_when_the_sentence_has_no_object_for_the_verb(
    predicate, statement
):
    with pytest.raises(ValidationError, match="the target repeats the subject"):
        TripleReply.model_validate(
            {"predicate": predicate, "target": THEO}, context=ctx(EVENT_TRIPLE, subject=THEO, statement=statement)
        )


# --- insights -----------------------------------------------------------------------------


def test_an_insight_that_fails_is_dropped_while_another_stands():
    inputs = {"statements": "0. Theo buys coffee at the cafe\n1. Theo works at the town hall", "n": 3, "last_index": 1}
    reply = InsightsReply.model_validate(
        {
            "insights": [
                {"insight": "Theo buys coffee at the cafe", "evidence": ["0"]},
                {"insight": "Theo", "evidence": ["1"]},
                {"insight": "Theo starts his working day at the cafe", "evidence": ["0", "1"]},
            ]
        },
        context=ctx(INSIGHTS, **inputs),
    )
    assert [(i.insight, i.evidence) for i in reply.insights] == [
        ("Theo starts his working day at the cafe", ["0", "1"])
    ]
    with pytest.raises(ValidationError, match="insight 1 only copies a statement; .*insight 2 is too short"):
        InsightsReply.model_validate(
            {
                "insights": [
                    {"insight": "Theo buys coffee at the cafe", "evidence": ["0"]},
                    {"insight": "Theo", "evidence": ["1"]},
                ]
            },
            context=ctx(INSIGHTS, **inputs),
        )


# --- iterative_chat_utterance -------------------------------------------------------------


def test_a_line_that_goes_on_past_an_earlier_line_keeps_only_its_new_sentences():
    conversation = f"{NORA}: Good morning, Theo! The usual coffee?\n{THEO}: Yes please. Busy day at the town hall."
    inputs = dict(speaker=NORA, listener=THEO, conversation=conversation)
    reply = UtteranceReply.model_validate(
        {"utterance": "Good morning, Theo! The usual coffee? Here it is, fresh from the pot.", "end": False},
        context=ctx(ITERATIVE_CHAT_UTTERANCE, **inputs),
    )
    assert reply.utterance == "Here it is, fresh from the pot."
    for repeat in (
        "Good morning, Theo! The usual coffee?",
        "good morning, Theo. The usual coffee!",
        "Busy day at the town hall.",
    ):
        with pytest.raises(ValidationError, match="already said in this conversation"):
            UtteranceReply.model_validate(
                {"utterance": repeat, "end": False}, context=ctx(ITERATIVE_CHAT_UTTERANCE, **inputs)
            )


def test_the_relationship_summary_is_not_shown_the_speakers_plan_unless_it_names_the_listener():
    """Scripted fake model (records what it was sent): the bundled model copied the plan as the summary."""
    from tests.tasks.planning_support import last_user_text, scripted_llm
    from reverie.tasks.relationship_summary import relationship_summary

    plan = f"This is {THEO}'s plan for Monday February 13: wake up at 7:00 am, buys a coffee at Willow Bean Cafe at 8:00 am."
    met = f"This is {THEO}'s plan for Tuesday February 14: meet {NORA} at the cafe at 8:00 am."
    llm, model = scripted_llm(f'{{"summary": "{THEO} buys his coffee from {NORA} every morning."}}')
    summary = relationship_summary(llm, speaker=THEO, listener=NORA, statements=[plan, f"{NORA} is open", met])
    assert summary == f"{THEO} buys his coffee from {NORA} every morning."
    shown = last_user_text(model)
    assert plan not in shown and f"- {NORA} is open" in shown and met in shown


def test_a_captured_relationship_case_is_asked_as_a_run_asks_it():
    """Scripted fake model: a case captured before the plan was left out (its statements a finished
    bulleted list) is rendered without the plan too."""
    from tests.tasks.planning_support import last_user_text, scripted_llm

    plan = f"This is {THEO}'s plan for Monday February 13: wake up at 7:00 am, work at the town hall at 9:00 am."
    llm, model = scripted_llm(f'{{"summary": "{THEO} and {NORA} are neighbors and good friends."}}')
    llm.ask(
        "relationship_summary",
        {"speaker": THEO, "listener": NORA, "statements": f"- {plan}\n- {NORA} and {THEO} are neighbors"},
    )
    assert plan not in last_user_text(model) and f"- {NORA} and {THEO} are neighbors" in last_user_text(model)


def test_a_looping_thought_is_asked_for_its_triple_said_once():
    """Scripted fake model (records what it was sent); a captured case with the loop is asked the same way."""
    from tests.tasks.planning_support import last_user_text, scripted_llm
    from reverie.tasks.event_triple import thought_triple

    llm, model = scripted_llm('{"predicate": "is", "target": "a dream"}')
    assert thought_triple(llm, name="Ken Sato", thought="This is a dream, Ken! This is a dream, Ken!") == (
        "Ken Sato",
        "is",
        "a dream",
    )
    assert "Sentence: This is a dream, Ken!\n" in last_user_text(model)
    llm.ask("event_triple", {"subject": "Ken Sato", "statement": "I'm going, I'm going, I'm going."})
    assert "Sentence: I'm going.\n" in last_user_text(model)
