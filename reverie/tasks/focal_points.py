"""The questions a reflection starts from (prompt focal_points).

Given the persona's recent memories, the model asks up to ``n`` high-level questions that
those memories can answer. Each question then drives a retrieval and an ``insights`` call.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, ValidationInfo, field_validator

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs, memories
from reverie.tasks.common import Reply, bulleted, check_text, inputs_of, unlist, words_only

MAX_QUESTIONS = 5


class FocalPointsInputs(TaskInputs):
    persona_name: str
    statements: str
    n: int


class FocalPointsReply(Reply):
    questions: list[Annotated[str, Field(max_length=200, json_schema_extra=words_only(200, 3, min_words=3))]] = Field(
        min_length=1, max_length=MAX_QUESTIONS, description="high-level questions the memories can answer"
    )

    @field_validator("questions")
    @classmethod
    def _questions(cls, questions: list[str], info: ValidationInfo) -> list[str]:
        cleaned: list[str] = []
        for i, question in enumerate(questions, 1):
            question = check_text(question, f"question {i}", min_words=3)
            if question.lower() not in (q.lower() for q in cleaned):  # repeats are dropped, not sent back
                cleaned.append(question)
        inputs = inputs_of(info, FocalPointsInputs)
        n = (inputs.n if inputs else 0) or MAX_QUESTIONS
        return cleaned[:n]  # extra questions are dropped


def _fail_safe(inputs: FocalPointsInputs, choices: Choices) -> FocalPointsReply:
    # The memories themselves make fine retrieval queries.
    n = inputs.n or 3
    picked: list[str] = []
    for statement in unlist(inputs.statements):
        statement = statement[:200].strip()
        if len(statement.split()) >= 3 and statement.lower() not in (p.lower() for p in picked):
            picked.append(statement)
        if len(picked) == n:
            break
    if not picked:
        picked = [f"What matters most to {inputs.persona_name or 'me'} right now?"]
    return FocalPointsReply(questions=picked)


FOCAL_POINTS = Task("focal_points", FocalPointsInputs, FocalPointsReply, _fail_safe, trim=memories("statements"))


def focal_points(llm: LanguageModel, *, persona_name: str, statements: list[str], n: int = 3) -> list[str]:
    """Up to ``n`` questions about the persona's recent memories (``statements``)."""
    inputs = FocalPointsInputs(persona_name=persona_name, statements=bulleted(statements), n=n)
    return list(llm.ask(FOCAL_POINTS, inputs, persona=persona_name).questions[:n])
