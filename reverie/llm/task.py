"""What a prompt is to the code: typed inputs, a typed reply, a fail-safe, dynamic choices.

A :class:`Task` binds ``prompts/<name>.toml`` (the wording, edited by prompt engineers)
to the typed values the code exchanges with it: ``inputs``, a model with one field per
``{variable}`` of the prompt, and ``schema``, the reply the code expects. The structured
chain does the rest: it renders the prompt, constrains the reply with the schema's
grammar, validates it, feeds the errors back to the model, and falls back to
``fail_safe`` when attempts run out.

The chain renders and trims a plain dict of inputs (see reverie.llm.prompt_size);
:meth:`Task.typed` turns that dict into the inputs model for the validators and the
fail-safe. Validators read it through pydantic's ``ValidationInfo.context``:
``{"inputs": <inputs model>, "choices": {...}}`` (see :meth:`Task.context`).

Dynamic choices: a string field (or list-of-strings field) declared with
``choice_field("sectors")`` must take one of the values passed at call time as
``ask(..., choices={"sectors": [...]})``. The chain puts them into the JSON schema as an
``enum`` (so the grammar enforces them) and checks them after parsing, with a correction
message that lists the allowed values.

Counts at call time: a list field marked ``json_schema_extra={ITEMS_KEY: "hours"}`` (made by
``items_field("hours", ...)``) gets
exactly as many items as ``choices["hours"]`` has values (``minItems`` = ``maxItems`` in the
schema, so the grammar writes that many; without the key the field keeps its own bounds).
A list field marked ``json_schema_extra={MOST_ITEMS_KEY: "slots"}`` gets at most as many items
as ``choices["slots"]`` has values (``maxItems``, never above the field's own bound): a small
model fills a list to its bound, so the bound follows what the call needs (a block's
10-minute slots).

Choices that hang together: an object marked ``json_schema_extra=choice_paths("places",
("sector", "arena", "object"))`` gets a grammar of the paths in ``choices["places"]`` (each
one :func:`path_choice`), so no reply can pair an arena with an area it is not in. Each field
keeps its own flat choices for the checks; the format line says "as listed" instead of
writing every name out (the prompt lists them as paths).

Tasks are plain values: whoever builds the chain hands it a :class:`TaskRegistry`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from reverie.errors import UserError
from reverie.llm.prompt_size import Drop, Trim
from reverie.llm.prompt_spec import PromptSpec

Choices = dict[str, list[str]]

CHOICES_KEY = "x-choices"
ITEMS_KEY = "x-items"
MOST_ITEMS_KEY = "x-most-items"
PATHS_KEY = "x-choice-paths"


def choice_paths(key: str, fields: tuple[str, ...]) -> dict[str, Any]:
    """An object's ``json_schema_extra``: its ``fields``, in order, take one of the paths of
    values given at call time under ``choices[key]`` (see :func:`path_choice`)."""
    return {PATHS_KEY: {"key": key, "fields": list(fields)}}


def path_choice(*values: str) -> str:
    """One path of values as a choice string (``choices["places"]`` holds these)."""
    return json.dumps(list(values), ensure_ascii=False)


def read_path(choice: str) -> list[str]:
    """The values of a :func:`path_choice` string."""
    return [str(v) for v in json.loads(choice)]


def choice_field(choices_key: str, *, max_length: int = 120, description: str = "", **kwargs: Any) -> Any:
    """A string field whose allowed values are passed at call time under ``choices_key``."""
    return Field(
        max_length=max_length,
        description=description,
        json_schema_extra={CHOICES_KEY: choices_key},
        **kwargs,
    )


def items_field(items_key: str, max_length: int, description: str, *, min_length: int | None = None) -> Any:
    """A list field that gets exactly as many items as ``choices[items_key]`` has values (at most
    ``max_length``: the grammar's bound when the call passes none)."""
    return Field(
        min_length=min_length,
        max_length=max_length,
        description=description,
        json_schema_extra={ITEMS_KEY: items_key},
    )


class TaskInputs(BaseModel):
    """Base of every inputs model: one typed field per ``{variable}`` of the prompt file."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class NotShown:
    """Field metadata: an input the validators read that the prompt does not show
    (``place_tree: Annotated[PlaceTree, NotShown()]``)."""


def prompt_fields(inputs: type[BaseModel]) -> list[str]:
    """The inputs model's fields the prompt file must list, in declaration order."""
    return [
        name
        for name, info in inputs.model_fields.items()
        if not any(isinstance(meta, NotShown) for meta in info.metadata)
    ]


class InputsMismatch(RuntimeError):
    """A unit called its prompt with inputs its inputs model does not accept (a bug in the unit)."""


InputsT = TypeVar("InputsT", bound=BaseModel)
ReplyT = TypeVar("ReplyT", bound=BaseModel)


def given_values(inputs: BaseModel) -> dict[str, Any]:
    """An inputs model as the chain renders and records it (the call trace's ``inputs``): the
    values of the fields the code gave, in declaration order (fields left to their default are left out)."""
    return {name: getattr(inputs, name) for name in type(inputs).model_fields if name in inputs.model_fields_set}


@dataclass(frozen=True)
class Task(Generic[InputsT, ReplyT]):
    """One prompt's contract. ``name`` is the file ``prompts/<name>.toml``.

    Generic in its inputs and its reply (like LangChain's ``PydanticOutputParser[T]``):
    ``llm.ask(TASK, TASK.inputs(...))`` is typed as the task's reply model."""

    name: str
    # One typed field per prompt input (plus any marked NotShown).
    inputs: type[InputsT]
    # The reply.
    schema: type[ReplyT]
    # (typed inputs, choices) -> a valid schema instance that keeps the simulation sensible.
    fail_safe: Callable[[InputsT, Choices], ReplyT]
    # Inputs that grow with the run, cut from their least relevant end when the prompt
    # would not fit the context window (see reverie.llm.prompt_size).
    trim: tuple[Trim, ...] = ()

    def asked_as(self, name: str) -> Task[InputsT, ReplyT]:
        """The same contract (inputs, reply, fail-safe, trims) asked through the prompt file ``name``."""
        return replace(self, name=name)

    def typed(self, inputs: Mapping[str, Any] | InputsT) -> InputsT:
        """The call's inputs as the inputs model (``InputsMismatch`` when they do not fit it)."""
        if isinstance(inputs, self.inputs):
            return inputs
        try:
            return self.inputs.model_validate(dict(inputs))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'inputs'}: {e['msg']}" for e in exc.errors())
            raise InputsMismatch(
                f"prompt {self.name!r}: inputs do not fit {self.inputs.__name__} ({problems})"
            ) from None

    def completed(self, inputs: Mapping[str, Any]) -> dict[str, Any]:
        """``inputs`` as the inputs model makes them: the prompt inputs it derives itself (a field
        its validator fills from the others) added when the caller left them out, and those its
        validator tidies (relationship_summary's statements) tidied, so that a captured case is
        asked as a run asks it."""
        given = dict(inputs)
        try:
            values = given_values(self.inputs.model_validate(given))
        except ValidationError:
            return given
        return {**given, **{name: values[name] for name in prompt_fields(self.inputs) if name in values}}

    def context(self, inputs: Mapping[str, Any] | InputsT, choices: Choices | None = None) -> dict[str, Any]:
        """The validation context of one call: the typed inputs and the choices."""
        return {"inputs": self.typed(inputs), "choices": dict(choices or {})}

    def validate(self, data: Any, inputs: Mapping[str, Any] | InputsT, choices: Choices | None = None) -> ReplyT:
        """``data`` (a parsed reply) as the reply model, checked against this call's inputs."""
        return self.schema.model_validate(data, context=self.context(inputs, choices))

    def check_prompt(self, spec: PromptSpec) -> None:
        """The prompt file's ``inputs`` must be the inputs model's fields: else a one-line error."""
        declared, fields = set(spec.inputs), set(prompt_fields(self.inputs))
        if declared == fields:
            return
        parts = []
        if declared - fields:
            parts.append(
                f"listed in the file but not in {self.inputs.__name__}: {', '.join(sorted(declared - fields))}"
            )
        if fields - declared:
            parts.append(
                f"in {self.inputs.__name__} but not listed in the file: {', '.join(sorted(fields - declared))}"
            )
        raise UserError(f"{spec.path}: inputs differ from task '{self.name}' — {'; '.join(parts)}")


AnyTask = Task[Any, Any]


class TaskRegistry(Mapping[str, AnyTask]):
    """The tasks a chain can run, by name (sorted)."""

    def __init__(self, tasks: Iterable[AnyTask] = ()):
        found: dict[str, AnyTask] = {}
        for task in tasks:
            if task.name in found and found[task.name] is not task:
                raise ValueError(f"two tasks are named {task.name!r}")
            found[task.name] = task
        self._tasks = dict(sorted(found.items()))

    def __getitem__(self, name: str) -> AnyTask:
        try:
            return self._tasks[name]
        except KeyError:
            raise KeyError(f"no task named {name!r}; known: {', '.join(self._tasks)}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._tasks)

    def __len__(self) -> int:
        return len(self._tasks)

    def with_(self, *tasks: AnyTask) -> TaskRegistry:
        """These tasks and ``tasks`` (a name already here is an error)."""
        return TaskRegistry([*self._tasks.values(), *tasks])

    def check_prompts(self, spec_of: Callable[[str], PromptSpec]) -> None:
        """Every task's prompt file lists exactly its inputs (the first mismatch is a UserError)."""
        for name, task in self._tasks.items():
            task.check_prompt(spec_of(name))


def memories(*names: str) -> tuple[Trim, ...]:
    """Ranked inputs (most relevant first): the last lines go first."""
    return tuple(Trim(name, Drop.LAST) for name in names)


def transcript_of(*names: str) -> tuple[Trim, ...]:
    """Chronological inputs (oldest line first): the oldest lines go first."""
    return tuple(Trim(name, Drop.FIRST) for name in names)
