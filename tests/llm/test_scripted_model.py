"""The scripted town model (not a real model: rules over each prompt's own inputs), through the
real chain (prompt files, grammar schema, parsing, validators, ledger). Each rule's answer must
come from the prompt's inputs: change the inputs, the answer changes."""

from __future__ import annotations

import pytest

from reverie.config import Settings
from reverie.llm import LLM
from reverie.llm.prompt_spec import PromptStore
from reverie.llm.repair_loop import render_messages
from reverie.llm.schema import call_schema
from reverie.llm.scripted import ScriptedChatModel
from reverie.llm.scripted.unrender import prompt_inputs
from reverie.prompt_tools.fixtures import fixture_names, load_fixture
from reverie.tasks.registry import product_tasks

TASKS = product_tasks()


@pytest.fixture
def llm(tmp_path):
    settings = Settings()
    model = ScriptedChatModel(prompts=settings.paths.prompts)
    return LLM(
        settings, tasks=TASKS, chat_models={"strong": model, "cheap": model}, ledger_path=tmp_path / "calls.jsonl"
    )


def ask(llm, name: str, **values):
    case = load_fixture(name).cases[0]
    return llm.ask(name, {**case.inputs, **values}, choices=case.choices)


def test_the_inputs_are_read_back_from_the_rendered_prompt():
    settings = Settings()
    spec = PromptStore(settings.paths.prompts).get("iterative_chat_utterance")
    case = load_fixture("iterative_chat_utterance").cases[0]
    messages = render_messages(spec, case.inputs, call_schema(TASKS["iterative_chat_utterance"].schema, case.choices))
    assert prompt_inputs(spec, messages) == {key: str(case.inputs[key]).strip() for key in spec.inputs}


@pytest.mark.parametrize("name", fixture_names())
def test_every_prompt_gets_an_answer_its_validators_accept(llm, name):
    ask(llm, name)
    assert llm.ledger.last["fallback"] is False, llm.ledger.last["errors"]


def test_it_agrees_to_talk(llm):
    assert ask(llm, "decide_to_talk").start_conversation == "yes"


def test_a_conversation_passes_on_the_most_important_memory(llm):
    memories = "- Ana is watering the plants\n- Ana is hosting a picnic at Elm Park on March 3 at 4 pm\n- Ana is idle"
    first = ask(
        llm,
        "iterative_chat_utterance",
        memories=memories,
        conversation="(Nobody has said anything yet.)",
        identity="Name: Ana Ruiz\nCurrently: Ana Ruiz is reading.",
    )
    assert "picnic at Elm Park on March 3 at 4 pm" in first.utterance and not first.end
    other = ask(
        llm,
        "iterative_chat_utterance",
        memories="- Ana is running for mayor\n- Ana is idle",
        conversation="(Nobody has said anything yet.)",
        identity="Name: Ana Ruiz\nCurrently: Ana Ruiz is reading.",
    )
    assert "running for mayor" in other.utterance and "picnic" not in other.utterance


def test_a_packed_conversation_passes_on_each_speakers_news(llm):
    talk = ask(
        llm,
        "conversation_packed",
        initiator_memories="- Ana is hosting a picnic at Elm Park on March 3 at 4 pm",
        partner_memories="- Bo is running for mayor",
        initiator_identity="Name: Ana Ruiz",
        partner_identity="Name: Bo Li",
    )
    assert "picnic at Elm Park on March 3 at 4 pm" in talk.lines[0] and "running for mayor" in talk.lines[1]
    assert llm.ledger.last["fallback"] is False


def test_what_was_heard_becomes_the_memo(llm):
    convo = "Bo Li: Hi Ana! Did you hear? Cy is hosting a dance at the Town Hall on May 2 at 8 pm.\nAna Ruiz: Thanks."
    memo = ask(llm, "memo_on_convo", persona_name="Ana Ruiz", partner_name="Bo Li", conversation=convo).memo
    assert "dance at the Town Hall on May 2 at 8 pm" in memo
    memo = ask(
        llm,
        "memo_on_convo",
        persona_name="Ana Ruiz",
        partner_name="Bo Li",
        conversation=convo.replace("dance", "wedding"),
    ).memo
    assert "wedding" in memo


def test_the_day_plan_goes_to_an_event_remembered_for_today_at_its_time(llm):
    identity = (
        "Name: Ana Ruiz\nCurrently: Ana Ruiz knows that Cy is hosting a party at Elm Cafe on February 14 "
        "from 5 pm to 7 pm."
    )
    today = ask(llm, "daily_plan", identity=identity, date="Tuesday February 14", wake_up_time="7:00 am").items
    assert any("party at Elm Cafe" in item and "5:00 pm" in item for item in today)
    other_day = ask(llm, "daily_plan", identity=identity, date="Monday February 13", wake_up_time="7:00 am").items
    assert not any("party" in item for item in other_day)


def test_poignancy_follows_simple_cues(llm):
    assert ask(llm, "event_poignancy", description="Ana is sleeping").rating == 1
    assert ask(llm, "event_poignancy", description="Ana is hosting a party on May 2 at 8 pm").rating == 9


def test_an_action_goes_where_its_words_say(llm):
    case = load_fixture("action_packed").cases[0]
    sectors = list(case.inputs["place_tree"])
    for sector in sectors[:2]:
        answer = ask(llm, "action_packed", action=f"going to {sector}", subtask=f"walking to {sector}")
        assert answer.sector == sector


def ana_summary(llm, question: str, *memories: str) -> str:
    """Ana Ruiz's summary of her ``memories`` for an interview's ``question`` (summarize_ideas)."""
    statements = "\n".join(f"- {memory}" for memory in memories)
    return ask(llm, "summarize_ideas", persona_name="Ana Ruiz", question=question, statements=statements).summary


def ana_says_yes(llm, question: str, summary: str, *, currently: str) -> bool:
    """Whether Ana Ruiz's interview answer to ``question`` (next_convo_line, from ``summary``) begins "Yes"."""
    reply = ask(
        llm,
        "next_convo_line",
        persona_name="Ana Ruiz",
        summary=summary,
        conversation=f"Interviewer: {question}",
        identity=f"Name: Ana Ruiz\nCurrently: {currently}",
    )
    return reply.utterance.startswith("Yes")


def test_an_interview_says_yes_only_when_the_memories_bear_on_it(llm):
    yes = ana_summary(llm, "Do you know who is running for mayor?", "Bo Li is running for mayor", "Ana is idle")
    assert "Bo Li is running for mayor" in yes
    none = ana_summary(llm, "Do you know who is running for mayor?", "Ana is idle", "Ana ate lunch")
    assert "Bo Li" not in none


def test_an_interview_about_someone_finds_them_in_the_memories_that_name_them(llm):
    """The memories that name another resident are the reported ones ("A heard from B that ...",
    "A is conversing about ..."): matched as retrieved, they let A know of B."""
    heard = ana_summary(
        llm, "Do you know of Bo Li?", "Ana Ruiz heard from Bo Li that the library opens late", "Ana Ruiz is idle"
    )
    assert "Bo Li" in heard
    assert ana_says_yes(llm, "Do you know of Bo Li?", heard, currently="Ana is reading.")
    chatted = ana_summary(llm, "Do you know of Cy Moss?", "Ana Ruiz is conversing about the fair with Cy Moss")
    assert "Cy Moss" in chatted


def test_an_interview_about_someone_needs_their_full_name(llm):
    """One word of a name may be someone else's: "Zara Okafor" is not "Ben Okafor"."""
    summary = ana_summary(
        llm, "Do you know of Ben Okafor?", "Ana Ruiz heard from Zara Okafor that Ben is away", "Ana Ruiz is idle"
    )
    assert "Okafor" not in summary
    assert not ana_says_yes(
        llm, "Do you know of Ben Okafor?", summary, currently="Ana Ruiz often chats with Zara Okafor."
    )


def test_a_diffusion_question_keeps_its_keywords_and_needs_a_memory(llm):
    heard = ana_summary(
        llm, "Did you know there is a party?", "Ana Ruiz heard from Bo Li that there is a party at Elm Hall on May 2"
    )
    assert "party at Elm Hall" in heard
    none = ana_summary(
        llm,
        "Did you know there is a Valentine's Day party?",
        "Ana Ruiz heard from Bo Li that the library opens late every day",
    )
    assert "library" not in none  # "day" is no party: the head of what is asked must be named
    assert not ana_says_yes(llm, "Did you know there is a party?", none, currently="Ana Ruiz is reading.")


def test_a_talk_about_an_event_keeps_its_hours_in_the_topic(llm):
    """The topic becomes "<name> is conversing about <topic>", a memory cut to a few words: an
    announced event is told in a phrase short enough to keep its place, date and hours."""
    from reverie.llm.scripted.cues import span_of

    said = (
        "Ana Ruiz: Did you hear? Cy Moss is throwing a spring party at the Elm Town Hall on May 2, 2023, from 8 pm "
        "to 10 pm, and she hopes everyone comes.\nBo Li: Good to know!"
    )
    topic = ask(llm, "summarize_conversation", conversation=said).conversing_about
    assert "Elm Town Hall" in topic and "May 2" in topic and span_of(topic) == (20 * 60, 22 * 60), topic


def test_a_long_event_keeps_its_time_when_it_must_be_shortened(llm):
    statement = (
        "Cy is getting the hall ready for it and asks everyone she meets to come to the dance at Elm Town Hall "
        "on May 2, 2023, from 8 pm to 10 pm, and she hopes it will be the best evening of the spring."
    )
    insight = (
        ask(
            llm,
            "insights",
            persona_name="Ana Ruiz",
            statements=f"0. {statement}\n1. Ana is idle",
            n="1",
            last_index="1",
        )
        .insights[0]
        .insight
    )
    assert "dance at Elm Town Hall" in insight and "8:00 pm to 10:00 pm" in insight


def test_a_batch_of_events_is_rated_one_by_one_from_its_cues(llm):
    events = "1. Ana is sleeping\n2. Ana is hosting a party on May 2 at 8 pm\n3. the bed is idle"
    assert ask(llm, "events_poignancy", events=events, count=3).ratings == [1, 9, 1]
    reordered = "1. Ana is hosting a party on May 2 at 8 pm\n2. the bed is idle\n3. Ana is sleeping"
    assert ask(llm, "events_poignancy", events=reordered, count=3).ratings == [9, 1, 1]
    assert ask(
        llm, "events_poignancy", events=reordered.replace("hosting a party on May 2 at 8 pm", "idle"), count=3
    ).ratings == [1, 1, 1]


def test_it_answers_each_subtask_of_a_batch_as_it_answers_that_subtask_alone(llm):
    """actions_packed: one answer per numbered subtask, the same as action_packed's for it."""
    case, subtasks = load_fixture("actions_packed").cases[0], ["reading at the pub", "playing the piano"]
    inputs = {**case.inputs, "action": "spending the evening"}
    batch = {**inputs, "subtasks": "1. reading at the pub\n2. playing the piano", "count": 2, "subtask_list": subtasks}
    choices = {**case.choices, "subtasks": subtasks}
    reply = llm.ask("actions_packed", batch, choices=choices)
    assert llm.ledger.last["attempts"] == 1
    single = {key: inputs[key] for key in load_fixture("action_packed").cases[0].inputs if key != "subtask"}
    alone = [
        llm.ask("action_packed", {**single, "subtask": one}, choices=load_fixture("action_packed").cases[0].choices)
        for one in subtasks
    ]
    assert reply.answers(TASKS["actions_packed"].typed(batch), choices) == alone
    assert alone[0].sector == "The Rose and Crown Pub" and alone[1].sector != alone[0].sector


def test_it_gives_each_thought_of_a_batch_the_triple_it_gives_that_thought_alone(llm):
    """thought_triples: one triple per numbered thought, the same as event_triple's for it."""
    case = load_fixture("thought_triples").cases[1]
    reply = llm.ask("thought_triples", case.inputs, choices=case.choices)
    assert llm.ledger.last["attempts"] == 1
    subject, statements = case.inputs["subject"], case.inputs["statement_list"]
    alone = [llm.ask("event_triple", {"subject": subject, "statement": one}) for one in statements]
    assert reply.answers(TASKS["thought_triples"].typed(case.inputs)) == alone
    assert len({answer.target for answer in alone}) == len(statements), "each triple comes from its own thought"


def test_a_packed_insight_comes_with_the_triple_it_gets_alone(llm):
    """insights_packed: insights' answer, each insight with event_triple's triple for it."""
    case = load_fixture("insights_packed").cases[0]
    reply = llm.ask("insights_packed", case.inputs, choices=case.choices)
    assert llm.ledger.last["attempts"] == 1
    assert [i.insight for i in reply.insights] == [i.insight for i in ask(llm, "insights").insights]
    name = case.inputs["persona_name"]
    alone = [llm.ask("event_triple", {"subject": name, "statement": i.insight}) for i in reply.insights]
    assert reply.stored_triples(TASKS["insights_packed"].typed(case.inputs)) == [
        (name, answer.predicate, answer.target) for answer in alone
    ]
