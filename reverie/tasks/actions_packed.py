"""Where and how each subtask of a decomposed plan item happens, in one call (prompt actions_packed).

In packed mode every new action asks ``action_packed`` once; the subtasks of one decomposed
plan item ("having breakfast (making coffee)", "having breakfast (eating toast)", ...) ask it
with the same places, the same routine and the same main activity. This unit asks for all of
them at once (cognition asks when the first of them starts, docs/FIDELITY.md): the prompt
numbers the subtasks and the reply is a list ``actions`` with one ``action_packed`` answer
per subtask, in order. The call passes the subtasks as its
``subtasks`` choice, so the grammar writes exactly that many answers (``minItems`` =
``maxItems``), and the prompt's ``max_tokens_per_item`` scales the reply limit to the count.

Each answer is checked exactly as a single ``action_packed`` reply for that subtask (the
validators of :class:`~reverie.tasks.action_packed.PackedActionReply`, with that subtask's
inputs): the place must exist among the persona's known places, and the emoji, triple and
object state are said from the activity when they fail their checks. An answer whose place
is wrong is left out and that subtask is asked on its own when it starts; a reply with no
usable answer at all, or with the wrong number of answers (without a grammar), goes back to
the model with what is wrong (with a long list, the reply and its correction may not fit the
context window beside the prompt: then the fail-safe follows). The fail-safe is "no answers"
(logged): every subtask is then asked on its own when it starts.

At most :data:`MAX_ACTIONS` subtasks go in one call (the prompt and the reply must fit the
context window together); longer lists are split into even parts.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Annotated

from pydantic import ValidationInfo, model_validator

from reverie.action_text import main_action, subtask
from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, NotShown, Task, items_field
from reverie.tasks.action_packed import (
    ACTION_PACKED,
    PackedAction,
    PackedActionFields,
    PackedActionInputs,
    PackedActionReply,
    PlaceInputs,
    PlaceTree,
    Standpoint,
    allowed_places,
    as_action,
    place_choices,
)
from reverie.tasks.common import Reply, check_batch, each_checked, even_parts, inputs_of, numbered

log = logging.getLogger(__name__)

# The most subtasks one call answers: ~950 prompt tokens of places and rules, the list, and up to
# 6 x max_tokens_per_item reply tokens fit a 2048-token window.
MAX_ACTIONS = 6


class ActionsPackedInputs(PlaceInputs):
    subtasks: str  # numbered from 1, one per line
    count: int
    # The subtasks as a list: each answer is checked with its own.
    subtask_list: Annotated[list[str], NotShown()]

    def one(self, number: int) -> PackedActionInputs:
        """The inputs a single ``action_packed`` call would have for subtask ``number`` (from 1)."""
        return PackedActionInputs(**self.place_values(), subtask=self.subtask_list[number - 1])


class ActionsPackedReply(Reply):
    # The grammar asks for exactly one answer per subtask; the model validates an empty list,
    # which is the fail-safe's "no answers".
    actions: list[PackedActionFields] = items_field(
        "subtasks", MAX_ACTIONS, "one answer per numbered activity, in the order given"
    )

    @model_validator(mode="after")
    def _some_usable(self, info: ValidationInfo) -> ActionsPackedReply:
        inputs = inputs_of(info, ActionsPackedInputs)
        if self.actions and inputs is not None:
            asked = partial(checked, self.actions, inputs, (info.context or {}).get("choices"))
            check_batch(self.actions, inputs.count, asked, noun="answers", field="actions", each="activity")
        return self

    def answers(self, inputs: ActionsPackedInputs, choices: Choices | None) -> list[PackedActionReply | None]:
        """Each subtask's answer as action_packed's checks make it, in order (None: its place is
        wrong, ask it on its own); [] for the fail-safe."""
        return checked(self.actions, inputs, choices)[0]


def checked(
    actions: list[PackedActionFields], inputs: ActionsPackedInputs, choices: Choices | None
) -> tuple[list[PackedActionReply | None], str]:
    """Each answer checked as a single ``action_packed`` reply for its subtask, and what was
    wrong with those that failed (each problem once, with the answers that have it)."""
    return each_checked(ACTION_PACKED, actions, inputs.one, choices)


def fail_safe(inputs: ActionsPackedInputs, choices: Choices) -> ActionsPackedReply:
    """No answers: each subtask asks ``action_packed`` when it starts."""
    log.info(
        "actions_packed: no answers for %s's %d subtasks of %r; each is asked on its own",
        inputs.name,
        inputs.count,
        inputs.action,
    )
    return ActionsPackedReply(actions=[])


ACTIONS_PACKED = Task("actions_packed", ActionsPackedInputs, ActionsPackedReply, fail_safe)


def actions_packed(llm: LanguageModel, at: Standpoint, descriptions: list[str]) -> dict[str, PackedAction]:
    """``{description: what action_packed would give}`` for the descriptions the model answered
    validly; the others (a failed call: all of a call's) are left out.

    ``descriptions``: distinct ``"<task> (<subtask>)"`` texts, asked together by main task.
    With no known place allowed, nothing is asked (each action then takes the single call's path)."""
    tree = allowed_places(at.places, at.name)
    if not tree:
        return {}
    by_task: dict[str, list[str]] = {}
    for description in dict.fromkeys(descriptions):
        by_task.setdefault(main_action(description), []).append(description)
    found: dict[str, PackedAction] = {}
    for group in by_task.values():
        for part in even_parts(group, MAX_ACTIONS):
            found.update(_ask(llm, at, tree, part))
    return found


def _ask(llm: LanguageModel, at: Standpoint, tree: PlaceTree, descriptions: list[str]) -> dict[str, PackedAction]:
    activities = [subtask(d) for d in descriptions]
    inputs = ActionsPackedInputs(
        **at.inputs(tree, descriptions[0]),
        subtasks=numbered(activities, 1),
        count=len(activities),
        subtask_list=activities,
    )
    choices = {**place_choices(tree), "subtasks": activities}
    answers = llm.ask(ACTIONS_PACKED, inputs, choices=choices, persona=at.name).answers(inputs, choices)
    if None in answers:
        log.info(
            "actions_packed: %s's answers for %s left to their own call (a wrong place)",
            at.name,
            ", ".join(repr(a) for a, answer in zip(activities, answers) if answer is None),
        )
    return {
        description: as_action(answer, name=at.name, world=at.world)
        for description, answer in zip(descriptions, answers)
        if answer is not None
    }
