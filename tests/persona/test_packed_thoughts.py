"""Thoughts that arrive together get their triples in one call in packed mode (prompt
thought_triples, or the reply that wrote them: a reflection's insights, a conversation's notes),
asked once, one event_triple call each in the faithful mode.

Nora Bennett of our base world, the real embedder and memory, and the real LLM facade over a
scripted fake chat model (a fast smoke test: the fake answers by prompt name, so what is
checked is which prompts are asked, how often, for which thoughts, and which triples are stored).
"""

from __future__ import annotations

import logging
import shutil

import pytest

from reverie.config import Settings
from reverie.llm import LLM
from reverie.llm.fake_model import FakeChatModel
from reverie.memory import Embedder
from reverie.persona.options import CognitionOptions
from reverie.persona.persona import Persona
from reverie.persona.reflect import reflect_on_chat, run_reflect
from reverie.persona.thoughts import NewThought, add_thoughts
from reverie.tasks.event_triple import thought_fail_safe
from reverie.tasks.registry import product_tasks
from reverie import PROJECT_ROOT
from tests.persona.nora import MORNING, NAME, load_nora, world  # noqa: F401 (world: a fixture)

PACKED = CognitionOptions(packed_actions=True)
FAITHFUL = CognitionOptions(packed_actions=False)
INSIGHTS = [
    "Nora Bennett sleeps well at home these days",
    "Nora Bennett cares about how her neighbours are doing",
    "Nora Bennett looks forward to the spring tasting menu",
]
# The packed insights reply's own triples (not the readings the triple prompts' fakes give).
INSIGHT_TRIPLES = [
    {"predicate": "sleeps well", "target": "at home"},
    {"predicate": "cares", "target": "about her neighbours"},
    {"predicate": "looks forward", "target": "to the spring tasting menu"},
]


@pytest.fixture
def nora(world, tmp_path):
    return load_nora(world[0], tmp_path)


def _reading(statement: str) -> dict:
    """The statement's first word after the name as the verb, the rest (its first 80 characters) as the target."""
    verb, _, rest = statement.removeprefix(f"{NAME} ").partition(" ")
    return {"predicate": verb, "target": rest.rstrip(".")[:80] or "something"}


def _single(call):
    """event_triple: the reading of its sentence."""
    return _reading(call.user_text.split("Sentence: ", 1)[1].split("\n", 1)[0])


def _batch(call):
    """thought_triples: the same reading for each numbered thought."""
    count = call.schema["properties"]["triples"]["maxItems"]
    lines = [line.split(". ", 1)[1] for line in call.user_text.splitlines() if line[:1].isdigit()][:count]
    return {"triples": [_reading(line) for line in lines]}


# The partner's notes in a packed notes reply.
THEOS = {
    "plan": "Theo Alvarez will get a lemon tart from Nora Bennett on Friday.",
    "memo": "Theo Alvarez heard that Nora Bennett wished him luck with the footbridge plan.",
}


def _llm(**replies) -> tuple[LLM, FakeChatModel]:
    settings = Settings()
    settings.paths.prompts = PROJECT_ROOT / "prompts"
    script = {
        "event_triple": [_single],
        "thought_triples": [_batch],
        "events_poignancy": [lambda call: {"ratings": [3] * call.schema["properties"]["ratings"]["maxItems"]}],
        "event_poignancy": [{"rating": 3}],
        "focal_points": [{"questions": ["How is Nora Bennett doing?"]}],
        "insights": [{"insights": [{"insight": text, "evidence": ["0"]} for text in INSIGHTS]}],
        "insights_packed": [
            {
                "insights": [
                    {"insight": text, "evidence": ["0"], **triple} for text, triple in zip(INSIGHTS, INSIGHT_TRIPLES)
                ]
            }
        ],
        "planning_thought_on_convo": [{"thought": "Nora Bennett will bring Theo Alvarez a lemon tart on Friday."}],
        "memo_on_convo": [{"memo": "Nora Bennett heard that Theo Alvarez will present the footbridge plan."}],
        "convo_thoughts_packed": [
            {
                "notes": [
                    {
                        "plan": "Nora Bennett will bring Theo Alvarez a lemon tart on Friday.",
                        "memo": "Nora Bennett heard that Theo Alvarez will present the footbridge plan.",
                    },
                    THEOS,
                ]
            }
        ],
        **replies,
    }
    model = FakeChatModel(replies=script)
    return LLM(settings, tasks=product_tasks(), chat_models={"strong": model, "cheap": model}), model


def _asked(model: FakeChatModel, *prompts: str) -> list[str]:
    return [call.prompt for call in model.calls if call.prompt in prompts]


def _seed(nora):
    """A few memories for a reflection to start from (asked before the mode under test)."""
    llm, _ = _llm()
    add_thoughts(nora, llm, [NewThought("Nora Bennett baked lemon scones"), NewThought("Nora Bennett slept until 7")])


def _triple(nora, text):
    node = next(node for node in nora.a_mem.seq_thought if node.embedding_key == text)
    return node.subject, node.predicate, node.object


TRIPLE_PROMPTS = ["event_triple", "thought_triples"]
REFLECTION = ["insights", "insights_packed", *TRIPLE_PROMPTS]


@pytest.mark.parametrize(
    "options, asked",
    [(PACKED, ["insights_packed"]), (FAITHFUL, ["insights", "event_triple", "event_triple", "event_triple"])],
)
def test_a_reflections_insights_come_with_their_triples_in_packed_mode(nora, options, asked):
    """Packed: the insights reply carries each insight's triple, and no triples call follows;
    faithful: #9 for each insight, as the original."""
    _seed(nora)
    nora.options = options
    llm, model = _llm()
    run_reflect(nora, llm)
    assert _asked(model, *REFLECTION) == asked
    if options.packed_actions:
        assert [_triple(nora, text) for text in INSIGHTS] == [
            (NAME, "sleeps well", "at home"),
            (NAME, "cares", "about her neighbours"),
            (NAME, "looks forward", "to the spring tasting menu"),
        ], "the reply's own triples"
        schema = next(call for call in model.calls if call.prompt == "insights_packed").schema
        item = schema["$defs"]["InsightWithTriple"]
        assert {"predicate", "target"} <= set(item["required"]), "the grammar writes each insight's triple"
        assert item["properties"]["predicate"]["maxLength"] == 40 and item["properties"]["target"]["maxLength"] == 80
    else:
        assert [_triple(nora, text) for text in INSIGHTS] == [
            (NAME, "sleeps", "well at home these days"),
            (NAME, "cares", "about how her neighbours are doing"),
            (NAME, "looks", "forward to the spring tasting menu"),
        ], "#9's reading of each"


@pytest.mark.parametrize(
    "triples, failed",
    [
        # the second repeats the subject; the third is the first's again (no word of its insight)
        ([INSIGHT_TRIPLES[0], {"predicate": "likes", "target": NAME}, INSIGHT_TRIPLES[0]], [1, 2]),
        # the second has no triple at all, the third an empty one
        ([INSIGHT_TRIPLES[0], {}, {"predicate": "", "target": ""}], [1, 2]),
        ([{}, {}, {}], [0, 1, 2]),
    ],
)
def test_an_insight_whose_triple_fails_or_is_missing_keeps_the_fail_safe_without_another_call(
    nora, caplog, triples, failed
):
    """The insights reply is the one ask of their triples: a failed or missing one is logged and
    left to #9's fail-safe, and neither sends the reply back nor asks a triples call."""
    _seed(nora)
    nora.options = PACKED
    reply = {"insights": [{"insight": text, "evidence": ["0"], **triple} for text, triple in zip(INSIGHTS, triples)]}
    llm, model = _llm(insights_packed=[reply])
    with caplog.at_level(logging.INFO, logger="reverie.tasks.insights"):
        run_reflect(nora, llm)
    assert _asked(model, *REFLECTION) == ["insights_packed"]
    assert llm.ledger.summary()["insights_packed"]["fallbacks"] == 0
    for i, text in enumerate(INSIGHTS):
        if i in failed:
            assert _triple(nora, text) == thought_fail_safe(NAME, text)
        else:
            assert _triple(nora, text) == (NAME, triples[i]["predicate"], triples[i]["target"])
    assert [r.getMessage() for r in caplog.records if "insights_packed" in r.getMessage()] == [
        f"insights_packed: {NAME}'s insight(s) {[i + 1 for i in failed]} keep the single fail-safe triple "
        "(failed their checks, or missing)"
    ]


def test_a_thought_whose_triple_fails_in_the_batch_keeps_the_fail_safe_without_another_call(nora, caplog):
    """Packed mode asks a triple once: the batch's failed answer is not asked again alone."""
    nora.options = PACKED
    broken = lambda call: {
        "triples": [
            {"predicate": "sleeps", "target": "well at home these days"},
            {"predicate": "likes", "target": NAME},  # the subject again: fails
            {"predicate": "looks", "target": "forward to the spring tasting menu"},
        ]
    }
    llm, model = _llm(thought_triples=[broken])
    with caplog.at_level(logging.INFO, logger="reverie.persona"):
        add_thoughts(nora, llm, [NewThought(text) for text in INSIGHTS])
    assert _asked(model, "event_triple", "thought_triples") == ["thought_triples"]
    assert _triple(nora, INSIGHTS[1]) == thought_fail_safe(NAME, INSIGHTS[1])
    assert _triple(nora, INSIGHTS[0]) == (NAME, "sleeps", "well at home these days")
    assert _triple(nora, INSIGHTS[2]) == (NAME, "looks", "forward to the spring tasting menu")
    assert [r.getMessage() for r in caplog.records if "fail-safe triple" in r.getMessage()] == [
        f"{NAME}'s thought {INSIGHTS[1]!r}: the fail-safe triple (its one ask gave none that passed the checks)"
    ]


def test_a_failed_batch_leaves_every_thought_the_fail_safe(nora):
    """Failure path: a scripted fake model that never replies with JSON."""
    nora.options = PACKED
    llm, model = _llm(thought_triples=["I am not sure."])
    nodes = add_thoughts(nora, llm, [NewThought(text) for text in INSIGHTS])
    assert _asked(model, "event_triple", "thought_triples") == ["thought_triples"] * 3, "the batch's own repairs only"
    assert [node.embedding_key for node in nodes] == INSIGHTS, "the nodes in the thoughts' order"
    assert [_triple(nora, text) for text in INSIGHTS] == [thought_fail_safe(NAME, text) for text in INSIGHTS]


def test_a_fail_safe_triples_is_does_not_find_the_thought_but_a_models_is_does(nora):
    """Keyword retrieval for a perceived "<someone> is ..." event looks up its "is": a thought the
    model gave the predicate "is" comes back, one whose "is" is the fail-safe's does not, and both
    are still found by their subject."""
    nora.options = PACKED
    given, failed = "Nora Bennett is proud of her scones", "Nora Bennett is tired of the rain"
    batch = lambda call: {
        "triples": [{"predicate": "is", "target": "proud of her scones"}, {"predicate": "likes", "target": NAME}]
    }  # the subject again: fails
    llm, _ = _llm(thought_triples=[batch])
    add_thoughts(nora, llm, [NewThought(given), NewThought(failed)])
    assert _triple(nora, failed) == thought_fail_safe(NAME, failed) == (NAME, "is", "tired of the rain")
    by_is = {node.embedding_key for node in nora.a_mem.retrieve_relevant_thoughts("Theo Alvarez", "is", "idle")}
    assert given in by_is and failed not in by_is
    by_name = {node.embedding_key for node in nora.a_mem.retrieve_relevant_thoughts(NAME, "eats", "lunch")}
    assert {given, failed} <= by_name


def test_a_thought_alone_keeps_the_single_call(nora):
    nora.options = PACKED
    llm, model = _llm()
    add_thoughts(nora, llm, [NewThought(INSIGHTS[0])])
    assert _asked(model, "event_triple", "thought_triples") == ["event_triple"]


def _chatted(nora):
    s = nora.scratch
    s.chatting_with = "Theo Alvarez"
    s.chat = [["Theo Alvarez", "I will present the footbridge plan on Friday."], [NAME, "Good luck, Theo!"]]


NOTES = ["planning_thought_on_convo", "memo_on_convo", "convo_thoughts_packed"]


@pytest.mark.parametrize(
    "options, asked",
    [
        (PACKED, ["convo_thoughts_packed"]),
        (FAITHFUL, ["planning_thought_on_convo", "memo_on_convo", "event_triple", "event_triple"]),
    ],
)
def test_the_two_notes_at_a_chats_end_are_one_call_and_ask_their_triples_together_in_packed_mode(nora, options, asked):
    nora.options = options
    _chatted(nora)
    llm, model = _llm()
    reflect_on_chat(nora, llm)
    assert _asked(model, "event_triple", "thought_triples", *NOTES) == asked
    planning = f"For {NAME}'s planning: Nora Bennett will bring Theo Alvarez a lemon tart on Friday."
    assert _triple(nora, planning)[0] == NAME
    memo = "Nora Bennett heard that Theo Alvarez will present the footbridge plan."
    # packed: the reply (this one without triples) was the one ask; faithful: #9 alone
    assert _triple(nora, memo) == (
        thought_fail_safe(NAME, memo)
        if options.packed_actions
        else (NAME, "heard", "that Theo Alvarez will present the footbridge plan")
    )


def _theo(settings, tmp_path):
    """Theo Alvarez of the base world, in the same conversation as Nora."""
    folder = tmp_path / "theo"
    shutil.copytree(
        settings.paths.storage / "base_willow_creek" / "personas" / "Theo Alvarez" / "bootstrap_memory", folder
    )
    theo = Persona.load("Theo Alvarez", folder, embedder=Embedder(settings), options=PACKED)
    theo.scratch.curr_time = MORNING
    theo.scratch.chatting_with = NAME
    theo.scratch.chat = [["Theo Alvarez", "I will present the footbridge plan on Friday."], [NAME, "Good luck, Theo!"]]
    return theo


@pytest.mark.parametrize("options", [PACKED, FAITHFUL])
def test_the_first_participant_at_a_chats_end_asks_both_notes_and_the_partner_takes_its_own(
    world, nora, tmp_path, options
):
    """Packed: one call writes both participants' notes, each stored from its own point of view
    with its own triples; the faithful mode asks each participant's two notes itself."""
    nora.options = options
    _chatted(nora)
    theo = _theo(world[0], tmp_path)
    theo.options = options
    llm, model = _llm(
        convo_thoughts_packed=[
            {
                "notes": [
                    {
                        "plan": PLAN,
                        "memo": MEMO,
                        "triples": [
                            {"predicate": "will bring", "target": "Theo Alvarez a lemon tart"},
                            {"predicate": "heard", "target": "about the footbridge plan"},
                        ],
                    },
                    {
                        **THEOS,
                        "triples": [
                            {"predicate": "will get", "target": "a lemon tart from Nora Bennett"},
                            {"predicate": "heard", "target": "that Nora Bennett wished him luck"},
                        ],
                    },
                ]
            }
        ]
    )
    reflect_on_chat(nora, llm, theo)
    reflect_on_chat(theo, llm, nora)
    if options.packed_actions:
        assert _asked(model, "event_triple", "thought_triples", *NOTES) == ["convo_thoughts_packed"]
        assert _triple(theo, f"For Theo Alvarez's planning: {THEOS['plan']}") == (
            "Theo Alvarez",
            "will get",
            "a lemon tart from Nora Bennett",
        )
        assert _triple(theo, THEOS["memo"]) == ("Theo Alvarez", "heard", "that Nora Bennett wished him luck")
        assert _triple(nora, MEMO) == (NAME, "heard", "about the footbridge plan")
        assert theo.chat_notes == {} and nora.chat_notes == {}, "taken once"
    else:
        assert _asked(model, *NOTES) == ["planning_thought_on_convo", "memo_on_convo"] * 2
    assert {node.embedding_key for node in theo.a_mem.seq_thought} >= (
        {f"For Theo Alvarez's planning: {THEOS['plan']}", THEOS["memo"]}
        if options.packed_actions
        else {"Nora Bennett heard that Theo Alvarez will present the footbridge plan."}
    )


def test_notes_left_for_another_conversation_are_not_taken(world, nora, tmp_path):
    """Notes written for a conversation that is not the partner's own (it changed, or the partner
    never reached its end) are asked again."""
    nora.options = PACKED
    _chatted(nora)
    theo = _theo(world[0], tmp_path)
    llm, model = _llm()
    reflect_on_chat(nora, llm, theo)
    theo.scratch.chat = [["Theo Alvarez", "Lovely weather today."], [NAME, "It is!"]]
    reflect_on_chat(theo, llm, nora)
    assert _asked(model, *NOTES) == ["convo_thoughts_packed"] * 2
    asked = [call for call in model.calls if call.prompt == "convo_thoughts_packed"]
    assert "Lovely weather today." in asked[1].user_text
    assert f"First for Theo Alvarez, then for {NAME}" in asked[1].user_text, "the partner asks for itself first"


PLAN = "Nora Bennett will bring Theo Alvarez a lemon tart on Friday."
MEMO = "Nora Bennett heard that Theo Alvarez will present the footbridge plan."


@pytest.mark.parametrize(
    "triples, failed",
    [
        (
            [
                {"predicate": "will bring", "target": "Theo Alvarez a lemon tart"},
                {"predicate": "heard", "target": "that Theo Alvarez will present the footbridge plan"},
            ],
            [],
        ),
        # the memo's triple is the plan's again (no word of its thought), the plan's repeats the subject
        (
            [
                {"predicate": "will bring", "target": "Theo Alvarez a lemon tart"},
                {"predicate": "will bring", "target": "a lemon tart"},
            ],
            ["memo"],
        ),
        (
            [{"predicate": "likes", "target": NAME}, {"predicate": "heard", "target": "about the footbridge plan"}],
            ["plan"],
        ),
        ([], ["plan", "memo"]),
    ],
)
def test_the_packed_notes_reply_carries_their_triples_and_a_failed_one_keeps_the_fail_safe(nora, triples, failed):
    """The notes' reply is the one ask of their triples: one that fails is not asked again."""
    nora.options = PACKED
    _chatted(nora)
    llm, model = _llm(convo_thoughts_packed=[{"notes": [{"plan": PLAN, "memo": MEMO, "triples": triples}, THEOS]}])
    reflect_on_chat(nora, llm)
    assert _asked(model, "event_triple", "thought_triples", *NOTES) == ["convo_thoughts_packed"]
    texts = {"plan": f"For {NAME}'s planning: {PLAN}", "memo": MEMO}
    stored = {which: _triple(nora, text) for which, text in texts.items()}
    for which in failed:
        assert stored[which] == thought_fail_safe(NAME, texts[which])
    if "plan" not in failed:
        assert stored["plan"] == (NAME, "will bring", "Theo Alvarez a lemon tart"), "the reply's own triple"
    if "memo" not in failed:
        assert stored["memo"][1] == "heard"
    schema = next(call for call in model.calls if call.prompt == "convo_thoughts_packed").schema
    assert schema["properties"]["notes"]["minItems"] == schema["properties"]["notes"]["maxItems"] == 2
    notes = schema["$defs"]["ConvoThoughtsReply"]
    assert notes["properties"]["triples"]["minItems"] == notes["properties"]["triples"]["maxItems"] == 2
    assert "triples" in notes["required"]


def test_a_packed_notes_reply_that_fails_its_checks_is_sent_back_then_both_fail_safes_are_kept(nora):
    """The model's second reply loops ("tomorrow tomorrow ...": cut to its first copy, kept);
    a reply whose memo is a placeholder is sent back, and three such replies end in the two
    single fail-safes, logged."""
    nora.options = PACKED
    _chatted(nora)
    looped = "Nora Bennett will see Theo Alvarez on Friday" + " Friday" * 12
    llm, model = _llm(
        convo_thoughts_packed=[
            {"notes": [{"plan": "I should go.", "memo": "..."}, THEOS]},
            {"notes": [{"plan": looped, "memo": "Theo Alvarez has a plan."}, THEOS]},
        ]
    )
    reflect_on_chat(nora, llm)
    assert _asked(model, *NOTES) == ["convo_thoughts_packed"] * 2
    kept = [node.embedding_key for node in nora.a_mem.seq_thought][:2]
    assert kept == ["Theo Alvarez has a plan.", f"For {NAME}'s planning: Nora Bennett will see Theo Alvarez on Friday"]

    llm, model = _llm(convo_thoughts_packed=[{"notes": [{"plan": "I should go.", "memo": "..."}, THEOS]}])
    reflect_on_chat(nora, llm)
    assert _asked(model, *NOTES) == ["convo_thoughts_packed"] * 3
    assert llm.ledger.summary()["convo_thoughts_packed"]["fallbacks"] == 1
    assert f"For {NAME}'s planning: {NAME} should keep the conversation with Theo Alvarez in mind when planning." in [
        node.embedding_key for node in nora.a_mem.seq_thought
    ]


QUESTIONS = ["What does Nora Bennett bake?", "How does Nora Bennett sleep?", "Who visits the cafe?"]


@pytest.mark.parametrize("options, prompt, calls", [(PACKED, "insights_packed", 1), (FAITHFUL, "insights", 3)])
def test_packed_mode_asks_one_insights_call_for_the_three_questions_memories(nora, options, prompt, calls):
    """Packed: the memories retrieved for each question go to one insights call, each text once."""
    _seed(nora)
    nora.options = options
    llm, model = _llm(focal_points=[{"questions": QUESTIONS}])
    run_reflect(nora, llm)
    assert _asked(model, "insights", "insights_packed") == [prompt] * calls
    asked = [call for call in model.calls if call.prompt == prompt]
    if options.packed_actions:
        shown = asked[0].user_text
        assert "Nora Bennett baked lemon scones" in shown and "Nora Bennett slept until 7" in shown
        assert shown.count("Nora Bennett baked lemon scones") == 1
    new = [node.embedding_key for node in nora.a_mem.seq_thought]
    assert all(text in new for text in INSIGHTS)
