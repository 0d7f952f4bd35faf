"""Interviews: answer from the memories the prompt shows, yes only when they bear on the question.

The memories are matched as retrieved: "<A> heard from <B> that ..." and "<A> is conversing
about ..." are the statements that name the other resident, so nothing is stripped from them.
A question about someone ("Do you know of <Full Name>?") needs the full name in a statement
(one word of it may belong to someone else); any other question needs the head of what it
asks about, its last content word ("party", "council"): "day" alone is no Valentine's Day party.
"""

from __future__ import annotations

import re

from reverie.llm.scripted.call import ScriptedCall
from reverie.llm.scripted.cues import content_words, lines_of, sentences

NOTHING = "Nothing in the memories bears on it."
# "Do you know of/about <Capitalised Name>?": the question asks about one someone, by name.
_ABOUT_SOMEONE = re.compile(r"\bknow (?:of|about)\s+((?:[A-Z][\w'.-]*)(?:\s+[A-Z][\w'.-]*)+)\s*[?.!]?\s*$")


def _question(call: ScriptedCall, key: str) -> str:
    text = call.text(key)
    lines = [line.partition(":")[2].strip() or line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else text


def someone_asked_about(question: str) -> str | None:
    """The full name a "Do you know of <name>?" question asks about (None for any other question)."""
    found = _ABOUT_SOMEONE.search(str(question or "").strip())
    return found.group(1) if found else None


def relevant(statements: list[str], question: str, about: str = "") -> list[str]:
    """The statements that bear on ``question``, the most words in common first. ``about``: the
    one answering, whose own name is no evidence."""
    name = someone_asked_about(question)
    if name:
        pattern = re.compile(rf"\b{re.escape(name)}\b", re.IGNORECASE)
        return [s for s in statements if pattern.search(s)]
    wanted = content_words(question) - content_words(about)
    head = _head(question, wanted)
    scored = [
        (len(words & wanted), i, s)
        for i, s in enumerate(statements)
        if head is None or _holds(words := content_words(s), head)
    ]
    return [s for n, _i, s in sorted(scored, key=lambda t: (-t[0], t[1])) if n > 0]


def _head(question: str, wanted: set[str]) -> str | None:
    """The question's last content word, the head of what it asks about ("... a Valentine's Day
    party?" -> "party", "... for the town council?" -> "council"): a statement must name it."""
    words = [w for w in re.findall(r"[a-z']+", str(question or "").lower()) if w in wanted]
    return words[-1] if words else None


def _holds(words: set[str], head: str) -> bool:
    return head in words or f"{head}s" in words or (head.endswith("y") and f"{head[:-1]}ies" in words)


def summarize_ideas(call: ScriptedCall) -> dict:
    statements = lines_of(call.text("statements"))
    found = relevant(statements, call.text("question"), call.text("persona_name"))
    return {"summary": (" ".join(s.rstrip(".") + "." for s in found[:2]) or NOTHING)[:390]}


def next_convo_line(call: ScriptedCall) -> dict:
    question = _question(call, "conversation")
    name = call.text("persona_name")
    own = [
        line.partition(":")[2].strip() for line in call.text("identity").splitlines() if line.startswith("Currently:")
    ]
    summary = "" if call.text("summary").startswith(NOTHING) else call.text("summary")
    found = relevant([s for text in [summary, *own] for s in sentences(text)], question, name)
    if found:
        return {"utterance": f"Yes. {found[0]}"[:390]}
    return {"utterance": "No, I don't know anything about that."}


def interview_judge(call: ScriptedCall) -> dict:
    answer = call.text("answer")
    words = answer.split()[:8]
    return {"evidence": " ".join(words) or answer[:40], "verdict": "yes" if answer.lower().startswith("yes") else "no"}


RULES = {"summarize_ideas": summarize_ideas, "next_convo_line": next_convo_line, "interview_judge": interview_judge}
