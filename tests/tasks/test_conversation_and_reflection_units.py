"""Units for memory scoring, reflection, conversation, interview and whispers: validators,
fail-safes, and the plain values their functions hand back.

``FallbackLLM`` stands in for the facade on the failure path only: it records the inputs a
function builds and answers with the task's fail-safe, as the real chain does when every
attempt fails.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Task, given_values
from reverie.tasks.chat_utterance import ITERATIVE_CHAT_UTTERANCE, NOT_STARTED, UtteranceReply, iterative_chat_utterance
from reverie.tasks.conversation_summary import (
    MAX_TOPIC_WORDS,
    SUMMARIZE_CONVERSATION,
    ConversationSummaryReply,
    summarize_conversation,
)
from reverie.tasks.convo_thoughts import thought_and_memo
from reverie.prompt_tools.fixtures import fixture_inputs
from reverie.tasks.focal_points import FOCAL_POINTS, FocalPointsReply, focal_points
from reverie.tasks.insights import (
    INSIGHTS,
    INSIGHTS_PACKED,
    InsightsPackedReply,
    InsightsReply,
    insights,
    insights_packed,
)
from reverie.tasks.interview import next_convo_line, safety_score, summarize_ideas
from reverie.tasks.interview_judge import INTERVIEW_JUDGE, JudgeReply
from reverie.tasks.poignancy import PoignancyReply, chat_poignancy, event_poignancy
from reverie.tasks.relationship_summary import relationship_summary
from reverie.tasks.registry import product_tasks
from reverie.tasks.whisper import third_person, whisper_inner_thought

TASKS = product_tasks()


class FallbackLLM(LanguageModel):
    """Records each ask (prompt name, inputs as the chain gets them, persona) and answers with
    the fail-safe (the chain's all-attempts-failed path)."""

    def __init__(self):
        self.calls: list[tuple[str, dict, str | None]] = []

    def ask(self, task, inputs, *, choices=None, persona=None, config=None):
        task = TASKS[task.name] if isinstance(task, Task) else TASKS[task]
        typed = task.typed(inputs)
        self.calls.append((task.name, given_values(typed) if inputs is typed else dict(inputs), persona))
        return task.fail_safe(typed, choices or {})


ISABELLA, MARIA = "Isabella Rodriguez", "Maria Lopez"


def ctx(task, **inputs):
    """A validation context: ``task``'s typed inputs (its first fixture case's, with ``inputs`` in place)."""
    return {"inputs": fixture_inputs(task, **inputs), "choices": {}}


# --- poignancy --------------------------------------------------------------------------


@pytest.mark.parametrize("raw, expected", [(7, 7), ("7", 7), (" 3 ", 3), (10.0, 10), (1, 1)])
def test_poignancy_reads_whole_numbers_1_to_10(raw, expected):
    assert PoignancyReply.model_validate({"rating": raw}).rating == expected


@pytest.mark.parametrize("raw", [0, 11, -2, 100])
def test_poignancy_out_of_range_is_corrected_not_clamped(raw):
    with pytest.raises(ValidationError, match=f"{raw} is out of range; use a whole number from 1 to 10"):
        PoignancyReply.model_validate({"rating": raw})


def test_poignancy_range_is_an_enum_for_the_grammar():
    prop = PoignancyReply.model_json_schema()["properties"]["rating"]
    assert prop["enum"] == list(range(1, 11))


def test_poignancy_functions_return_ints_even_on_failure():
    llm = FallbackLLM()
    assert event_poignancy(llm, persona_name=ISABELLA, identity="Name: Isabella", description="opening the cafe") == 4
    assert (
        chat_poignancy(llm, persona_name=ISABELLA, identity="Name: Isabella", description="conversing about a party")
        == 4
    )
    assert [c[0] for c in llm.calls] == ["event_poignancy", "chat_poignancy"]
    assert all(c[2] == ISABELLA for c in llm.calls)


# --- conversation summary ---------------------------------------------------------------


def test_summary_prefix_is_never_doubled():
    reply = ConversationSummaryReply.model_validate({"conversing_about": "Conversing about the party tomorrow."})
    assert reply.conversing_about == "the party tomorrow"
    reply = ConversationSummaryReply.model_validate({"conversing_about": "They are talking about exam dates"})
    assert reply.conversing_about == "exam dates"


def test_summary_must_come_from_the_conversation():
    context = ctx(
        SUMMARIZE_CONVERSATION, conversation="Isabella Rodriguez: Come to my party tomorrow!\nMaria Lopez: I will!"
    )
    assert ConversationSummaryReply.model_validate({"conversing_about": "Maria coming to the party"}, context=context)
    with pytest.raises(ValidationError, match="the topic must come from this conversation"):
        ConversationSummaryReply.model_validate({"conversing_about": "lunch at the diner at noon"}, context=context)


def test_a_summary_that_quotes_the_conversation_keeps_its_first_line_without_the_speaker():
    # The bundled model's summary in the README's first run: the transcript, speakers and all.
    said = "Nora Bennett: Theo Alvarez is here!\nTheo Alvarez: Sorry, I have to go now. See you later, Nora!"
    context = ctx(SUMMARIZE_CONVERSATION, conversation=said)
    quoted = "Nora Bennett: Theo Alvarez is here! Theo Alvarez: Sorry, I have to go now. See you later, Nora!"
    reply = ConversationSummaryReply.model_validate({"conversing_about": quoted}, context=context)
    assert reply.conversing_about == "Theo Alvarez is here!"
    reply = ConversationSummaryReply.model_validate(
        {"conversing_about": "Theo leaving Nora Bennett: Sorry"}, context=context
    )
    assert reply.conversing_about == "Theo leaving"
    reply = ConversationSummaryReply.model_validate({"conversing_about": "Theo leaving Nora's cafe"}, context=context)
    assert reply.conversing_about == "Theo leaving Nora's cafe"


def test_a_topic_is_one_short_sentence():
    # The bundled model's topics in the 25-person morning: the first line quoted, loops and all,
    # became the event every resident nearby kept and read again.
    said = "Walter Brennan: You are kind! I will help you in the garden.\nJune Brennan: The garden needs you, Walter."
    context = ctx(SUMMARIZE_CONVERSATION, conversation=said)
    ran_on = "Walter Brennan is kind! He is going to help you in the garden! You are going to help him!"
    assert (
        ConversationSummaryReply.model_validate({"conversing_about": ran_on}, context=context).conversing_about
        == "Walter Brennan is kind!"
    )
    looped = (
        "the garden needs help, I am going to help you in the garden, I am going to help you in the garden and the park"
    )
    topic = ConversationSummaryReply.model_validate({"conversing_about": looped}, context=context).conversing_about
    assert topic == "the garden needs help, I am going to help you in the garden"
    assert len(topic.split()) <= MAX_TOPIC_WORDS
    # A clause end early in a long sentence is not where it is cut: the words before it say nothing.
    long = "By the way, June is planting tulips along the park paths before spring with Walter and the school children"
    topic = ConversationSummaryReply.model_validate({"conversing_about": long}, context=context).conversing_about
    assert topic == "By the way, June is planting tulips along the park paths before spring with Walter"
    titled = "Dr. Brennan helping in the garden. Then lunch"
    assert (
        ConversationSummaryReply.model_validate({"conversing_about": titled}, context=context).conversing_about
        == "Dr. Brennan helping in the garden"
    )


def test_summary_is_never_none():
    llm = FallbackLLM()
    text = summarize_conversation(llm, utterances=[(ISABELLA, "Hi!"), (MARIA, "Hello!")])
    assert text == "conversing about what Isabella and Maria are up to"
    assert llm.calls[0][1] == {"conversation": f"{ISABELLA}: Hi!\n{MARIA}: Hello!"}


# --- reflection -------------------------------------------------------------------------

STATEMENTS = [
    "Isabella Rodriguez is opening Hobbs Cafe",
    "Maria Lopez is studying at Hobbs Cafe",
    "Isabella Rodriguez is decorating the cafe for the party",
]


def test_focal_points_fail_safe_uses_the_memories_themselves():
    llm = FallbackLLM()
    questions = focal_points(llm, persona_name=ISABELLA, statements=STATEMENTS, n=2)
    assert questions == STATEMENTS[:2]
    assert llm.calls[0][1]["statements"].splitlines()[0] == f"- {STATEMENTS[0]}"


def test_insights_numbers_statements_from_zero_and_checks_the_range():
    llm = FallbackLLM()
    result = insights(llm, persona_name=ISABELLA, statements=STATEMENTS, n=5)
    inputs = llm.calls[0][1]
    assert inputs["statements"].splitlines()[0] == f"0. {STATEMENTS[0]}"
    assert inputs["last_index"] == 2
    # The fail-safe has the real shape: (sentence, [indices in range]).
    assert result == [(f"{ISABELLA} has had a lot going on lately", [0, 1, 2])]

    with pytest.raises(
        ValidationError, match="evidence index 3 in insight 1 is out of range: statements are numbered 0 to 2"
    ):
        InsightsReply.model_validate(
            {"insights": [{"insight": "Isabella loves her cafe", "evidence": [0, 3]}]}, context=ctx(INSIGHTS, **inputs)
        )


def test_insights_drop_repeats_and_extras_instead_of_failing():
    inputs = {"statements": "0. a b c\n1. d e f", "n": 1, "last_index": 1}
    reply = InsightsReply.model_validate(
        {
            "insights": [
                {"insight": "Isabella is busy today", "evidence": [1, 1, 0]},
                {"insight": "isabella is busy today", "evidence": [0]},
                {"insight": "Maria studies a lot", "evidence": [1]},
            ]
        },
        context=ctx(INSIGHTS, **inputs),
    )
    assert [(i.insight, i.evidence) for i in reply.insights] == [("Isabella is busy today", ["1", "0"])]


def test_packed_insights_keep_each_kept_insights_own_triple():
    """A repeated insight is dropped with its triple; each kept one keeps the triple written with it,
    a missing one is None (the fail-safe's, asked no more)."""
    inputs = {"persona_name": ISABELLA, "statements": "0. a b c\n1. d e f", "n": 2, "last_index": 1}
    context = ctx(INSIGHTS_PACKED, **inputs)
    reply = InsightsPackedReply.model_validate(
        {
            "insights": [
                {"insight": "Isabella is busy today", "evidence": [1], "predicate": "is", "target": "busy today"},
                {"insight": "isabella is busy today", "evidence": [0], "predicate": "was", "target": "busy"},
                {"insight": "Isabella plans her party", "evidence": [0]},
                {"insight": "Maria studies a lot", "evidence": [1], "predicate": "studies", "target": "a lot"},
            ]
        },
        context=context,
    )
    assert [(i.insight, i.predicate, i.target) for i in reply.insights] == [
        ("Isabella is busy today", "is", "busy today"),
        ("Isabella plans her party", "", ""),
    ]
    assert reply.stored_triples(context["inputs"]) == [(ISABELLA, "is", "busy today"), None]


def test_packed_insights_fail_safe_comes_with_its_triple():
    llm = FallbackLLM()
    assert insights_packed(llm, persona_name=ISABELLA, statements=STATEMENTS, n=5) == [
        (f"{ISABELLA} has had a lot going on lately", [0, 1, 2], (ISABELLA, "has had", "a lot going on lately"))
    ]
    assert (
        llm.calls[0][0] == "insights_packed" and llm.calls[0][1]["statements"].splitlines()[0] == f"0. {STATEMENTS[0]}"
    )
    assert insights_packed(llm, persona_name=ISABELLA, statements=[], n=5) == [] and len(llm.calls) == 1


def test_focal_points_drop_repeats_and_extras():
    reply = FocalPointsReply.model_validate(
        {
            "questions": [
                "Who is coming to the party?",
                "who is coming to the party?",
                "What is Maria studying?",
                "Why is Klaus here?",
            ]
        },
        context=ctx(FOCAL_POINTS, n=2),
    )
    assert reply.questions == ["Who is coming to the party?", "What is Maria studying?"]


def test_insights_with_no_statements_asks_nothing():
    llm = FallbackLLM()
    assert insights(llm, persona_name=ISABELLA, statements=[], n=5) == []
    assert llm.calls == []


# --- conversation -----------------------------------------------------------------------


def test_relationship_summary_fail_safe_is_a_sentence_about_both():
    text = relationship_summary(FallbackLLM(), speaker=ISABELLA, listener=MARIA, statements=[])
    assert text == f"{ISABELLA} does not know {MARIA} well yet."


def test_utterance_end_flag_is_a_real_boolean():
    inputs = {"speaker": ISABELLA, "listener": MARIA, "conversation": f"{MARIA}: Hi Isabella!"}
    reply = UtteranceReply.model_validate(
        {"utterance": "Bye, see you!", "end": True}, context=ctx(ITERATIVE_CHAT_UTTERANCE, **inputs)
    )
    assert reply.end is True
    with pytest.raises(ValidationError, match="valid boolean"):
        UtteranceReply.model_validate(
            {"utterance": "Bye!", "end": "finished?"}, context=ctx(ITERATIVE_CHAT_UTTERANCE, **inputs)
        )


def test_utterance_loses_its_speaker_prefix_and_quotes():
    inputs = {"speaker": ISABELLA, "listener": MARIA, "conversation": NOT_STARTED}
    reply = UtteranceReply.model_validate(
        {"utterance": 'Isabella: "Hi Maria!"', "end": False}, context=ctx(ITERATIVE_CHAT_UTTERANCE, **inputs)
    )
    assert reply.utterance == "Hi Maria!"


def test_utterance_fail_safe_is_a_pause_that_never_ends_the_talk():
    """The original's fail-safe: "..." and the conversation goes on (the turn cap ends it)."""
    llm = FallbackLLM()
    common = dict(
        identity="Name: Isabella",
        speaker=ISABELLA,
        listener=MARIA,
        memories=[],
        past_context="",
        location="cafe in Hobbs Cafe",
        current_context="Isabella sees Maria.",
    )
    assert iterative_chat_utterance(llm, conversation=[], **common) == ("...", False)
    assert llm.calls[0][1]["conversation"] == NOT_STARTED
    assert iterative_chat_utterance(llm, conversation=[(ISABELLA, "Hi Maria!"), (MARIA, "Hi!")], **common) == (
        "...",
        False,
    )


def test_post_conversation_thoughts_are_sentences():
    llm = FallbackLLM()
    utterances = [(ISABELLA, "Come to my party tomorrow at 5!"), (MARIA, "I will!")]
    plan, memo = thought_and_memo(llm, persona_name=MARIA, partner_name=ISABELLA, utterances=utterances)
    assert plan.endswith(".") and ISABELLA in plan
    assert memo == f"{MARIA} had a conversation with {ISABELLA}."


# --- interview and whispers --------------------------------------------------------------


def test_interview_fail_safes_keep_the_interview_going():
    llm = FallbackLLM()
    assert safety_score(llm, comment="Hi!") == 1  # an unmade check must not block the answer
    assert summarize_ideas(llm, persona_name=ISABELLA, statements=[], question="How are you?")
    answer = next_convo_line(
        llm,
        persona_name=ISABELLA,
        identity="Name: Isabella",
        interlocutor="Interviewer",
        conversation=[("Interviewer", "How are you?")],
        summary="nothing",
    )
    assert answer and answer != "..."


@pytest.mark.parametrize(
    "whisper, expected",
    [
        ("you and Maria Lopez are close friends", "Isabella Rodriguez and Maria Lopez are close friends."),
        ("your favorite drink is hot chocolate", "Isabella Rodriguez's favorite drink is hot chocolate."),
        ("You are planning a party", "Isabella Rodriguez is planning a party."),
        ("Maria Lopez likes physics", "Isabella Rodriguez believes that Maria Lopez likes physics."),
    ],
)
def test_whisper_fail_safe_rewrites_second_person(whisper, expected):
    assert third_person(whisper, ISABELLA) == expected
    assert whisper_inner_thought(FallbackLLM(), persona_name=ISABELLA, whisper=whisper) == expected


def test_judge_quote_that_runs_past_the_answer_is_cut_where_it_leaves_it():
    # The bundled model copied the answer's start, then went on repeating it or paraphrasing:
    # the evidence keeps the copied words, and the verdict stays the model's.
    answer = "I did not know that, but Daniel Hale told me about it."
    inputs = {
        "persona_name": "Ava Lin",
        "question": "Did you know that Marcus Reed is running for the town council?",
        "answer": answer,
    }
    run_on = JudgeReply.model_validate(
        {"evidence": "I did not know that, but Daniel Hale told me that. I did not know", "verdict": "no"},
        context=ctx(INTERVIEW_JUDGE, **inputs),
    )
    assert run_on.evidence == "I did not know that, but Daniel Hale told me" and run_on.verdict == "no"
    whole = JudgeReply.model_validate(
        {"evidence": "daniel hale TOLD me about it", "verdict": "yes"}, context=ctx(INTERVIEW_JUDGE, **inputs)
    )
    assert whole.evidence == "daniel hale TOLD me about it"
    # Fewer than three words of the answer before it leaves it: asked again.
    for made_up in ("I did hear about the election", "Marcus Reed is running"):
        with pytest.raises(ValidationError, match="copied word for word from the answer"):
            JudgeReply.model_validate({"evidence": made_up, "verdict": "yes"}, context=ctx(INTERVIEW_JUDGE, **inputs))


def test_judge_paraphrase_keeps_the_run_it_copied():
    # The bundled model's reply on a fixture: it paraphrased the start ("I have not" for "I don't
    # think I have") and copied the rest; four words or more copied in a row are kept as the quote.
    inputs = {
        "persona_name": "Lucy Tran",
        "question": "Do you know Marcus Reed?",
        "answer": "I don't think I have met anyone by that name.",
    }
    reply = JudgeReply.model_validate(
        {"evidence": "I have not met anyone by that name", "verdict": "no"}, context=ctx(INTERVIEW_JUDGE, **inputs)
    )
    assert reply.evidence == "met anyone by that name" and reply.verdict == "no"
    # Three words in a row inside a paraphrase are too few to be the answer's words: asked again.
    with pytest.raises(ValidationError, match="copied word for word from the answer"):
        JudgeReply.model_validate(
            {"evidence": "they have met anyone at all", "verdict": "no"}, context=ctx(INTERVIEW_JUDGE, **inputs)
        )
