"""Memory: poignancy from cues, whispers in the third person, triples, reflection from the statements."""

from __future__ import annotations

import re

from reverie.llm.scripted.call import ScriptedCall
from reverie.llm.scripted.cues import bare, compact, importance, lines_of, most_important

_YOU = [
    (r"\byou are\b", "{name} is"),
    (r"\byou're\b", "{name} is"),
    (r"\byou have\b", "{name} has"),
    (r"\byou want\b", "{name} wants"),
    (r"\byour\b", "{poss}"),
    (r"\byourself\b", "{obj}"),
    (r"\byou\b", "{name}"),
]


def poignancy(call: ScriptedCall) -> dict:
    return {"rating": importance(call.text("description"))}


def events_poignancy(call: ScriptedCall) -> dict:
    """One cue-based rating per numbered event ("1. ...", "2. ..."), as many as the call asks."""
    events = [re.sub(r"^\s*\d+[.)]\s*", "", line) for line in call.text("events").splitlines() if line.strip()]
    low, high = call.items_count("ratings")
    ratings = [importance(e) for e in events][:high]
    return {"ratings": ratings + [1] * (low - len(ratings))}


def whisper_inner_thought(call: ScriptedCall) -> dict:
    """ "You are hosting ..." -> "<name> is hosting ..." (the prompt shows the code's draft of it)."""
    name = call.text("persona_name")
    thought = call.text("draft") or call.text("whisper")
    for pattern, repl in _YOU:
        thought = re.sub(pattern, repl.format(name=name, poss=f"{name}'s", obj=name), thought, flags=re.IGNORECASE)
    if name.lower() not in thought.lower():
        thought = f"{name} knows this: {thought}"
    return {"thought": compact(thought, 290)}


def _triple(subject: str, statement: str) -> dict:
    rest = statement.strip().rstrip(".")
    if subject and rest.lower().startswith(subject.lower()):
        rest = rest[len(subject) :].strip()
    words = rest.split()
    if len(words) >= 2 and words[0].lower() in ("is", "are", "was", "has", "being"):
        return {"predicate": " ".join(words[:2]), "target": " ".join(words[2:]) or words[1]}
    if len(words) >= 2:
        return {"predicate": words[0], "target": " ".join(words[1:])}
    return {"predicate": "is", "target": rest or "idle"}


def triple_answer(subject: str, statement: str) -> dict:
    answer = _triple(subject, statement)
    if answer["predicate"].lower() == answer["target"].lower():
        answer = {"predicate": "is", "target": answer["target"]}
    return {"predicate": answer["predicate"][:40], "target": answer["target"][:80] or "something"}


def event_triple(call: ScriptedCall) -> dict:
    return triple_answer(call.text("subject"), call.text("statement"))


def thought_triples(call: ScriptedCall) -> dict:
    """One ``event_triple`` answer per numbered sentence ("1. ...", "2. ..."), as many as the call asks."""
    subject = call.text("subject")
    sentences = [re.sub(r"^\s*\d+[.)]\s*", "", line) for line in call.text("statements").splitlines() if line.strip()]
    low, high = call.items_count("triples")
    triples = [triple_answer(subject, sentence) for sentence in sentences][:high]
    while len(triples) < low:
        triples.append(triples[-1] if triples else {"predicate": "is", "target": "thinking"})
    return {"triples": triples}


def act_obj_desc(call: ScriptedCall) -> dict:
    return {"state": f"being used by {call.text('name').split()[0] if call.text('name') else 'someone'}"[:80]}


def pronunciatio(call: ScriptedCall) -> dict:
    text = call.text("action").lower()
    table = [
        ("sleep", "😴"),
        ("eat", "🍽️"),
        ("coffee", "☕"),
        ("chat", "💬"),
        ("talk", "💬"),
        ("party", "🎉"),
        ("work", "💼"),
        ("read", "📖"),
        ("walk", "🚶"),
        ("cook", "🍳"),
    ]
    return {"emoji": next((emoji for word, emoji in table if word in text), "🙂")}


def focal_points(call: ScriptedCall) -> dict:
    statements = [bare(s) for s in lines_of(call.text("statements"))]
    n = max(1, min(5, int(call.text("n") or 3) if call.text("n").isdigit() else 3))
    ranked = sorted(statements, key=lambda s: -importance(s))[:n] or [f"what {call.text('persona_name')} did today"]
    return {"questions": [f"What does {call.text('persona_name')} know about {s.rstrip('.')}?"[:190] for s in ranked]}


def insights(call: ScriptedCall) -> dict:
    statements = lines_of(call.text("statements"))
    allowed = [str(c) for c in call.choices("insights", "evidence")] or [str(i) for i in range(len(statements))]
    best = most_important(statements, least=1) or (bare(statements[0]) if statements else "the day went as planned")
    index = next((i for i, s in enumerate(statements) if bare(s) == best), 0)
    evidence = str(index) if str(index) in allowed else (allowed[0] if allowed else "0")
    lead = f"{call.text('persona_name')} keeps in mind that "
    return {"insights": [{"insight": lead + compact(best, 155 - len(lead)), "evidence": [evidence]}]}


def insights_packed(call: ScriptedCall) -> dict:
    """``insights``' answer, each insight with its own triple."""
    name = call.text("persona_name")
    return {"insights": [{**item, **triple_answer(name, item["insight"])} for item in insights(call)["insights"]]}


def safety_score(call: ScriptedCall) -> dict:
    return {"score": 1}


RULES = {
    "event_poignancy": poignancy,
    "events_poignancy": events_poignancy,
    "chat_poignancy": poignancy,
    "whisper_inner_thought": whisper_inner_thought,
    "event_triple": event_triple,
    "act_obj_event_triple": event_triple,
    "thought_triples": thought_triples,
    "act_obj_desc": act_obj_desc,
    "pronunciatio": pronunciatio,
    "focal_points": focal_points,
    "insights": insights,
    "insights_packed": insights_packed,
    "safety_score": safety_score,
}
