"""Whether a persona reacts to another it perceives (prompts decide_to_talk, decide_to_react).

``decide_to_talk``: start a conversation or not. It is asked only once the code's gates
have passed (both awake and busy with something, neither chatting nor waiting, not at
23:00, the pair's chatting buffer spent: reverie/persona/react.py), and asks the original's
question with no lean either way. The answer is an enum after a short reason; the
fail-safe is "yes", the original's, since the gates have already let them talk
(docs/FIDELITY.md).

``decide_to_react``: when both head for the same spot, wait for the other to finish or
carry on. Fail-safe: carry on (no reaction), like the original.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs, memories
from reverie.tasks.common import Reply, one_line

NEVER_TALKED = "They have not talked before."


def _lowered(value: Any) -> Any:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value.strip().strip(".!").lower() if isinstance(value, str) else value


class Meeting(TaskInputs):
    """Who perceives whom, what they know of each other, and when: the inputs both reaction
    prompts share."""

    init_name: str
    target_name: str
    context: str
    now: str
    init_status: str
    target_status: str

    def tidied(self) -> dict[str, str]:
        """The fields as the prompts show them: the statuses on one line, an empty context said so."""
        return {
            **{name: getattr(self, name) for name in Meeting.model_fields},
            "context": self.context.strip() or "Nothing in particular.",
            "init_status": one_line(self.init_status),
            "target_status": one_line(self.target_status),
        }


class TalkInputs(Meeting):
    last_chat: str


class ReactInputs(Meeting):
    init_act: str
    target_act: str


# One short sentence of reasoning, bounded so that the whole reply fits the prompts' max_tokens
# even when the reason is a loop (a name repeated takes a token for every two characters), and
# the answer is never cut off (docs/SPEED.md, "Bounds that keep the answer"). The answer's field
# name sorts after "reason", so the reason comes first whatever the grammar builder does.
Reason = Annotated[str, Field(max_length=160, description="one short sentence of reasoning")]


class TalkReply(Reply):
    reason: Reason
    start_conversation: Annotated[Literal["yes", "no"], BeforeValidator(_lowered)] = Field(
        description="yes = start a conversation now"
    )


class ReactReply(Reply):
    reason: Reason
    wait_or_continue: Annotated[Literal["wait", "continue"], BeforeValidator(_lowered)] = Field(
        description="wait = let the other finish first"
    )


def talk_fail_safe(inputs: TalkInputs, choices: Choices) -> TalkReply:
    """Yes, as the original: the gates before the question have already said they may talk."""
    return TalkReply(reason="they meet and are free to talk", start_conversation="yes")


def react_fail_safe(inputs: ReactInputs, choices: Choices) -> ReactReply:
    return ReactReply(reason="carry on with the plan", wait_or_continue="continue")


DECIDE_TO_TALK = Task("decide_to_talk", TalkInputs, TalkReply, talk_fail_safe, trim=memories("context"))
DECIDE_TO_REACT = Task("decide_to_react", ReactInputs, ReactReply, react_fail_safe, trim=memories("context"))


def describe_retrieved(event_descriptions: list[str], thought_descriptions: list[str]) -> str:
    """What the persona remembers about the other: events, then thoughts, one per line, each
    text once, where it first stands (a perception stored again at every look, such as "Zara is
    waiting to start school", says nothing new the second time; docs/FIDELITY.md)."""
    lines = [one_line(d).rstrip(".") + "." for d in list(event_descriptions) + list(thought_descriptions) if d.strip()]
    lines = list(dict.fromkeys(lines))
    return "\n".join(lines) if lines else "Nothing in particular."


def last_chat_sentence(last_chat_time: str, last_chat_about: str) -> str:
    if not last_chat_time.strip():
        return NEVER_TALKED
    about = f", {one_line(last_chat_about)}" if last_chat_about.strip() else ""
    return f"They last talked on {last_chat_time.strip()}{about}."


def decide_to_talk(
    llm: LanguageModel, meeting: Meeting, *, last_chat_time: str = "", last_chat_about: str = ""
) -> bool:
    """True if ``init_name`` starts a conversation with ``target_name`` now."""
    inputs = TalkInputs(**meeting.tidied(), last_chat=last_chat_sentence(last_chat_time, last_chat_about))
    return llm.ask(DECIDE_TO_TALK, inputs, persona=meeting.init_name).start_conversation == "yes"


def decide_to_react(llm: LanguageModel, meeting: Meeting, *, init_act: str, target_act: str) -> bool:
    """True if ``init_name`` should wait until ``target_name`` has finished (original option 1)."""
    inputs = ReactInputs(**meeting.tidied(), init_act=one_line(init_act), target_act=one_line(target_act))
    return llm.ask(DECIDE_TO_REACT, inputs, persona=meeting.init_name).wait_or_continue == "wait"
