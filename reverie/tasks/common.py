"""What the prompt units share: the reply base model, its field types and the checks of a reply's text
(lists written into a prompt are :mod:`reverie.tasks.listing`'s, words of a text :mod:`reverie.tasks.words`').

Every unit's schema subclasses :class:`Reply` (strings stripped, unknown keys ignored,
``additionalProperties: false`` in the JSON schema so a grammar never lets extra keys in);
a one-sentence answer is a :func:`Text` field. Validators read the call's typed inputs with
:func:`inputs_of` and raise ``ValueError`` with a message a small model can act on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Annotated, Any, Literal, Protocol, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, ValidationInfo
from pydantic.json_schema import JsonDict

from reverie.llm.safe_text import LETTERS, has_a_letter
from reverie.llm.task import Choices, TaskInputs

# The helpers for lists and words live in their own modules; the prompt units read them from here too.
from reverie.tasks.listing import bulleted as bulleted
from reverie.tasks.listing import even_parts as even_parts
from reverie.tasks.listing import numbered as numbered
from reverie.tasks.listing import one_line as one_line
from reverie.tasks.listing import transcript as transcript
from reverie.tasks.listing import unlist as unlist
from reverie.tasks.listing import without_marker as without_marker
from reverie.tasks.words import content_words as content_words
from reverie.tasks.words import first_name as first_name
from reverie.tasks.words import mentions_second_person as mentions_second_person
from reverie.tasks.words import names as names

InputsT = TypeVar("InputsT", bound=TaskInputs)


class HasMinutes(Protocol):
    """A step of a timed list."""

    @property
    def minutes(self) -> int: ...


TimedT = TypeVar("TimedT", bound=HasMinutes)

# One to ten, as an enum so a JSON-schema grammar enforces the range.
SCALE_1_TO_10 = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)


def _scale_value(value: Any) -> Any:
    """Accept "7" and 7.0 for 7 (replies without a grammar); explain out-of-range numbers."""
    if isinstance(value, str) and re.fullmatch(r"\s*\d+(\.0+)?\s*", value):
        value = int(float(value))
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value not in SCALE_1_TO_10:
        raise ValueError(f"{value} is out of range; use a whole number from 1 to 10")
    return value


# A whole number from 1 to 10 (an enum in the JSON schema).
Scale = Annotated[Literal[SCALE_1_TO_10], BeforeValidator(_scale_value)]

_PLACEHOLDERS = {
    "...",
    "…",
    "n/a",
    "na",
    "none",
    "null",
    "tbd",
    "todo",
    "<fill in>",
    "fill in",
    "blank",
    "text",
    "string",
}


# Every reply's JSON schema: no field beyond those it names.
REPLY_SCHEMA_EXTRA: JsonDict = {"additionalProperties": False}


class Reply(BaseModel):
    """Base of every reply schema."""

    model_config = ConfigDict(
        str_strip_whitespace=True,
        extra="ignore",
        json_schema_extra=REPLY_SCHEMA_EXTRA,
    )


def inputs_of(info: ValidationInfo, model: type[InputsT]) -> InputsT | None:
    """The typed inputs of the call being validated (None when validated without them)."""
    found = (info.context or {}).get("inputs")
    if found is None:
        return None
    if not isinstance(found, model):
        raise TypeError(f"validation context inputs must be {model.__name__}, not {type(found).__name__}")
    return found


def first_error(exc: ValidationError) -> str:
    """The first error of a validation, as its validator worded it."""
    return exc.errors(include_url=False)[0]["msg"].removeprefix("Value error, ")


def Checked(model: type[InputsT], check: Callable[[Any, InputsT | None], Any]) -> AfterValidator:
    """Field metadata: ``check(value, <the call's typed inputs, or None>)`` after the field's own checks."""
    return AfterValidator(lambda value, info: check(value, inputs_of(info, model)))


_CLAUSE_END = re.compile(r"(?<=[.!?;,])\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def saying(text: str) -> str:
    """What a sentence or clause says, case and punctuation aside (the key repeats are found by)."""
    return " ".join(re.findall(r"(?:[^\W_]|')+", text.lower()))


def sentences(text: str) -> list[str]:
    """``text`` on one line, cut after each ".", "!" and "?"."""
    return [part for part in _SENTENCE_END.split(one_line(text)) if part]


def without_repeats(text: str, said: Iterable[str] = (), *, clauses: bool = True) -> str:
    """``text`` on one line with every clause (``clauses=False``: every sentence) already said in it,
    or among ``said`` (keys from :func:`saying`), dropped: a small model's loop ("This is a dream,
    Ken! This is a dream, Ken!") keeps its first saying. Text with no repeat comes back as
    :func:`one_line` gives it; text that is all repeats comes back empty."""
    parts = (_CLAUSE_END if clauses else _SENTENCE_END).split(one_line(text))
    kept, seen = [], set(said)
    for part in parts:
        key = saying(part)
        if key and key in seen:
            continue
        seen.add(key)
        kept.append(part)
    if len(kept) == len(parts):
        return one_line(text)
    return re.sub(r"[,;]$", ".", " ".join(kept))


def loop_cut(text: str) -> str:
    """``text`` cut after the first copy of a phrase a small model ran on repeating ("go to school
    to school to school" -> "go to school"): a phrase of three words or more written twice in a
    row, or of one or two words three times in a row; else ``text`` as it is ("very very good" stays)."""
    words = text.split()
    keys = [saying(word) for word in words]
    for end in range(1, len(words)):
        for size in range(1, end + 1):
            phrase = keys[end - size : end]
            copies = 2 if size >= 3 else 3
            if any(phrase) and all(keys[end + k * size : end + (k + 1) * size] == phrase for k in range(copies - 1)):
                return " ".join(words[:end]).rstrip(" ,;.")
    return text


# A small model echoing its format instructions instead of answering; stored, such a sentence
# became a conversation line, its summary, both memos and their triples. The format line's own
# bounds count too: "morning.Ben.I.am.morning (5) (at most 15 items)," was kept as five insights.
_ABOUT_THE_ANSWER = re.compile(r"\bjson\b|\((?:at most|exactly) \d+ (?:items|characters)\)", re.IGNORECASE)


def check_text(text: str, what: str = "the answer", *, min_words: int = 1) -> str:
    """Reject empty, placeholder or punctuation-only text, and text about the JSON answer; return it on one line."""
    text = one_line(text)
    if not text:
        raise ValueError(f"{what} is empty; write it out in words")
    if text.lower().strip(" .!?\"'") in _PLACEHOLDERS or text.lower() in _PLACEHOLDERS:
        raise ValueError(f"{what} is a placeholder ({text!r}); write real words")
    if not has_a_letter(text):  # a letter of any script the grammar writes (LETTERS)
        raise ValueError(f"{what} has no words ({text!r}); write it out in words")
    if _ABOUT_THE_ANSWER.search(text):  # "Here is the corrected JSON object with only 1 line corrected:"
        raise ValueError(
            f"{what} talks about the JSON answer or copies its format instead of being it; "
            "write only the words themselves"
        )
    words = word_count(text)
    if words < min_words:
        raise ValueError(
            f"{what} is too short ({words} word{'s' if words != 1 else ''}); write at least {min_words} words"
        )
    different = different_words(text)
    if len(different) < min_words:  # a small model's loop: "Theo Alvare,theo alvare,theo alvare,theo"
        raise ValueError(
            f"{what} repeats the same {len(different)} word{'s' if len(different) != 1 else ''} "
            f"({' '.join(different)}); write at least {min_words} different words"
        )
    return text


# The characters a phrase in words is written with: letters (Latin, accented ones included),
# digits, spaces and plain punctuation. As a JSON-schema ``pattern`` (:func:`words_only`) it keeps
# the grammar from writing what a small model runs into and never gets out of: a string of emoji
# (several tokens each, so a bounded field outgrows max_tokens: docs/SPEED.md), words
# joined by underscores ("The_The_The_..."), a line of braces and newlines, a timestamp for a
# sentence. The letters are those of the world's scripts (:data:`LETTERS`), so personas written
# in another language keep it. No double quote: the pattern's characters are written into the
# JSON string as they are.
WORD_CHARACTERS = f"{LETTERS}0-9 ,.'\u2019&()/:;!?%$+#\u3000-\u303f\uff01-\uff5e-"


# Scripts written without spaces between words (Thai, kana, CJK): each letter counts as a word.
_UNSPACED = "\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
_NO_SPACE = WORD_CHARACTERS.replace(" ", "")
LEADING_WORD = 24  # characters after a leading word's first, where a pattern asks for words


def word_count(text: str) -> int:
    """The words in ``text``: its space-separated words, and each letter of a script written
    without spaces ("パーティーを開きます" is 10)."""
    return len(re.findall(f"[^\\s{_UNSPACED}]+", text)) + len(re.findall(f"[{_UNSPACED}]", text))


def different_words(text: str) -> list[str]:
    """The different words of ``text`` in order, case aside: words split at anything but a letter,
    a digit or an apostrophe (so "alvare,theo" is two), each letter of a script written without
    spaces one word."""
    found = re.findall(f"(?:[^\\W_{_UNSPACED}]|')+|[{_UNSPACED}]", text.lower())
    return list(dict.fromkeys(word.strip("'") for word in found if word.strip("'")))


def words_only(max_length: int, min_length: int = 0, *, min_words: int = 1) -> JsonDict:
    """Schema extras for a phrase of at most ``max_length`` characters in words (:data:`WORD_CHARACTERS`),
    for the grammar only: the field's validators still say what is wrong with a reply made without
    one. With ``min_length``, the phrase starts with a letter (not a space, a digit or a brace).
    With ``min_words``, it starts with that many words (:func:`word_count`'s: separated by spaces,
    each of at most :data:`LEADING_WORD` characters, or as many letters of a script written
    without spaces), so a one-word answer ("morning") cannot be written."""
    if not min_length and min_words <= 1:
        return {"pattern": f"^[{WORD_CHARACTERS}]{{0,{max_length}}}$"}
    if min_words <= 1:
        return {"pattern": f"^[{LETTERS}][{WORD_CHARACTERS}]{{{min_length - 1},{max_length - 1}}}$"}
    rest = max_length - (1 + LEADING_WORD + (min_words - 1) * (1 + LEADING_WORD))
    if rest < 0:
        raise ValueError(f"{min_words} words of up to {LEADING_WORD + 1} characters do not fit in {max_length}")
    word = f"[{_NO_SPACE}]"
    spaced = (
        f"[{LETTERS}]{word}{{0,{LEADING_WORD}}}( {word}{{1,{LEADING_WORD}}}){{{min_words - 1}}}"
        f"[{WORD_CHARACTERS}]{{0,{rest}}}"
    )
    unspaced = f"[{_UNSPACED}]{{{min_words}}}[{WORD_CHARACTERS}]{{0,{max_length - min_words}}}"
    return {"pattern": f"^({spaced}|{unspaced})$"}


def Text(what: str, max_length: int, *, min_words: int = 1, once: bool = False) -> Any:
    """A one-line answer in words: at most ``max_length`` characters and ``min_words`` words,
    no placeholder; corrections call it ``what`` ("the note"). ``once``: a phrase repeated word
    for word is kept once (:func:`without_repeats`), and a run of words the model looped on is cut
    after its first copy (:func:`loop_cut`), before the checks."""
    tidy = (lambda value: loop_cut(without_repeats(value))) if once else (lambda value: value)
    return Annotated[
        str,
        Field(max_length=max_length, json_schema_extra=words_only(max_length, 1, min_words=min_words)),
        AfterValidator(lambda value: check_text(tidy(value), what, min_words=min_words)),
    ]


def timed_step(kind: str, number: int, text: str, minutes: int, *, like: int) -> str:
    """Step ``number`` of a timed list ("subtask 2"): its text in words without a list number,
    and minutes above zero."""
    text = check_text(without_marker(text), f"{kind} {number}")
    if minutes <= 0:
        raise ValueError(
            f'{kind} {number} "{text}" lasts {minutes} minutes; '
            f"give every {kind} a rough positive number of minutes, like {like}"
        )
    return text


def timed(steps: list[TimedT]) -> list[TimedT]:
    """``steps`` (each with ``minutes``) without those of no minutes while one with minutes stands:
    they would take no time once the minutes are scaled. All of them without: kept, for
    :func:`timed_step` to send back."""
    kept = [step for step in steps if step.minutes > 0]
    return kept or steps


def each_checked(
    task: Any,
    items: Sequence[BaseModel],
    one: Callable[[int], Any],
    choices: Choices | None = None,
    noun: str = "answer",
) -> tuple[list[Any | None], str]:
    """Each item of a list reply checked as a reply of the single ``task`` (a ``Task``), with the
    inputs ``one(number)`` gives for item ``number`` (from 1); None for an item that fails, and what
    was wrong with those (each problem once, with the numbers of the items that have it)."""
    answers: list[Any | None] = []
    problems: dict[str, list[int]] = {}
    for number, item in enumerate(items, 1):
        try:
            answers.append(task.validate(item.model_dump(), one(number), choices))
        except ValidationError as exc:
            answers.append(None)
            problems.setdefault(first_error(exc), []).append(number)
    said = "; ".join(
        f"{noun}{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}: {problem}"
        for problem, numbers in problems.items()
    )
    return answers, said


def check_batch(
    items: Sequence[BaseModel],
    count: int,
    checked: Callable[[], tuple[Sequence[object], str]],
    *,
    noun: str,
    field: str,
    each: str,
) -> None:
    """A batched reply's own checks, whose errors go back to the model: exactly one item for each
    of the ``count`` numbered ones asked, and at least one that passes the single prompt's checks
    (``checked``: each item's answer or None, and what was wrong with those)."""
    if len(items) != count:
        raise ValueError(
            f'give exactly {count} {noun} in "{field}", one for each numbered {each} in order; you gave {len(items)}'
        )
    answers, problems = checked()
    if not any(answers):
        raise ValueError(problems)
