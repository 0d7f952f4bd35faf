"""Packed mode: a conversation between two residents is written in one call, and a failed call
falls back to the line-by-line conversation of faithful mode.

Every test here runs on a scripted fake chat model (reverie/llm/fake_model.py, fixed replies
per prompt, not a real model): what is checked is which calls the conversation makes and how
the replies become the transcript. The world is real: the base town forked into a temporary
folder, its embedder and Chroma.
"""

from __future__ import annotations

import pytest

from reverie.llm.fake_model import FakeChatModel
from reverie.persona.converse import generate_convo
from reverie.persona.react import chat_react
from reverie.persona.options import CognitionOptions
from reverie.persona.thoughts import add_thought

from tests.forked_base import forked_sim
from tests.integration.test_conversation import meet_at_the_cafe

RELATIONSHIP = {"summary": "Nora Bennett and Theo Alvarez know each other from the cafe."}
LINES = [
    "Morning, Theo! Would you try a new pastry for my spring menu?",
    "Gladly, Nora. Have you heard about the footbridge?",
    "Not yet, tell me later. Enjoy your coffee!",
    "Thanks, see you!",
]
ABOUT = "a new pastry for the spring menu"


def _talk(tmp_path, replies: dict, *, packed: bool = True, remembers: str = "", react: bool = False):
    model = FakeChatModel(replies=replies)
    with forked_sim(tmp_path, "base_willow_creek", "cafe", model, at="10:00") as sim:
        nora, theo, _iris = meet_at_the_cafe(sim)
        for persona in (nora, theo):
            persona.options = CognitionOptions(packed_actions=packed)
        if remembers:
            add_thought(nora, sim.llm, remembers, [])
        model.calls.clear()
        if react:
            chat_react(sim.maze, nora, theo, sim.llm)
            convo = [nora.scratch.act_description, theo.scratch.act_description]
        else:
            convo = generate_convo(sim.maze, nora, theo, sim.llm)
        _talk.sent = {call.prompt: call.messages[-1].content for call in model.calls}
        return convo, model.prompts(), sim.llm.ledger.summary()


def test_a_packed_conversation_is_one_call_with_the_speakers_in_turn(tmp_path):
    """One call and no relationship summary: each speaker's memories of the other stand for it."""
    convo, asked, _ = _talk(
        tmp_path, {"relationship_summary": [RELATIONSHIP], "conversation_packed": [{"lines": LINES, "about": ABOUT}]}
    )
    assert asked == {"conversation_packed": 1}
    assert convo == [
        ["Nora Bennett", LINES[0]],
        ["Theo Alvarez", LINES[1]],
        ["Nora Bennett", LINES[2]],
        ["Theo Alvarez", LINES[3]],
    ]


def test_a_failed_packed_call_falls_back_to_the_line_by_line_conversation(tmp_path):
    """No packed reply ever validates (the fake has none for it): its fail-safe says "no
    conversation", and the talk is held line by line, each speaker's relationship summary asked
    before their first line."""
    utterances = [
        {"utterance": "Hi Theo! Coffee as usual?", "end": False},
        {"utterance": "Yes please. Bye Nora!", "end": True},
    ]
    convo, asked, ledger = _talk(
        tmp_path, {"relationship_summary": [RELATIONSHIP], "iterative_chat_utterance": utterances}
    )
    assert ledger["conversation_packed"]["calls"] == 1 and ledger["conversation_packed"]["fallbacks"] == 1
    assert asked["relationship_summary"] == 2 and asked["iterative_chat_utterance"] == 2
    assert convo == [["Nora Bennett", "Hi Theo! Coffee as usual?"], ["Theo Alvarez", "Yes please. Bye Nora!"]]


def test_faithful_mode_never_asks_for_the_packed_conversation(tmp_path):
    utterances = [
        {"utterance": "Hi Theo! Coffee as usual?", "end": False},
        {"utterance": "Yes please. Bye Nora!", "end": True},
    ]
    convo, asked, _ = _talk(
        tmp_path, {"relationship_summary": [RELATIONSHIP], "iterative_chat_utterance": utterances}, packed=False
    )
    assert "conversation_packed" not in asked and asked["iterative_chat_utterance"] == 2
    assert [speaker for speaker, _ in convo] == ["Nora Bennett", "Theo Alvarez"]


def test_each_speaker_is_shown_their_memories_of_the_other(tmp_path):
    """What stands for the relationship summary: the speaker's memories most about the listener."""
    _talk(
        tmp_path,
        {"conversation_packed": [{"lines": LINES, "about": ABOUT}]},
        remembers="Theo Alvarez wants a footbridge across the pond in the park",
    )
    sent = _talk.sent["conversation_packed"]
    nora_part = sent.split("About Theo Alvarez:")[0].split("What Nora Bennett remembers:")[1]
    assert "- Theo Alvarez wants a footbridge across the pond in the park" in nora_part


@pytest.mark.parametrize("about, asked", [(ABOUT, 0), ("the harbour at night", 1)])
def test_the_packed_calls_topic_is_the_conversations_activity(tmp_path, about, asked):
    """A topic from the conversation is both residents' activity with no summarize_conversation
    call; one whose words were not said in it is left out, and the summary is asked."""
    activities, prompts, _ = _talk(
        tmp_path,
        {
            "conversation_packed": [{"lines": LINES, "about": about}],
            "summarize_conversation": [{"conversing_about": "Theo's new pastry"}],
        },
        react=True,
    )
    assert prompts.get("summarize_conversation", 0) == asked
    topic = ABOUT if asked == 0 else "Theo's new pastry"
    assert activities == [f"conversing about {topic}"] * 2


@pytest.mark.parametrize("packed, prompt", [(True, "conversation_packed"), (False, "iterative_chat_utterance")])
def test_a_conversation_is_shown_memories_by_description_not_by_key(tmp_path, packed, prompt):
    """As the original's chat prompt: "Theo Alvarez is sketching the footbridge", not the key
    "sketching the footbridge" (whose it is would be lost)."""
    from reverie.memory.associative import NewMemory
    from reverie.memory.concept_node import NodeKind
    from reverie.memory.event import Event

    replies = {
        "conversation_packed": [{"lines": LINES, "about": ABOUT}],
        "relationship_summary": [RELATIONSHIP],
        "iterative_chat_utterance": [{"utterance": line, "end": i == 3} for i, line in enumerate(LINES)],
    }
    model = FakeChatModel(replies=replies)
    with forked_sim(tmp_path, "base_willow_creek", "cafe", model, at="10:00") as sim:
        nora, theo, _iris = meet_at_the_cafe(sim)
        for persona in (nora, theo):
            persona.options = CognitionOptions(packed_actions=packed)
        nora.a_mem.add(
            NewMemory(
                kind=NodeKind.EVENT,
                created=nora.scratch.curr_time,
                event=Event("Theo Alvarez", "is", "sketching"),
                description="Theo Alvarez is sketching the footbridge",
                keywords={"Theo Alvarez"},
                poignancy=5,
                embedding_key="sketching the footbridge",
            )
        )
        model.calls.clear()
        generate_convo(sim.maze, nora, theo, sim.llm)
        sent = next(call.messages[-1].content for call in model.calls if call.prompt == prompt)
    assert "- Theo Alvarez is sketching the footbridge" in sent
    assert "- sketching the footbridge" not in sent
