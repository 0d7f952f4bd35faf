"""The scripted fake chat model (not a real model) of the whole-town smoke tests.

:func:`town_chat` is :class:`reverie.llm.fake_model.FakeChatModel` answering by
:func:`town_reply`: the interview prompts by rule, from what the prompt shows: the persona's
memories (summarize_ideas), the summary (next_convo_line), the answer (interview_judge).
A persona "knows" a subject when one of its retrieved memories names it, or its identity does
(a seed planted in ``currently``, shown in the answer's system text); its answer then repeats
that memory or sentence (so an open question's answer names whom it names). Every other
prompt gets ``{}``, so cognition runs on its fail-safes.
"""

from __future__ import annotations

import re

from reverie.llm.fake_model import FakeCall, FakeChatModel

MEMORIES = re.compile(
    r"Memories of [^\n]*:\n(?P<statements>.*?)\n\nThe interviewer said to [^:]+: (?P<question>[^\n]*)", re.S
)
SUMMARY_KNOWN = "remembers hearing about"
SUMMARY_UNKNOWN = "remembers nothing about"
IDENTITY = re.compile(r"About [^\n]*:\n(?P<identity>.*?)\n\n", re.S)


def subject(question: str) -> str:
    """What a question asks about: a resident's name, or the key words of a seeded fact."""
    m = re.match(r"Do you know of (.+)\?$", question.strip())
    if m:
        return m.group(1)
    return "town council" if "council" in question else "party"


def town_reply(call: FakeCall) -> dict:
    """The reply by rule, from the fields the call's schema asks for and the prompt's text."""
    props = set(call.schema.get("properties", {}))
    text = call.user_text
    reply: dict = {}
    if props == {"score"}:
        reply = {"score": 1}
    elif props == {"summary"}:
        m = MEMORIES.search(text)
        if m:
            about = subject(m.group("question"))
            held = [
                line.lstrip("- ").rstrip(".")
                for line in m.group("statements").splitlines()
                if about.lower() in line.lower()
            ]
            reply = {
                "summary": f"The persona {SUMMARY_KNOWN} {about}: {held[0][:200]}."
                if held
                else f"The persona {SUMMARY_UNKNOWN} {about}."
            }
    elif props == {"utterance"}:
        m = re.search(rf"(?:{SUMMARY_KNOWN}|{SUMMARY_UNKNOWN}) ([^\n]+?)\.(?:\n|$)", text)
        if m:
            about, known = m.group(1), SUMMARY_KNOWN in m.group(0)
            who = IDENTITY.search(str(call.messages[0].content)) if call.messages else None
            told = (
                [s for s in re.split(r"(?<=[.!?])\s+", who.group("identity")) if about.lower() in s.lower()]
                if who
                else []
            )
            reply = {
                "utterance": f"Yes, I know about {about}."
                if known
                else f"Yes, I know about {about}: {told[0]}"
                if told
                else f"No, I have never heard of {about}."
            }
    elif props == {"evidence", "verdict"}:
        m = re.search(r"Answer of [^:]+: ([^\n]+)", text)
        if m:
            answer = m.group(1)
            reply = {"evidence": " ".join(answer.split()[:3]), "verdict": "yes" if answer.startswith("Yes") else "no"}
    return reply


def town_chat() -> FakeChatModel:
    return FakeChatModel(replies=town_reply)
