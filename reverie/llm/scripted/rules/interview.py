"""Interviews: answer from the memories the prompt shows, yes only when they bear on the question."""

from __future__ import annotations

from reverie.llm.scripted.call import ScriptedCall
from reverie.llm.scripted.cues import bare, content_words, lines_of, sentences

NOTHING = "Nothing in the memories bears on it."


def _question(call: ScriptedCall, key: str) -> str:
    text = call.text(key)
    lines = [line.partition(":")[2].strip() or line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else text


def _relevant(statements: list[str], question: str, about: str = "") -> list[str]:
    wanted = content_words(question) - content_words(about)
    scored = [(len(content_words(s) & wanted), i, s) for i, s in enumerate(statements)]
    return [s for n, _i, s in sorted(scored, key=lambda t: (-t[0], t[1])) if n > 0]


def summarize_ideas(call: ScriptedCall) -> dict:
    statements = [bare(s) for s in lines_of(call.text("statements"))]
    found = _relevant(statements, call.text("question"), call.text("persona_name"))
    return {"summary": (" ".join(s.rstrip(".") + "." for s in found[:2]) or NOTHING)[:390]}


def next_convo_line(call: ScriptedCall) -> dict:
    question = _question(call, "conversation")
    name = call.text("persona_name")
    own = [line.partition(":")[2].strip() for line in call.text("identity").splitlines() if line.startswith("Currently:")]
    summary = "" if call.text("summary").startswith(NOTHING) else call.text("summary")
    found = _relevant([s for text in [summary, *own] for s in sentences(text)], question, name)
    if found:
        return {"utterance": f"Yes. {found[0]}"[:390]}
    return {"utterance": "No, I don't know anything about that."}


def interview_judge(call: ScriptedCall) -> dict:
    answer = call.text("answer")
    words = answer.split()[:8]
    return {"evidence": " ".join(words) or answer[:40],
            "verdict": "yes" if answer.lower().startswith("yes") else "no"}


RULES = {"summarize_ideas": summarize_ideas, "next_convo_line": next_convo_line, "interview_judge": interview_judge}
