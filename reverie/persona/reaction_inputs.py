"""Whether to talk to, or wait for, a persona just noticed (prompts decide_to_talk, decide_to_react)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reverie.action_text import subtask
from reverie.address import Place, WaitingAt
from reverie.persona.agent import Agent
from reverie.tasks.decide_reaction import Meeting, describe_retrieved
from reverie.tasks.decide_reaction import decide_to_react as ask_react
from reverie.tasks.decide_reaction import decide_to_talk as ask_talk

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel


def context_of(focused: dict) -> str:
    """What the persona remembers about the noticed event: related events, then thoughts."""
    return describe_retrieved(
        [n.description for n in focused.get("events", [])], [n.description for n in focused.get("thoughts", [])]
    )


def status(persona: Agent, *, with_place: bool = False) -> str:
    """ "X is already <doing>" (arrived), "X is <waiting ...>" or "X is on the way to <doing>"."""
    s = persona.scratch
    doing = subtask(s.act_description or "")
    place, address = "", s.address()
    if with_place and isinstance(address, Place) and len(address.parts) >= 3:
        _world, sector, arena = address.parts[:3]
        place = f" at {arena} in {sector}"
    if isinstance(address, WaitingAt):
        return f"{s.name} is {doing}{place}"
    if not s.planned_path:
        return f"{s.name} is already {doing}{place}"
    return f"{s.name} is on the way to {doing}{place}"


def meeting(persona: Agent, other: Agent, focused: dict, *, with_place: bool = False) -> Meeting:
    """``persona`` noticing ``other`` now, each described by their own status, waiting or not
    (docs/FIDELITY.md)."""
    return Meeting(
        init_name=persona.scratch.persona_name(),
        target_name=other.name,
        context=context_of(focused),
        now=persona.scratch.now().strftime("%B %d, %Y, %H:%M:%S %p"),
        init_status=status(persona, with_place=with_place),
        target_status=status(other, with_place=with_place),
    )


def decide_to_talk(persona: Agent, other: Agent, focused: dict, llm: LanguageModel) -> bool:
    last = persona.a_mem.get_last_chat(other.name)
    return ask_talk(
        llm,
        meeting(persona, other, focused),
        last_chat_time=last.created.strftime("%B %d, %Y, %H:%M:%S") if last else "",
        last_chat_about=last.description if last else "",
    )


def decide_to_react(persona: Agent, other: Agent, focused: dict, llm: LanguageModel) -> bool:
    """True: wait until the other has finished (the original's option 1)."""
    return ask_react(
        llm,
        meeting(persona, other, focused, with_place=True),
        init_act=subtask(persona.scratch.act_description or ""),
        target_act=subtask(other.scratch.act_description or ""),
    )
