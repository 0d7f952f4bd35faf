"""The triples of several new thoughts of one persona, in one call (prompt thought_triples).

Every new thought is stored with a (subject, predicate, object) triple; the faithful mode asks
``event_triple`` once per thought (:func:`~reverie.tasks.event_triple.thought_triple`). Thoughts
often arrive together: a reflection's insights, the planning thought and the memo at a
conversation's end, a persona's whispers. In packed mode the first two come with their triples
(``insights_packed``, ``convo_thoughts_packed``); for others (a loaded history's whispers) this
unit asks for all of them at once: the prompt gives the subject once and numbers the thoughts, and the reply is a list
``triples`` with one predicate and target per thought, in order. The call passes the thoughts
as its ``statements`` choice, so the grammar writes exactly that many triples (``minItems`` =
``maxItems``), and the prompt's ``max_tokens_per_item`` scales the reply limit to the count.

Each triple is checked exactly as a single ``event_triple`` reply for its thought (the
validators of :class:`~reverie.tasks.event_triple.TripleReply`, with that thought as the
statement): a long predicate is shortened, a target that repeats the subject is read from the
sentence, and what those checks send back leaves that triple out: the thought then keeps
``event_triple``'s fail-safe (a thought's triple is asked once in packed mode,
:mod:`reverie.persona.thoughts`). A reply with no triple passing those checks, or with the
wrong number of triples (without a grammar), goes back to the model with what is wrong.

One check more is the list's own: a triple must share a word with its own thought
(:func:`from_its_sentence`), because a small model copies one thought's triple into the others
(docs/SPEED.md). Such a triple is left out as well, but never sends the reply back: asked
again, a small model mostly answers worse.

The fail-safe is "no triples" (logged): every thought then keeps ``event_triple``'s fail-safe.

A thought the batch repeats word for word is asked once. At most :data:`MAX_THOUGHTS` go in
one call; longer lists are split into even parts. Fewer than two distinct thoughts ask
nothing here (the single prompt answers one).
"""

from __future__ import annotations

import logging
import re
from functools import partial
from typing import Annotated

from pydantic import ValidationInfo, model_validator

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, NotShown, Task, TaskInputs, items_field
from reverie.tasks.common import Reply, check_batch, each_checked, even_parts, inputs_of, numbered
from reverie.tasks.event_triple import EVENT_TRIPLE, TripleFields, TripleInputs, TripleReply

log = logging.getLogger(__name__)

# The most thoughts one call answers (thoughts that arrive together without triples, such as a
# history file's whispers; a packed reflection's insights and a conversation's notes bring their
# own): ~400 prompt tokens, six thoughts and 6 x max_tokens_per_item reply tokens fit a
# 2048-token window with room for a correction, as actions_packed's six.
MAX_THOUGHTS = 6
STATEMENTS = "statements"  # the choices key whose length fixes the number of triples


class ThoughtTriplesInputs(TaskInputs):
    subject: str
    statements: str  # numbered from 1, one per line
    count: int
    # The thoughts as a list: each triple is checked with its own.
    statement_list: Annotated[list[str], NotShown()]

    def one(self, number: int) -> TripleInputs:
        """The inputs a single ``event_triple`` call would have for thought ``number`` (from 1)."""
        return TripleInputs(subject=self.subject, statement=self.statement_list[number - 1])


class ThoughtTriplesReply(Reply):
    # The grammar asks for exactly one triple per thought; the model validates an empty list,
    # which is the fail-safe's "no triples".
    triples: list[TripleFields] = items_field(
        STATEMENTS, MAX_THOUGHTS, "one triple per numbered sentence, in the order given"
    )

    @model_validator(mode="after")
    def _some_usable(self, info: ValidationInfo) -> ThoughtTriplesReply:
        inputs = inputs_of(info, ThoughtTriplesInputs)
        if self.triples and inputs is not None:
            asked = partial(checked, self.triples, inputs)
            check_batch(self.triples, inputs.count, asked, noun="triples", field="triples", each="sentence")
        return self

    def answers(self, inputs: ThoughtTriplesInputs) -> list[TripleReply | None]:
        """Each thought's triple as event_triple's checks make it, in order (None: the checks
        reject it, or it has no word of its thought: its thought keeps the single fail-safe); [] for the fail-safe."""
        return [
            answer if answer is not None and from_its_sentence(answer, inputs.one(number)) else None
            for number, answer in enumerate(checked(self.triples, inputs)[0], 1)
        ]


def checked(triples: list[TripleFields], inputs: ThoughtTriplesInputs) -> tuple[list[TripleReply | None], str]:
    """Each triple checked as a single ``event_triple`` reply for its thought, and what was wrong
    with those that failed (each problem once, with the triples that have it)."""
    return each_checked(EVENT_TRIPLE, triples, inputs.one, noun="triple")


# Words every sentence may share with any triple.
_COMMON = {
    "the",
    "and",
    "that",
    "this",
    "with",
    "for",
    "you",
    "your",
    "are",
    "was",
    "were",
    "has",
    "have",
    "had",
    "will",
    "from",
    "into",
    "his",
    "her",
    "hers",
    "she",
    "him",
    "they",
    "them",
    "their",
    "its",
    "but",
    "not",
    "all",
    "who",
    "what",
    "about",
    "going",
    "planning",
    "plan",
}


def _words(text: str, subject: str) -> list[str]:
    """The words of ``text`` of three letters or more, lower case, without the subject's name and :data:`_COMMON`."""
    name = {word.lower() for word in re.findall(r"[A-Za-z]+", subject)}
    return [word for word in re.findall(r"[a-z]{3,}", text.lower()) if word not in _COMMON and word not in name]


def _same_word(a: str, b: str) -> bool:
    """One word with another ending ("eat" and "eating", "invited" and "invites"): the same first four letters,
    or the whole of a three-letter word."""
    return a[:4] == b[:4] or (len(a) == 3 and b.startswith(a)) or (len(b) == 3 and a.startswith(b))


def from_its_sentence(triple: TripleReply, inputs: TripleInputs) -> bool:
    """Whether the triple shares a word with its sentence (the subject's name and words such as
    "the" or "planning" aside): a triple copied from another thought of the list does not."""
    said = _words(inputs.statement, inputs.subject)
    return any(
        _same_word(word, other)
        for word in _words(f"{triple.predicate} {triple.target}", inputs.subject)
        for other in said
    )


def fail_safe(inputs: ThoughtTriplesInputs, choices: Choices) -> ThoughtTriplesReply:
    """No triples: each thought keeps ``event_triple``'s fail-safe."""
    log.info(
        "thought_triples: no triples for %s's %d thoughts; each keeps the single fail-safe",
        inputs.subject,
        inputs.count,
    )
    return ThoughtTriplesReply(triples=[])


THOUGHT_TRIPLES = Task("thought_triples", ThoughtTriplesInputs, ThoughtTriplesReply, fail_safe)


def statement_of(name: str, thought: str) -> str:
    """The statement ``event_triple`` is asked for ``thought`` (a phrase repeated word for word said once)."""
    return TripleInputs(subject=name, statement=thought).statement


def triples_inputs(name: str, statements: list[str]) -> ThoughtTriplesInputs:
    """The inputs of one call for ``statements`` (at most :data:`MAX_THOUGHTS`)."""
    return ThoughtTriplesInputs(
        subject=name, statements=numbered(statements, 1), count=len(statements), statement_list=list(statements)
    )


def checked_triples(
    name: str, thoughts: list[str], triples: list[TripleFields], *, log: logging.Logger, unusable: str
) -> list[tuple[str, str, str] | None]:
    """Each of ``thoughts``' ``(name, predicate, target)`` from the ``triples`` another reply wrote
    for them, in order, where it passes the checks this prompt gives its own; None where not, or
    missing. Such a thought keeps the single fail-safe: the caller's ``log`` says so at info, as
    ``unusable % (name, their numbers)``."""
    answers = ThoughtTriplesReply(triples=triples).answers(triples_inputs(name, thoughts))
    found = [(name, a.predicate, a.target) if a is not None else None for a in answers]
    found += [None] * (len(thoughts) - len(found))
    if None in found:
        log.info(unusable, name, [i for i, t in enumerate(found, 1) if t is None])
    return found


def thought_triples(llm: LanguageModel, *, name: str, thoughts: list[str]) -> list[tuple[str, str, str] | None]:
    """Each thought's ``(name, predicate, object)`` as ``thought_triple`` would give it, in order,
    where the model answered it validly; None where it did not (a triple the checks reject or
    with no word of its thought, a failed call: the caller keeps the single fail-safe; fewer than two
    distinct thoughts, asked nothing: the caller asks ``thought_triple``)."""
    statements = [statement_of(name, thought) for thought in thoughts]
    distinct = list(dict.fromkeys(s for s in statements if s))
    if len(distinct) < 2:
        return [None] * len(thoughts)
    found: dict[str, tuple[str, str, str]] = {}
    for part in even_parts(distinct, MAX_THOUGHTS):
        found.update(_ask(llm, name, part))
    return [found.get(statement) for statement in statements]


def _ask(llm: LanguageModel, name: str, statements: list[str]) -> dict[str, tuple[str, str, str]]:
    inputs = triples_inputs(name, statements)
    answers = llm.ask(THOUGHT_TRIPLES, inputs, choices={STATEMENTS: statements}, persona=name).answers(inputs)
    if None in answers:
        log.info(
            "thought_triples: %s's thoughts %s keep the single fail-safe (their triple failed its checks)",
            name,
            ", ".join(str(number) for number, answer in enumerate(answers, 1) if answer is None),
        )
    return {
        statement: (name, answer.predicate, answer.target)
        for statement, answer in zip(statements, answers)
        if answer is not None
    }
