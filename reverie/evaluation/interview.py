"""`call -- analysis <Full Name>`: talk with a persona; nothing is written to its memory."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from reverie.persona.retrieve import retrieve_scored
from reverie.tasks.interview import SAFETY_THRESHOLD, next_convo_line, safety_score, summarize_ideas

if TYPE_CHECKING:
    from reverie.persona.persona import Persona
    from reverie.simulation.simulation import Simulation

END = "end_convo"
REMINDER = (
    "(Reminder: this agent is a computational construct, not a person. Treating it as a friend "
    "or partner, or as having human feelings, may not be appropriate.)"
)


def answer(sim: Simulation, persona: Persona, convo: list, line: str, *, safety_check: bool = True) -> str | None:
    """The persona's reply to ``line`` (None when the safety check declines); extends ``convo``.

    ``safety_check=False`` for questions the code itself wrote (``evaluate``): the check is there
    for what a person types."""
    llm = sim.llm
    assert llm is not None  # an opened simulation has its model
    if safety_check and safety_score(llm, comment=line, persona_name=persona.name) >= SAFETY_THRESHOLD:
        return None
    retrieved = retrieve_scored(persona, llm, [line], 50)
    statements = list(dict.fromkeys(n.embedding_key for nodes in retrieved.values() for n in nodes))
    summary = summarize_ideas(llm, persona_name=persona.name, statements=statements, question=line)
    convo.append(("Interviewer", line))
    reply = next_convo_line(
        llm,
        persona_name=persona.name,
        identity=persona.identity(),
        interlocutor="Interviewer",
        conversation=convo,
        summary=summary,
    )
    convo.append((persona.name, reply))
    return reply


def interview_loop(
    sim: Simulation,
    persona: Persona,
    *,
    say: Callable[[str], object] = print,
    read: Callable[[str], str] | None = None,
) -> list:
    """Question and answer with one persona until the user types the end word. ``read``
    defaults to :func:`input`, looked up at each call (so a patched ``input`` is used)."""
    say(f"Interviewing {persona.name}; type {END} to stop.")
    assert sim.llm is not None  # an opened simulation has its model
    sim.llm.set_clock(sim.step_no, sim.curr_time_str)
    convo: list = []
    while True:
        try:
            line = (read or input)("Enter Input: ").strip()
        except EOFError:
            break
        if line == END:
            break
        if not line:
            continue
        reply = answer(sim, persona, convo, line)
        say(REMINDER if reply is None else f"{persona.name}: {reply}")
    return convo
