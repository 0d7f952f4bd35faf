"""One call's output parser: a model's reply -> the task's Pydantic object, or the correction.

:class:`ReplyParser` is a LangChain output parser. It strips reasoning, finds the JSON
object, cleans its text, maps choice values written in another case or spacing onto the
allowed ones, checks the choices and validates the object against the task's schema (with
``{"inputs", "choices"}`` as pydantic's validation context). A reply that fails raises
:class:`ReplyProblems`, an ``OutputParserException`` whose ``observation`` is the
correction message the model gets next, with ``send_to_llm=True``.

Choices are checked here only: a choice field's wrong value is reported once, in the
words of :func:`reverie.llm.corrections.not_a_choice`, even when the schema's own
validators object to the same field.

A reply cut off at ``max_tokens`` is closed where it stopped (the unfinished last word of a
cut text dropped, open strings, lists and objects closed, as LangChain's
``parse_partial_json`` does) and kept when that object passes every check: the model's
words, a little shorter. Otherwise it is sent back as cut off: asking again the same way
gives the same cut.

A reply nested deeper than :data:`MAX_NESTING` is refused by a one-pass count before any
recursive parser reads it, so the refusal keeps no deep structure and never takes the stack
near the recursion limit (where a garbage collection would run other objects' finalisers).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from langchain_core.exceptions import OutputParserException
from langchain_core.messages import AIMessage
from langchain_core.output_parsers import BaseOutputParser
from langchain_core.outputs import ChatGeneration, Generation
from langchain_core.utils.json import parse_partial_json
from pydantic import BaseModel, ValidationError

from reverie.llm.corrections import WHOLE, Problem, correction_message, from_validation_error, not_json
from reverie.llm.reasoning import without_reasoning
from reverie.llm.safe_text import clean
from reverie.llm.schema import canonical_choices, choice_problems

log = logging.getLogger("reverie.llm")

# Anything a schema's validator may raise on odd data: a correction for the model, never a crash.
_UNREADABLE = (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError, RecursionError)
UNREADABLE = Problem(
    WHOLE,
    "this reply could not be read as the object described; "
    "answer with one JSON object with exactly the fields asked for",
)


# No task's reply nests deeper than a few levels. A deeper reply is refused before any
# recursive parser sees it: json's decoder recurses once per level, and a garbage collection
# that happens near the recursion limit runs other objects' finalisers there, where they fail.
MAX_NESTING = 32
TOO_DEEP = "the JSON is nested too deeply; answer with one flat object"


# A closed JSON string; what is left of a text without them, a bracket or a quote.
_CLOSED_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")


def _scan(text: str, limit: int | None = None) -> tuple[int, bool]:
    """How deep ``[`` and ``{`` nest in JSON ``text`` outside its strings, and whether it stops
    inside a string (no recursion; strings and other text are dropped by regular expressions,
    then the brackets counted). With ``limit``, the count stops as soon as the depth passes it."""
    rest = _CLOSED_STRING.sub("", text)
    # A quote left opens a string that runs to the end: every quote after it is escaped.
    opened = rest.find('"')
    if opened != -1:
        rest = rest[:opened]
    depth = deepest = 0
    for char in _NOT_A_BRACKET.sub("", rest):
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if limit is not None and deepest > limit:
                    break
        elif depth:
            depth -= 1
    return deepest, opened != -1


def nesting_depth(text: str, limit: int | None = None) -> int:
    """How deep ``[`` and ``{`` nest in ``text``, outside JSON strings (with ``limit``: the
    exact depth up to it, and some depth past it once it is passed)."""
    return _scan(text, limit)[0]


def extract_json(text: str) -> str:
    """The JSON object in a reply (tolerates code fences and text around it)."""
    text = text.strip()
    if text.startswith("```"):
        text = text.strip("`").removeprefix("json").strip()
    start, end = text.find("{"), text.rfind("}")
    candidate = text[start : end + 1] if start != -1 and end > start else text
    if nesting_depth(candidate, MAX_NESTING) > MAX_NESTING:
        raise ValueError(TOO_DEEP)
    json.loads(candidate, strict=False)  # raises ValueError with the position of the problem
    return candidate


class ReplyProblems(OutputParserException):
    """A reply that is not the object asked for; ``problems`` are what the correction lists."""

    def __init__(self, problems: list[Problem], reply: str):
        self.problems = list(problems)
        message = correction_message(self.problems)
        super().__init__(
            " | ".join(str(p) for p in self.problems), observation=message, llm_output=reply, send_to_llm=True
        )


class ReplyParser(BaseOutputParser[BaseModel]):
    """``parser.invoke(ai_message) -> the task's schema instance`` (raises :class:`ReplyProblems`).

    ``schema`` is the call's JSON schema (choices as enums, see :func:`reverie.llm.schema.call_schema`);
    ``inputs`` are the inputs the prompt showed (after any cut to the context window)."""

    reply_model: Any  # type[BaseModel]: the task's schema class
    call_schema: dict
    inputs: dict = {}  # noqa: RUF012 -- a pydantic field: each parser gets its own copy
    choices: dict = {}  # noqa: RUF012 -- a pydantic field: each parser gets its own copy
    task_name: str = ""
    task: Any = None  # the Task, when known: its inputs model types the inputs in the validation context

    @property
    def _type(self) -> str:
        return "reverie_reply"

    def parse(self, text: str) -> BaseModel:
        return self.parse_result([Generation(text=text)])

    def parse_result(self, result: list[Generation], *, partial: bool = False) -> BaseModel:
        generation = result[0]
        message = generation.message if isinstance(generation, ChatGeneration) else AIMessage(content=generation.text)
        outcome, problems = self.check(message)
        if problems:
            raise ReplyProblems(
                problems, message.content if isinstance(message.content, str) else json.dumps(message.content)
            )
        return outcome

    def check(self, reply: AIMessage) -> tuple[BaseModel | None, list[Problem]]:
        """The object, or None and the problems a correction would list."""
        content = reply.content if isinstance(reply.content, str) else json.dumps(reply.content)
        try:
            # strict=False: the grammar lets raw newlines into strings; they are harmless text here.
            data = clean(json.loads(extract_json(without_reasoning(content)), strict=False))
        except ValueError as exc:
            cut_off = (reply.response_metadata or {}).get("finish_reason") == "length"
            closed = closed_where_cut(without_reasoning(content)) if cut_off else None
            if closed is not None:
                outcome, problems = self._validated(closed)
                if not problems:
                    log.info(
                        "prompt %s: a reply cut off at max_tokens was kept, closed where it stopped", self.task_name
                    )
                    return outcome, []
            return None, [not_json(str(exc), cut_off)]
        return self._validated(data)

    def _validated(self, data) -> tuple[BaseModel | None, list[Problem]]:
        context = {"inputs": self.inputs, "choices": self.choices}
        try:
            data = canonical_choices(self.call_schema, data, self.choices)
            choice_errors = choice_problems(self.call_schema, data, self.choices)
            result = (
                self.task.validate(data, self.inputs, self.choices)
                if self.task is not None
                else self.reply_model.model_validate(data, context=context)
            )
        except ValidationError as exc:
            return None, _merged(from_validation_error(exc), choice_errors)
        except _UNREADABLE as exc:
            log.warning("prompt %s: reply could not be checked (%s: %s)", self.task_name, type(exc).__name__, exc)
            return None, [UNREADABLE]
        return (None if choice_errors else result), choice_errors


def closed_where_cut(content: str) -> dict | None:
    """The JSON object a reply cut off at ``max_tokens`` was writing, closed there (None: nothing
    to close). A text cut inside a word loses that word ("... and they wa" -> "... and they")."""
    start = content.find("{")
    if start == -1:
        return None
    text = content[start:].rstrip()
    if nesting_depth(text, MAX_NESTING) > MAX_NESTING:
        return None
    if text[-1:].isalnum() and _inside_a_string(text):
        text = re.sub(r"\s+[^\s\"]*$", "", text)
    try:
        data = parse_partial_json(text, strict=False)
    except ValueError:
        return None
    return clean(data) if isinstance(data, dict) else None


def _inside_a_string(text: str) -> bool:
    """Whether JSON ``text`` stops inside a string."""
    return _scan(text)[1]


def _merged(schema_errors: list[Problem], choice_errors: list[Problem]) -> list[Problem]:
    """Each field's problem once: a choice field's is the choice check's."""
    chosen = {p.path for p in choice_errors}
    return [p for p in schema_errors if p.path not in chosen] + choice_errors
