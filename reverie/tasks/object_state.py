"""The state of the object a persona uses, e.g. "being used to brew coffee" (prompt act_obj_desc).

The state becomes the object's event description on the map. The fail-safe is
"being used by <first name>", so a failed call still leaves a true, readable state
(docs/FIDELITY.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Annotated

from pydantic import Field

from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, Task, TaskInputs
from reverie.tasks.common import Checked, Reply, check_text, first_name, one_line

MAX_WORDS = 10
# "M", "Ai": a state cut to a letter or two by a small model (an "on" is lost, "being used" kept).
MIN_CHARACTERS = 3
# "The Rose and Crown Pub": a name or a thing, where a state ("being used", "open") belongs.
_NOT_A_STATE = {"the", "a", "an", "this", "that", "these", "those"}


class ObjectStateInputs(TaskInputs):
    object: str
    name: str
    action: str


def check_state(value: str, obj: str, places: Iterable[str] = ()) -> str:
    """The state without a leading "<object> is"; a correction when it is not a short phrase, or when
    it is only a letter or two, or names one of ``places`` (an area or place the persona knows) or
    the object itself instead of saying what happens to it."""
    obj = obj.strip()
    value = one_line(value).rstrip(".")
    if obj:
        value = re.sub(rf"^(the\s+)?{re.escape(obj)}\s+", "", value, flags=re.IGNORECASE)
    value = re.sub(r"^is\s+", "", value, flags=re.IGNORECASE)
    value = check_text(value, "the state")
    if value.split()[0].lower() in _NOT_A_STATE:
        raise ValueError(
            f"{value!r} is a thing, not what happens to the {obj or 'object'}; "
            'write something like "being used to brew coffee"'
        )
    if len(value) < MIN_CHARACTERS:
        raise ValueError(f'the state {value!r} is not a phrase; write something like "being used to brew coffee"')
    named = next((place for place in (*places, obj) if place and _starts_with(value, place)), None)
    if named is not None:
        raise ValueError(
            f"the state names {named!r}; say what happens to the {obj or 'object'} instead, "
            'like "being used to brew coffee"'
        )
    words = len(value.split())
    if words > MAX_WORDS:
        raise ValueError(f'the state has {words} words; use at most {MAX_WORDS}, like "being used to brew coffee"')
    return value


def _starts_with(value: str, name: str) -> bool:
    """Does ``value`` begin with ``name`` as whole words (case ignored)?"""
    return re.match(rf"{re.escape(name.strip())}(?!\w)", value, flags=re.IGNORECASE) is not None


def _state_of_the_object(value: str, inputs: ObjectStateInputs | None) -> str:
    return check_state(value, inputs.object if inputs else "")


class ObjectStateReply(Reply):
    state: Annotated[str, Checked(ObjectStateInputs, _state_of_the_object)] = Field(
        max_length=80, description="what is happening to the object, e.g. 'being used to brew coffee'"
    )


def fail_safe(inputs: ObjectStateInputs, choices: Choices) -> ObjectStateReply:
    name = first_name(inputs.name) or "someone"
    return ObjectStateReply(state=f"being used by {name}"[:80])


ACT_OBJ_DESC = Task("act_obj_desc", ObjectStateInputs, ObjectStateReply, fail_safe)


def act_obj_desc(llm: LanguageModel, *, object_name: str, name: str, action_description: str) -> str:
    """What state ``object_name`` is in while ``name`` does the action ("being used to ...")."""
    inputs = ObjectStateInputs(object=object_name, name=name, action=one_line(action_description))
    return llm.ask(ACT_OBJ_DESC, inputs, persona=name).state
