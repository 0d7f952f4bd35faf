"""High-level insights with the statements that support them (prompts insights, insights_packed).

The original's "insight and evidence" prompt. Statements are numbered from 0; each insight
cites at least one of them. The numbers are a call-time enum (the grammar keeps them in
range) and are checked against the range again. An insight that fails its checks (a copy of a
statement, too short) is dropped while another one of the reply stands; a reply with none
standing is sent back. The fail-safe has the same shape as a
real answer (docs/FIDELITY.md).

Every insight is stored as a thought with a triple (``thought_triples`` or ``event_triple``
after this call). In packed mode the reply carries them instead (prompt ``insights_packed``):
each insight ends with its ``predicate`` and ``target``, so a reflection asks no triples call.
Each is checked as ``thought_triples`` checks its own (``event_triple``'s checks for its
insight, and a word of that insight); one that fails, or is missing, is left out (logged) and
its thought keeps ``event_triple``'s fail-safe: in packed mode a thought's triple is asked once
(:mod:`reverie.persona.thoughts`). A triple never sends the reply back: its fields are in the
grammar's ``required`` but not in the model's, as ``convo_thoughts_packed``'s ``triples``.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from pydantic import ConfigDict, Field, ValidationInfo, field_validator

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs, choice_field, memories
from reverie.tasks.common import Reply, check_text, inputs_of, numbered, one_line, unlist, without_marker, words_only
from reverie.tasks.event_triple import TripleFields
from reverie.tasks.thought_triples import checked_triples

log = logging.getLogger(__name__)

MAX_INSIGHTS = 5
MAX_EVIDENCE = 10


# Statement numbers are a call-time enum (choices["statement_numbers"] = ["0", "1", ...]),
# so a grammar never lets an index fall out of range.
NUMBERS_KEY = "statement_numbers"


class InsightsInputs(TaskInputs):
    persona_name: str
    statements: str
    n: int
    last_index: int


class Insight(Reply):
    insight: str = Field(
        max_length=160, description="one sentence about the persona", json_schema_extra=words_only(160, 3, min_words=3)
    )
    evidence: list[Annotated[str, Field(max_length=3)]] = choice_field(
        NUMBERS_KEY, min_length=1, max_length=MAX_EVIDENCE, description="numbers of the statements it is based on"
    )

    @field_validator("evidence", mode="before")
    @classmethod
    def _numbers_as_text(cls, value: Any) -> Any:
        # Without a grammar a model writes [0, 2]; the enum holds "0", "2".
        return (
            [str(v) if isinstance(v, int) and not isinstance(v, bool) else v for v in value]
            if isinstance(value, list)
            else value
        )


class InsightsReply(Reply):
    insights: list[Insight] = Field(min_length=1, max_length=MAX_INSIGHTS)

    @field_validator("insights")
    @classmethod
    def _insights(cls, insights: list[Insight], info: ValidationInfo) -> list[Insight]:
        inputs = inputs_of(info, InsightsInputs)
        statements = [s.lower().rstrip(".") for s in unlist(inputs.statements)] if inputs else []
        # Statements cut to fit the context window are not shown: only those shown can be cited.
        last = min(inputs.last_index, len(statements) - 1) if inputs else -1
        kept: list[Insight] = []
        problems: list[str] = []
        for i, item in enumerate(insights, 1):
            try:
                text = _checked(i, item, statements, last)
            except ValueError as problem:
                problems.append(str(problem))
                continue
            if text.lower() in (k.insight.lower() for k in kept):
                continue  # a repeated insight is dropped, not sent back
            kept.append(item.model_copy(update={"insight": text, "evidence": list(dict.fromkeys(item.evidence))}))
        if not kept:  # an insight that fails is dropped while another one stands; none standing is sent back
            raise ValueError("; ".join(problems))
        n = (inputs.n if inputs else 0) or MAX_INSIGHTS
        return kept[:n]  # extra insights are dropped


def _checked(i: int, item: Insight, statements: list[str], last: int) -> str:
    """Insight ``i``'s text on one line, or ValueError saying what is wrong with it."""
    text = check_text(item.insight, f"insight {i}", min_words=3)
    if without_marker(text).lower().rstrip(".") in statements:  # "1. <statement>" copies it too
        raise ValueError(f"insight {i} only copies a statement; say what the statements mean together")
    for number in item.evidence:
        if not number.strip().isdigit():
            raise ValueError(f'evidence {number!r} in insight {i} is not a statement number; use numbers like "0"')
        if last >= 0 and not 0 <= int(number) <= last:
            raise ValueError(
                f"evidence index {number} in insight {i} is out of range: statements are numbered 0 to {last}"
            )
    return text


def _fail_safe(inputs: InsightsInputs, choices: Choices) -> InsightsReply:
    # A harmless, generic thought that cites what was reflected on.
    evidence = [str(i) for i in range(min(max(inputs.last_index, 0) + 1, MAX_EVIDENCE))]
    name = inputs.persona_name or "I"
    return InsightsReply(insights=[Insight(insight=f"{name} has had a lot going on lately", evidence=evidence)])


class InsightWithTriple(Insight):
    """An insight with its triple (packed mode): asked for (the grammar writes both fields) but not
    required, each checked in :meth:`InsightsPackedReply.stored_triples`."""

    predicate: str = Field("", max_length=40, description="the insight's main verb, a few words")
    target: str = Field("", max_length=80, description="what that verb acts on")

    model_config = ConfigDict(
        json_schema_extra=lambda schema: schema.update(
            additionalProperties=False, required=["insight", "evidence", "predicate", "target"]
        )
    )


class InsightsPackedReply(InsightsReply):
    insights: list[InsightWithTriple] = Field(min_length=1, max_length=MAX_INSIGHTS)  # type: ignore[assignment]  # a subclass's field, narrowed

    def stored_triples(self, inputs: InsightsInputs) -> list[tuple[str, str, str] | None]:
        """Each insight's ``(persona, predicate, target)`` as stored, where its triple passes the
        checks ``thought_triples`` gives its own; None where not, or missing."""
        name = inputs.persona_name or "I"
        thoughts = [one_line(item.insight) for item in self.insights]
        return checked_triples(
            name,
            thoughts,
            [TripleFields(predicate=item.predicate, target=item.target) for item in self.insights],
            log=log,
            unusable="insights_packed: %s's insight(s) %s keep the single fail-safe triple (failed their checks, or missing)",
        )


INSIGHTS = Task("insights", InsightsInputs, InsightsReply, _fail_safe, trim=memories("statements"))


def _packed_fail_safe(inputs: InsightsInputs, choices: Choices) -> InsightsPackedReply:
    # The same thought, with the triple its sentence reads as.
    (insight,) = _fail_safe(inputs, choices).insights
    return InsightsPackedReply(
        insights=[
            InsightWithTriple(
                insight=insight.insight, evidence=insight.evidence, predicate="has had", target="a lot going on lately"
            )
        ]
    )


INSIGHTS_PACKED = Task(
    "insights_packed", InsightsInputs, InsightsPackedReply, _packed_fail_safe, trim=memories("statements")
)


def _inputs(persona_name: str, statements: list[str], n: int) -> tuple[InsightsInputs, Choices]:
    inputs = InsightsInputs(
        persona_name=persona_name, statements=numbered(statements), n=n, last_index=len(statements) - 1
    )
    return inputs, {NUMBERS_KEY: [str(i) for i in range(len(statements))]}


def insights(
    llm: LanguageModel, *, persona_name: str, statements: list[str], n: int = 5
) -> list[tuple[str, list[int]]]:
    """Up to ``n`` ``(insight, [statement indices])`` pairs; indices refer to ``statements`` (from 0)."""
    if not statements:
        return []
    inputs, choices = _inputs(persona_name, statements, n)
    reply = llm.ask(INSIGHTS, inputs, choices=choices, persona=persona_name)
    return [(one_line(item.insight), [int(i) for i in item.evidence]) for item in reply.insights[:n]]


def insights_packed(
    llm: LanguageModel, *, persona_name: str, statements: list[str], n: int = 5
) -> list[tuple[str, list[int], tuple[str, str, str] | None]]:
    """Packed mode: :func:`insights`' pairs, each with the insight's ``(persona_name, predicate,
    target)`` where the reply gave a valid one (None: the single fail-safe's, asked no more)."""
    if not statements:
        return []
    inputs, choices = _inputs(persona_name, statements, n)
    reply = llm.ask(INSIGHTS_PACKED, inputs, choices=choices, persona=persona_name)
    return [
        (one_line(item.insight), [int(i) for i in item.evidence], triple)
        for item, triple in zip(reply.insights[:n], reply.stored_triples(inputs))
    ]
