"""Talking: always agree to talk, pass on the most important thing remembered, note what was heard."""

from __future__ import annotations

import re
from dataclasses import replace

from reverie.llm.scripted.call import ScriptedCall
from reverie.llm.scripted.cues import bare, compact, event_phrase, lines_of, most_important, news_items, sentences
from reverie.llm.scripted.rules.memory import triple_answer

NOT_STARTED = "(nobody has said anything yet.)"
MAX_LINE = 300  # the longest line the utterance's schema takes


def _told(items: list[str], room: int) -> str:
    """The pieces of news as one line, as many as fit in ``room`` characters (the first, cut, if none does)."""
    told = ""
    for item in items:
        more = (told + " Also, " if told else "") + item.rstrip(".") + "."
        if len(more) <= room:
            told = more
    return told or (compact(items[0].rstrip("."), room - 1) + "." if items else "")


def _first(name: str) -> str:
    return (name or "").split()[0] if (name or "").split() else "there"


def decide_to_talk(call: ScriptedCall) -> dict:
    return {
        "reason": f"{call.text('init_name')} has not talked with {call.text('target_name')} yet and "
        "likes to share news.",
        "start_conversation": "yes",
    }


def decide_to_react(call: ScriptedCall) -> dict:
    return {
        "reason": f"{call.text('init_name')} goes on with {call.text('init_act') or 'the plan'}.",
        "wait_or_continue": "continue",
    }


def _turns(conversation: str) -> list[tuple[str, str]]:
    rows = []
    for line in str(conversation or "").splitlines():
        speaker, _, said = line.partition(":")
        if said.strip():
            rows.append((speaker.strip(), said.strip()))
    return rows


def iterative_chat_utterance(call: ScriptedCall) -> dict:
    """Open with the speaker's news; answer with one's own; then say goodbye. The news is the most
    important of the memories the prompt shows, not yet said in this conversation."""
    speaker, listener = call.text("speaker"), call.text("listener")
    conversation = call.text("conversation")
    turns = [] if conversation.lower() == NOT_STARTED else _turns(conversation)
    own = [
        line.partition(":")[2].strip() for line in call.text("identity").splitlines() if line.startswith("Currently:")
    ]
    items = news_items(
        lines_of(call.text("memories")) + [s for text in own for s in sentences(text)], said=conversation
    )
    news = _told(items, room=MAX_LINE - 40)
    mine = [said for who, said in turns if who == speaker]
    if not turns:
        opening = f"Hi {_first(listener)}!"
        line = f"{opening} Did you hear? {news}" if news else f"{opening} How is your day going?"
        return {"utterance": line[:MAX_LINE], "end": False}
    if not mine and len(turns) < 3:
        line = (
            f"Thanks for telling me. And did you know? {news}" if news else "Good to hear from you. Nothing new here."
        )
        return {"utterance": line[:MAX_LINE], "end": False}
    return {"utterance": f"Good to know, {_first(listener)}. See you later!", "end": True}


def conversation_packed(call: ScriptedCall) -> dict:
    """The whole talk at once, as the line-by-line rule holds it: the initiator's news, the
    partner's own news, then goodbye (each from their own memories and identity)."""
    partner = call.text("partner")
    room = int((call.field("lines").get("items") or {}).get("maxLength") or MAX_LINE)

    def news(who: str, said: str) -> str:
        own = [
            line.partition(":")[2].strip()
            for line in call.text(f"{who}_identity").splitlines()
            if line.startswith("Currently:")
        ]
        items = news_items(
            lines_of(call.text(f"{who}_memories")) + [s for text in own for s in sentences(text)], said=said
        )
        return _told(items, room=room - 40)

    first = news("initiator", "")
    opening = (
        f"Hi {_first(partner)}! Did you hear? {first}" if first else f"Hi {_first(partner)}! How is your day going?"
    )
    second = news("partner", opening)
    answer = (
        f"Thanks for telling me. And did you know? {second}" if second else "Good to hear from you. Nothing new here."
    )
    lines = [opening[:room], answer[:room], f"Good to know, {_first(partner)}. See you later!"]
    return {"lines": lines, "about": _topic([s for line in lines for s in sentences(line)])}


def _heard(call: ScriptedCall, key: str = "partner_name", count: int = 1) -> str | None:
    """The most important things the partner said (the persona's own lines left out)."""
    partner = call.text(key)
    said = [line for who, line in _turns(call.text("conversation")) if who == partner] or [
        line for _who, line in _turns(call.text("conversation"))
    ]
    candidates = [
        re.sub(r"^(?:also|and did you know\?)[,\s]*", "", s, flags=re.IGNORECASE)
        for line in said
        for s in sentences(line)
        if len(s.split()) >= 3
    ]
    items = news_items(candidates, count=count)
    return " ".join(i.rstrip(".") + "." for i in items) if items else (max(candidates, key=len) if candidates else None)


def _topic(said: list[str]) -> str:
    """The most important of the sentences said, in a few words: an announced event as its
    short phrase, hours kept (a topic is cut to a few words, which would drop them)."""
    topic = most_important(said, least=2)
    return event_phrase(topic or "") or compact((topic or "how their day is going").rstrip("."), 150)


def summarize_conversation(call: ScriptedCall) -> dict:
    return {"conversing_about": _topic([s for _w, line in _turns(call.text("conversation")) for s in sentences(line)])}


def memo_on_convo(call: ScriptedCall) -> dict:
    heard = _heard(call, count=2)
    name, partner = call.text("persona_name"), call.text("partner_name")
    memo = f"{name} heard from {partner} that {heard}" if heard else f"{name} had a friendly chat with {partner}."
    if len(memo) > 290 and heard:
        memo = f"{name} heard from {partner} that {compact(_heard(call) or heard, 250 - len(name) - len(partner))}"
    return {"memo": compact(memo, 290)}


def planning_thought_on_convo(call: ScriptedCall) -> dict:
    heard = _heard(call)
    return {"thought": compact(heard or f"nothing in the chat with {call.text('partner_name')} changes the plans", 290)}


def convo_thoughts_packed(call: ScriptedCall) -> dict:
    """Each participant's two thoughts, the persona's first, and the triple of each as stored (the
    plan as "For <name>'s planning: ...")."""
    partners = replace(
        call,
        inputs={**call.inputs, "persona_name": call.text("partner_name"), "partner_name": call.text("persona_name")},
    )
    return {"notes": [_notes(call), _notes(partners)]}


def _notes(call: ScriptedCall) -> dict:
    name = call.text("persona_name")
    plan, memo = planning_thought_on_convo(call)["thought"], memo_on_convo(call)["memo"]
    return {
        "plan": plan,
        "memo": memo,
        "triples": [triple_answer(name, f"For {name}'s planning: {plan}"), triple_answer(name, memo)],
    }


def relationship_summary(call: ScriptedCall) -> dict:
    statements = [bare(s) for s in lines_of(call.text("statements"))]
    speaker, listener = call.text("speaker"), call.text("listener")
    known = statements[0] if statements else f"{listener} is someone {speaker} sees around town"
    return {"summary": compact(f"{speaker} knows {listener}. {known}", 290)}


RULES = {
    "decide_to_talk": decide_to_talk,
    "decide_to_react": decide_to_react,
    "iterative_chat_utterance": iterative_chat_utterance,
    "conversation_packed": conversation_packed,
    "summarize_conversation": summarize_conversation,
    "memo_on_convo": memo_on_convo,
    "planning_thought_on_convo": planning_thought_on_convo,
    "convo_thoughts_packed": convo_thoughts_packed,
    "relationship_summary": relationship_summary,
}
