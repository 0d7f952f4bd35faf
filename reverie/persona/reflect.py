"""Reflect: insights when enough has happened, and thoughts at the end of a chat (docs/LOOP.md §7)."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING

from reverie.llm.side_by_side import side_by_side
from reverie.persona.agent import Agent
from reverie.persona.retrieve import retrieve_scored
from reverie.persona.step import Reflected, StepContext
from reverie.persona.thoughts import NewThought, add_thoughts
from reverie.tasks.common import transcript
from reverie.tasks.convo_thoughts import convo_thoughts, planning_thought, thought_and_memo
from reverie.tasks.focal_points import focal_points
from reverie.tasks.insights import insights, insights_packed

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.memory.concept_node import ConceptNode
    from reverie.memory.scratch import Scratch


# Packed mode: the memories retrieved for each focal question, shown together to one insights call.
PACKED_PER_QUESTION = 10


def reflect(persona: Agent, ctx: StepContext) -> Reflected:
    """Insights when enough has happened since the last ones; thoughts of a conversation that ends."""
    s = persona.scratch
    on_memories = reflection_due(persona)
    if on_memories:
        run_reflect(persona, ctx.llm)
        s.reset_importance()
    on_chat = chat_ends_this_step(s, ctx.previous_time)
    if on_chat:
        reflect_on_chat(persona, ctx.llm, ctx.personas.get(s.chat_partner()))
    return Reflected(on_memories, on_chat)


def reflection_due(persona: Agent) -> bool:
    s = persona.scratch
    return s.importance_trigger_curr <= 0 and bool(persona.a_mem.seq_event or persona.a_mem.seq_thought)


def run_reflect(persona: Agent, llm: LanguageModel) -> None:
    """Three questions about recent memories, up to five insights each from the 30 memories
    retrieved for it, stored as thoughts (rated together in one call). Packed mode asks one
    insights call, up to five, from the 10 memories retrieved for each question, each memory
    text shown once, and its reply gives each insight's triple (no triples call follows)."""
    s, a_mem = persona.scratch, persona.a_mem
    recent = sorted(
        (n for n in a_mem.seq_event + a_mem.seq_thought if not n.spo().is_idle),
        key=lambda n: n.last_accessed or n.created,  # set to created when not given
        reverse=True,
    )
    statements = list(dict.fromkeys(n.embedding_key for n in recent[: max(s.importance_ele_n, 1)]))
    questions = focal_points(llm, persona_name=s.persona_name(), statements=statements, n=3)
    if persona.options.packed_actions:
        # One insights call for the three questions' memories together (docs/FIDELITY.md).
        retrieved = retrieve_scored(persona, llm, questions, PACKED_PER_QUESTION)
        groups = [[node for nodes in retrieved.values() for node in nodes]]
    else:
        groups = list(retrieve_scored(persona, llm, questions, 30).values())
    # Each question's insights need only its memories: asked together, used in the questions' order.
    shown = [node_ids_by_text(nodes) for nodes in groups]
    answers = side_by_side(llm, [partial(reflection_insights, persona, llm, list(by_text)) for by_text in shown])
    thoughts = []
    for by_text, answer in zip(shown, answers):
        texts = list(by_text)
        for insight, evidence, triple in answer:
            thoughts.append(
                NewThought(
                    insight,
                    [node_id for i in evidence if 0 <= i < len(texts) for node_id in by_text[texts[i]]],
                    triple=triple,
                    triple_asked=persona.options.packed_actions,
                )
            )
    add_thoughts(persona, llm, thoughts)


def reflection_insights(
    persona: Agent, llm: LanguageModel, texts: list[str]
) -> list[tuple[str, list[int], tuple[str, str, str] | None]]:
    """Up to five ``(insight, [statement indices], triple)`` from ``texts``: packed mode's reply
    carries each insight's triple (None: it failed its checks, the single fail-safe's, asked no
    more); the faithful mode's none (asked when the thought is stored)."""
    name = persona.scratch.persona_name()
    if persona.options.packed_actions:
        return insights_packed(llm, persona_name=name, statements=texts, n=5)
    return [(insight, evidence, None) for insight, evidence in insights(llm, persona_name=name, statements=texts, n=5)]


def node_ids_by_text(nodes: list[ConceptNode]) -> dict[str, list[str]]:
    """Each distinct memory text of ``nodes`` (in their order) -> the ids of the nodes that hold it:
    a statement is shown to the model once ("bed is being slept in" is often many memories), and
    citing it cites them all."""
    by_text: dict[str, list[str]] = {}
    for node in nodes:
        by_text.setdefault(node.embedding_key, []).append(node.node_id)
    return by_text


def chat_ends_this_step(s: Scratch, previous_time: datetime | None) -> bool:
    """True on the last step before the conversation's end time."""
    end = s.chatting_end_time
    if not end or not s.chatting_with:
        return False
    now = s.now()
    # The end falls within this step, whatever the step's length (docs/FIDELITY.md).
    step = (now - previous_time) if previous_time and now > previous_time else timedelta(seconds=10)
    return now < end <= now + step


def reflect_on_chat(persona: Agent, llm: LanguageModel, partner_agent: Agent | None = None) -> None:
    """The two thoughts the persona keeps from the conversation that ends. In packed mode the
    participant whose step comes first asks for both participants' notes in one call and leaves
    the partner's with ``partner_agent`` (docs/FIDELITY.md); the partner's step takes them."""
    s = persona.scratch
    partner = s.chat_partner()
    utterances = [(speaker, line) for speaker, line in (s.chat or [])]
    last = persona.a_mem.get_last_chat(partner)
    evidence = [last.node_id] if last else []
    if persona.options.packed_actions:
        notes = persona.chat_notes.pop(partner, None)
        if notes is None or notes.conversation != transcript(utterances):
            name = s.persona_name()
            notes, theirs = convo_thoughts(llm, persona_name=name, partner_name=partner, utterances=utterances)
            if partner_agent is not None and partner_agent.scratch.chatting_with == name:
                partner_agent.chat_notes[name] = theirs
        plan, memo, triples = notes.plan, notes.memo, notes.triples
    else:
        plan, memo = thought_and_memo(llm, persona_name=s.persona_name(), partner_name=partner, utterances=utterances)
        triples = (None, None)
    # The memo is already a full sentence naming the persona; the two are rated in one call.
    asked = persona.options.packed_actions
    add_thoughts(
        persona,
        llm,
        [
            NewThought(planning_thought(s.persona_name(), plan), evidence, triple=triples[0], triple_asked=asked),
            NewThought(memo, evidence, triple=triples[1], triple_asked=asked),
        ],
    )
