"""Evaluation: judge an interview answer to a yes/no question (prompt interview_judge).

``evaluate`` asks each persona "Did you know ...?" about a seeded fact and "Do you know of
<name>?" about every other resident (an open question, "Do you know who ...?", is scored by
the name its answer gives, not here); this unit reads the answer and says yes or no, quoting
the words of the answer that decide it. A quote that begins with the answer's own words and
then runs on (a small model copies the start and goes on repeating or paraphrasing) is cut
by code where it leaves the answer; a paraphrase keeps the longest run of at least four
words it copied; a quote with neither goes back to the model. When the model cannot judge, the answer counts as "no": a fact is only counted as
known on the evidence of an answer.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, ValidationInfo, field_validator

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs
from reverie.tasks.common import Reply, inputs_of, one_line

_WORD = re.compile(r"[^\W_]+")
MIN_QUOTED_WORDS = 3  # a quote cut shorter than this says too little to decide anything
MIN_INNER_WORDS = 4  # the same for a run copied from inside a paraphrase


def _norm(text: str) -> str:
    return " ".join("".join(c.lower() if c.isalnum() else " " for c in text).split())


def quoted_part(evidence: str, answer: str) -> str | None:
    """The words of ``evidence`` that are in ``answer`` word for word (case and punctuation
    aside): all of it when it is all there; else its first words when there are at least
    ``MIN_QUOTED_WORDS`` of them; else its longest run of at least ``MIN_INNER_WORDS`` words that
    the answer holds (a paraphrase keeps the part it copied: "I have not met anyone by that name"
    of "I don't think I have met anyone by that name" keeps "met anyone by that name"); else None."""
    words = list(_WORD.finditer(evidence))
    target = f" {_norm(answer)} "

    def held(first: int, last: int) -> bool:
        return f" {_norm(' '.join(w.group() for w in words[first:last]))} " in target

    kept = 0
    while kept < len(words) and held(0, kept + 1):
        kept += 1
    if kept == len(words):
        return evidence
    if kept >= MIN_QUOTED_WORDS:
        return evidence[: words[kept - 1].end()]
    best = (0, 0)
    for first in range(1, len(words)):
        last = first
        while last < len(words) and held(first, last + 1):
            last += 1
        if last - first > best[1] - best[0]:
            best = (first, last)
    first, last = best
    if last - first < MIN_INNER_WORDS:
        return None
    return evidence[words[first].start() : words[last - 1].end()]


class JudgeInputs(TaskInputs):
    persona_name: str
    question: str
    answer: str


class JudgeReply(Reply):
    evidence: str = Field(max_length=150, description="a few words copied from the answer that decide the verdict")
    verdict: Literal["yes", "no"] = Field(description="yes: the answer shows the persona knows it")

    @field_validator("evidence")
    @classmethod
    def _evidence(cls, value: str, info: ValidationInfo) -> str:
        value = one_line(value)
        inputs = inputs_of(info, JudgeInputs)
        if inputs is None:
            return value
        if not _norm(value):
            raise ValueError("quote the words of the answer that decide it")
        quoted = quoted_part(value, inputs.answer)
        if quoted is None:
            raise ValueError("the evidence must be copied word for word from the answer")
        return quoted


def _fail_safe(inputs: JudgeInputs, choices: Choices) -> JudgeReply:
    return JudgeReply(evidence=one_line(inputs.answer)[:150] or "-", verdict="no")


INTERVIEW_JUDGE = Task("interview_judge", JudgeInputs, JudgeReply, _fail_safe)


def judge_answer(llm: LanguageModel, *, persona_name: str, question: str, answer: str) -> JudgeReply:
    """yes/no with the quoted evidence: does ``answer`` show that the persona knows it?"""
    inputs = JudgeInputs(persona_name=persona_name, question=question, answer=answer)
    return llm.ask(INTERVIEW_JUDGE, inputs, persona=persona_name)
