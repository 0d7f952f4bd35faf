"""Conversations between two personas, one utterance at a time, or in one call in packed mode (docs/LOOP.md §9)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reverie.persona.agent import Agent
from reverie.persona.retrieve import retrieve_scored
from reverie.tasks.chat_utterance import FAILED_LINE, iterative_chat_utterance
from reverie.tasks.conversation_packed import packed_conversation
from reverie.tasks.relationship_summary import relationship_summary

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.world.maze import Maze


MAX_ROUNDS = 8  # each round: the initiator speaks, then the partner
SILENT_LINES_TO_END = 2  # this many lines in a row that say nothing ("...") end a conversation
RECENT_CHAT_MINUTES = 480
ABOUT_LISTENER = 5  # packed mode: of the memories a relationship summary reads, those shown in its place
PACKED_MEMORIES = (
    15  # as many as a faithful line retrieves; each speaker's memories shown to the one-call conversation (packed mode)
)
# The identity lines the one-call conversation shows of each speaker (who they are, what they are up to).
SHORT_IDENTITY = ("Name", "Age", "Innate traits", "Learned traits", "Currently")


def _keys(retrieved: dict) -> list[str]:
    """The memories by embedding key, as the relationship summary reads them (the original's way)."""
    return list(dict.fromkeys(node.embedding_key for nodes in retrieved.values() for node in nodes))


def _descriptions(retrieved: dict) -> list[str]:
    """The memories by description ("Maria Lopez is eating cereal", not the key "eating cereal"),
    as the original's chat prompts show them: who did it stays in the text."""
    return list(dict.fromkeys(node.description for nodes in retrieved.values() for node in nodes))


def past_context(speaker: Agent, listener: Agent) -> str:
    """A note about their last conversation if it was in the last 8 hours."""
    # The speaker's newest chat with this listener (docs/FIDELITY.md).
    last = speaker.a_mem.get_last_chat(listener.name)
    if last is None:
        return ""
    minutes = int((speaker.scratch.now() - last.created).total_seconds() // 60)
    if minutes > RECENT_CHAT_MINUTES:
        return ""
    return (
        f"{minutes} minutes ago, {speaker.name} and {listener.name} were already {last.description}. "
        "This conversation takes place after that one."
    )


def location_of(persona: Agent, maze: Maze) -> str:
    tile = maze.access_tile(persona.scratch.here())
    return f"{tile['arena'] or 'outside'} in {tile['sector'] or tile['world']}"


def memories_about(speaker: Agent, listener: Agent, llm: LanguageModel, *, described: bool = False) -> list[str]:
    """The speaker's 50 memories most about the listener (what a relationship summary reads, by
    embedding key; ``described``: by description, as a chat prompt shows them)."""
    retrieved = retrieve_scored(speaker, llm, [listener.name], 50)
    return _descriptions(retrieved) if described else _keys(retrieved)


def relationship(speaker: Agent, listener: Agent, llm: LanguageModel) -> str:
    """How ``speaker`` relates to ``listener``, from the speaker's 50 memories most about them."""
    return relationship_summary(
        llm, speaker=speaker.name, listener=listener.name, statements=memories_about(speaker, listener, llm)
    )


def situation(initiator: Agent, partner: Agent) -> str:
    """Who started the conversation with whom, and what each was doing."""
    return (
        f"{initiator.name} was {initiator.scratch.act_description} when {initiator.name} saw "
        f"{partner.name} in the middle of {partner.scratch.act_description}.\n"
        f"{initiator.name} is starting a conversation with {partner.name}."
    )


@dataclass(frozen=True)
class ChatScene:
    """A conversation's fixed parts: where, who started it with whom, and the model."""

    maze: Maze
    initiator: Agent
    partner: Agent
    llm: LanguageModel


def one_utterance(
    scene: ChatScene, speaker: Agent, listener: Agent, convo: list, relationship_text: str | None = None
) -> tuple[str, bool]:
    """The speaker's next line; ``relationship_text`` is asked when not given (docs/FIDELITY.md)."""
    initiator, partner, llm = scene.initiator, scene.partner, scene.llm
    if relationship_text is None:
        relationship_text = relationship(speaker, listener, llm)
    focal = [relationship_text, f"{listener.name} is {listener.scratch.act_description}"]
    if convo:
        focal.append("\n".join(f"{name}: {line}" for name, line in convo[-4:]))
    memories = _descriptions(retrieve_scored(speaker, llm, focal, 15))
    return iterative_chat_utterance(
        llm,
        identity=speaker.identity(),
        speaker=speaker.name,
        listener=listener.name,
        memories=memories,
        past_context=past_context(speaker, listener),
        location=location_of(speaker, scene.maze),
        current_context=situation(initiator, partner),
        conversation=[tuple(x) for x in convo],
    )


def _short_identity(persona: Agent) -> str:
    # A value's own line breaks are not shown: each label keeps its first line.
    items = persona.scratch.identity_items().items()
    return "\n".join(f"{label}: {value}".splitlines()[0] for label, value in items if label in SHORT_IDENTITY)


def one_call_convo(scene: ChatScene) -> tuple[list[list[str]], str]:
    """Packed mode: the whole conversation from one call, and its topic ("" when the topic
    failed its checks). No relationship summary is asked (docs/FIDELITY.md): each speaker's
    memories most about the listener, retrieved as for the summary, stand for it (the first
    ``ABOUT_LISTENER`` of them), then the 15 memories most relevant to the listener and what they
    are doing; ``[]`` when the call fell back to its fail-safe."""
    initiator, partner, llm = scene.initiator, scene.partner, scene.llm
    memories = {}
    for speaker, listener in ((initiator, partner), (partner, initiator)):
        about = memories_about(speaker, listener, llm, described=True)[:ABOUT_LISTENER]
        focal = [listener.name, f"{listener.name} is {listener.scratch.act_description}"]
        memories[speaker.name] = list(
            dict.fromkeys(about + _descriptions(retrieve_scored(speaker, llm, focal, PACKED_MEMORIES)))
        )
    lines, topic = packed_conversation(
        llm,
        initiator=initiator.name,
        partner=partner.name,
        initiator_identity=_short_identity(initiator),
        partner_identity=_short_identity(partner),
        initiator_memories=memories[initiator.name],
        partner_memories=memories[partner.name],
        past_context=past_context(initiator, partner),
        location=location_of(initiator, scene.maze),
        situation=situation(initiator, partner),
    )
    return [[speaker, line] for speaker, line in lines], topic


def generate_convo(maze: Maze, initiator: Agent, partner: Agent, llm: LanguageModel) -> list[list[str]]:
    """The whole transcript ``[[speaker, utterance], ...]`` of :func:`hold_conversation`."""
    return hold_conversation(maze, initiator, partner, llm)[0]


def hold_conversation(maze: Maze, initiator: Agent, partner: Agent, llm: LanguageModel) -> tuple[list[list[str]], str]:
    """The whole transcript ``[[speaker, utterance], ...]`` (at most 16 lines), and the topic
    the packed call wrote with it ("" when no call wrote one: it is then asked on its own).

    Each speaker's relationship summary is asked once, before their first line, and kept for
    the conversation (the original asked it before every line; docs/FIDELITY.md). Two lines in
    a row that say nothing ("...", a line's fail-safe: neither speaker found anything new to
    say) end the conversation, where the original went on to its 16 lines (docs/FIDELITY.md).

    Packed mode (``options.packed_actions``) asks for the whole conversation in one call
    (prompt conversation_packed, at most 8 lines, no relationship summary); when that call
    fails, the conversation is held line by line as in faithful mode."""
    scene = ChatScene(maze, initiator, partner, llm)
    convo: list[list[str]] = []
    relationships: dict[str, str] = {}
    if initiator.options.packed_actions:
        convo, topic = one_call_convo(scene)
        if convo:
            return convo, topic
    for _ in range(MAX_ROUNDS):
        for speaker, listener in ((initiator, partner), (partner, initiator)):
            if speaker.name not in relationships:
                relationships[speaker.name] = relationship(speaker, listener, llm)
            line, end = one_utterance(scene, speaker, listener, convo, relationships[speaker.name])
            convo.append([speaker.name, line])
            if end or _run_dry(convo):
                return convo, ""
    return convo, ""


def _run_dry(convo: list[list[str]]) -> bool:
    """The last ``SILENT_LINES_TO_END`` lines said nothing: the speakers have run out of words."""
    last = convo[-SILENT_LINES_TO_END:]
    return len(last) == SILENT_LINES_TO_END and all(line == FAILED_LINE for _, line in last)


def transcript_length(convo: list) -> int:
    return len("".join(f"{speaker}: {line}\n" for speaker, line in convo))
