"""A statement as a (subject, predicate, object) triple (prompts event_triple, act_obj_event_triple).

``event_triple`` turns "<persona> is <action>" into the persona's event, and a new thought or
whisper (a sentence of its own) into the thought's triple; ``act_obj_event_triple`` turns "<object> is <state>" into the
object's event. The subject is fixed by the code, the model gives predicate and object.
A predicate longer than a short verb is not sent back: the code keeps its verb and moves
the rest into the target (the triple still reads as the same sentence). Likewise a state
in the passive given as the predicate with the subject as its target ("is being slept in",
"bed") becomes ("is", "being slept in"); any other verb on the subject itself is sent back.
The fail-safe splits the statement itself ("eating breakfast" -> ("eating", "breakfast"),
"sleeping" -> ("is", "sleeping")) and is returned as is (docs/FIDELITY.md).
"""

from __future__ import annotations

import re

from pydantic import Field, ValidationError, ValidationInfo, field_validator, model_validator

from reverie.action_text import subtask
from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs
from reverie.tasks.common import Reply, check_text, inputs_of, one_line, without_repeats

MAX_PREDICATE_WORDS = 4
IDLE = ("is", "idle")


class TripleInputs(TaskInputs):
    """A clause the statement repeats word for word is asked once (:func:`without_repeats`), however
    the inputs were made (a unit's call, a captured case)."""

    subject: str
    statement: str

    @field_validator("statement")
    @classmethod
    def _said_once(cls, statement: str) -> str:
        return without_repeats(statement)


# A triple's fields, with only the checks that need no inputs (a list of triples is built from
# these, each then checked as a TripleReply for its own statement).
class TripleFields(Reply):
    predicate: str = Field(max_length=40, description="the verb, a short phrase such as 'is eating' or 'writes'")
    # Named so that alphabetical order (some grammar builders sort keys) is the order of thought.
    target: str = Field(max_length=80, description="what the verb acts on")


# One statement's triple, checked against its subject and statement.
class TripleReply(TripleFields):
    @model_validator(mode="after")
    def _check(self, info: ValidationInfo) -> TripleReply:
        inputs = inputs_of(info, TripleInputs)
        subject = inputs.subject.strip() if inputs else ""
        predicate = one_line(self.predicate)
        if subject and predicate.lower().startswith(subject.lower() + " "):
            predicate = predicate[len(subject) :].strip()
        self.target = check_text(self.target.rstrip("."), "the target")
        if predicate.lower().endswith(" " + self.target.lower()):  # "is covered with notes" + "notes"
            predicate = predicate[: -len(self.target)].strip()
        self.predicate = check_text(predicate, "the predicate")
        if self.predicate.split()[0].lower() in _NOT_VERBS:
            raise ValueError(f'the predicate {self.predicate!r} is not a verb; write a short verb like "is eating"')
        if self.predicate.lower() == self.target.lower():  # "is planning" twice: the verb is fine, the target missing
            whom = subject or "the subject"
            raise ValueError(
                f"the predicate and the target are both {self.predicate!r}; the target is what {whom} "
                "acts on, not the verb again"
            )
        if len(self.predicate.split()) > MAX_PREDICATE_WORDS:
            self.predicate, self.target = shorter_predicate(self.predicate, self.target)
        if subject and self.target.lower() == subject.lower():
            words = self.predicate.split()
            if len(words) >= 3 and words[0].lower() in _AUXILIARIES and words[1].lower() == "being":
                # ("is being slept in", "bed") about the bed: the state is the target, ("is", "being slept in").
                self.predicate, self.target = words[0], " ".join(words[1:])
                return self
            # ("buy", "Theo Alvarez") of "Theo Alvarez buys a coffee ...": the verb is the sentence's,
            # and what it acts on is read from the sentence after it.
            read = verb_and_object(inputs.statement if inputs else "", subject, self.predicate)
            if read is None:
                raise ValueError(f"the target repeats the subject {subject!r}; give what {subject} acts on")
            self.predicate, self.target = read
        return self


_NOT_VERBS = {"the", "a", "an", "this", "that", "these", "those", "my", "his", "her", "their", "its", "our"}
_AUXILIARIES = {"is", "are", "was", "were", "will", "has", "have", "had", "can", "does", "am", "be"}


def verb_and_object(statement: str, subject: str, predicate: str) -> tuple[str, str] | None:
    """The sentence's own (verb, what it acts on) when ``predicate`` names the verb that follows
    ``subject`` in ``statement`` ("buy" in "Theo Alvarez buys a coffee at the cafe" -> ("buys",
    "a coffee at the cafe")); None when the verb is not there or nothing follows it."""
    rest = one_line(statement).rstrip(".!?")
    if not rest.lower().startswith(subject.lower() + " "):
        return None
    words = rest[len(subject) :].split()
    verb = re.sub(r"(e|es|s|ed|ing)$", "", predicate.split()[-1].lower()) if predicate.split() else ""
    if len(verb) < 2:
        return None
    for i, word in enumerate(words[:3]):
        if word.lower().startswith(verb) and word.lower() not in _AUXILIARIES:
            target = " ".join(words[i + 1 :])
            if not target or target.lower() == subject.lower():
                return None
            if len(target) > 80:  # the schema's bound, cut at a word
                target = target[:81].rsplit(" ", 1)[0]
            return " ".join(words[: i + 1]), target
    return None


def shorter_predicate(predicate: str, target: str) -> tuple[str, str]:
    """A long predicate's verb stays the predicate and the rest of it goes in front of the target, so
    the triple still reads as the same sentence: ("is going to open the", "cafe") -> ("is going", "to open the cafe")."""
    words = predicate.split()
    keep = 2 if words[0].lower() in _AUXILIARIES else 1
    return " ".join(words[:keep]), f"{' '.join(words[keep:])} {target}".strip()


def split_statement(statement: str, subject: str) -> tuple[str, str]:
    """A plain (predicate, object) read out of "<subject> is <rest>" without a model."""
    rest = one_line(statement).rstrip(".")
    if subject and rest.lower().startswith(subject.lower()):
        rest = rest[len(subject) :].strip()
    rest = re.sub(r"^(is|are|was)\b\s*", "", rest, flags=re.IGNORECASE)
    words = rest.split()
    candidates = [IDLE, ("is", "busy")]
    if words:
        candidates.insert(0, ("is", rest[:80]))
    if len(words) > 1 and words[0].lower().endswith("ing") and words[0].lower() != "being":
        candidates.insert(0, (words[0][:40], " ".join(words[1:])[:80]))
    context = {"inputs": TripleInputs(subject=subject, statement=statement)}
    for predicate, target in candidates:  # the first one the checks accept ("(1)" has no words)
        try:
            reply = TripleReply.model_validate({"predicate": predicate, "target": target}, context=context)
        except ValidationError:
            continue
        return reply.predicate, reply.target
    return IDLE


def fail_safe(inputs: TripleInputs, choices: Choices) -> TripleReply:
    predicate, obj = split_statement(inputs.statement, inputs.subject)
    return TripleReply(predicate=predicate, target=obj)


EVENT_TRIPLE = Task("event_triple", TripleInputs, TripleReply, fail_safe)
ACT_OBJ_EVENT_TRIPLE = EVENT_TRIPLE.asked_as("act_obj_event_triple")


def event_triple(llm: LanguageModel, *, name: str, action_description: str) -> tuple[str, str, str]:
    """``(name, predicate, object)`` for the persona doing the action (text in the last parentheses)."""
    inputs = TripleInputs(subject=name, statement=f"{name} is {subtask(action_description)}")
    reply = llm.ask(EVENT_TRIPLE, inputs, persona=name)
    return (name, reply.predicate, reply.target)


def thought_triple(llm: LanguageModel, *, name: str, thought: str) -> tuple[str, str, str]:
    """``(name, predicate, object)`` for a thought of the persona: the statement is the thought
    itself, with no "<name> is " in front (docs/FIDELITY.md), with a phrase the thought repeats word
    for word said once ("This is a dream, Ken! This is a dream, Ken!" is asked as "This is a dream, Ken!")."""
    inputs = TripleInputs(subject=name, statement=thought)
    reply = llm.ask(EVENT_TRIPLE, inputs, persona=name)
    return (name, reply.predicate, reply.target)


def thought_fail_safe(name: str, thought: str) -> tuple[str, str, str]:
    """``(name, predicate, object)`` of the fail-safe ``thought_triple`` would end on, without a call."""
    reply = fail_safe(TripleInputs(subject=name, statement=thought), {})
    return (name, reply.predicate, reply.target)


def act_obj_event_triple(
    llm: LanguageModel, *, object_name: str, object_description: str, persona: str | None = None
) -> tuple[str, str, str]:
    """``(object_name, predicate, object)`` for the object in its state ("being used by ...")."""
    inputs = TripleInputs(subject=object_name, statement=f"{object_name} is {one_line(object_description)}")
    reply = llm.ask(ACT_OBJ_EVENT_TRIPLE, inputs, persona=persona)
    return (object_name, reply.predicate, reply.target)
