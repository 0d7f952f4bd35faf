"""The whole new-action pipeline in one call (prompt action_packed), for ``packed_actions``.

The faithful mode asks up to eight prompts per new action: sector, arena, object, the
action's emoji and event triple, the object's state, its triple and its emoji. The packed
mode asks for all of them but the object's triple in one JSON object; that triple is read
from the object's state by code ("<object> is <state>", :func:`object_event`), as the
single prompt's fail-safe reads it (docs/FIDELITY.md). Sector, arena and object are
``choice_field``s, and together one of the known paths (``choice_paths``): a grammar writes
only an area, a place in that area and an object in that place, the hierarchy the faithful
mode asks in three calls, and the format line need not write every name out. Without a
grammar, a validator checks that the arena lies in the chosen sector and the object in the
chosen arena. The place is the
reply's decision and a wrong one is sent back. The other fields restate the activity and
get the same checks as their single-prompt units (emoji only, short predicates, a real
object state), but one that fails them is not sent back: the code says it from the
activity, as the fail-safe would (a small model copies a place name into all of them, and
would otherwise lose a good place with them). :func:`packed_action` returns what the
faithful pipeline returns: the address and the five details of ``add_new_action``.

The place tree ``{sector: {arena: [objects]}}`` travels in the inputs as ``place_tree``
(not shown to the model as such; ``places`` is its text form) so validators and the
fail-safe can read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, cast

from pydantic import ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from reverie.action_text import main_action, subtask
from reverie.address import RANDOM as NO_OBJECT
from reverie.llm.language_model import LanguageModel
from reverie.llm.task import Choices, NotShown, Task, TaskInputs, choice_field, choice_paths, path_choice
from reverie.tasks.action_location import HOUSE_MARKER, ROOM_MARKER, pick_arena, pick_object, pick_sector
from reverie.tasks.common import REPLY_SCHEMA_EXTRA, Reply, first_error, first_name, inputs_of, one_line, words_only
from reverie.tasks.event_triple import TripleInputs, TripleReply, event_triple, split_statement
from reverie.tasks.object_state import check_state
from reverie.tasks.options import keep_own_private, unique
from reverie.tasks.pronunciatio import PronunciatioReply, emoji_for, pronunciatio

PlaceTree = dict[str, dict[str, list[str]]]
PLACES = "places"  # the choices key of the (area, place, object) paths
# Two characters: two emoji, or one with its variation selector ("☕️"). A small model fills a
# field to its bound, and four repeated emoji cost ten reply tokens more than one.
EMOJI_MAX = 2


class PlaceInputs(TaskInputs):
    """What the persona knows and where it is: the inputs every action's place is chosen from."""

    name: str
    places: str
    living_sector: str
    current_sector: str
    daily_plan_req: str
    action: str
    # {sector: {arena: [objects]}}: ``places`` as data, for the checks and the fail-safe.
    place_tree: Annotated[PlaceTree, NotShown()]

    def place_values(self) -> dict[str, Any]:
        """These inputs as keywords, for another inputs model built on them."""
        return {key: getattr(self, key) for key in PlaceInputs.model_fields}


class PackedActionInputs(PlaceInputs):
    subtask: str

    def activity(self) -> str:
        return self.subtask or self.action


def _emoji(value: str) -> str:
    try:
        return PronunciatioReply.model_validate({"emoji": value}).emoji
    except ValidationError as exc:
        raise ValueError(first_error(exc)) from None


def _triple(subject: str, predicate: str, target: str) -> tuple[str, str]:
    """The single-prompt triple checks, with the field names of this reply in the message."""
    try:
        reply = TripleReply.model_validate(
            {"predicate": predicate, "target": target},
            context={"inputs": TripleInputs(subject=subject, statement=f"{subject} {predicate} {target}")},
        )
    except ValidationError as exc:
        raise ValueError(f"predicate/target: {first_error(exc)}") from None
    return reply.predicate, reply.target


# The answer's fields, with only the checks that need no inputs (a list of answers is built from
# these, each then checked as a PackedActionReply). No docstrings on reply models: a docstring
# becomes the schema's description, and the schema is part of every call.
class PackedActionFields(Reply):
    # the grammar writes only an area, a place in it and an object in that place (``choices["places"]``)
    model_config = ConfigDict(
        json_schema_extra={**REPLY_SCHEMA_EXTRA, **choice_paths(PLACES, ("sector", "arena", "object"))}
    )

    sector: str = choice_field("sectors", description="the area to go to, copied exactly from the list")
    arena: str = choice_field("arenas", description="a place inside that area, copied exactly")
    object: str = choice_field("objects", description="an object in that place, copied exactly")
    # one or two emoji (a longer one, such as a ZWJ family, is left to the code, which picks one)
    emoji: str = Field(max_length=EMOJI_MAX, description="one or two emoji for the activity")
    # in words: the grammar keeps emoji out (a run of them cut the reply off)
    predicate: str = Field(max_length=40, description="short verb, e.g. 'is eating'", json_schema_extra=words_only(40))
    target: str = Field(max_length=80, description="what the verb acts on", json_schema_extra=words_only(80))
    state: str = Field(
        max_length=80,
        description="what happens to the object, e.g. 'being used to brew coffee'",
        json_schema_extra=words_only(80),
    )
    state_emoji: str = Field(max_length=EMOJI_MAX, description="one or two emoji for the object's state")

    @field_validator("emoji", "state_emoji", mode="before")
    @classmethod
    def _emoji_only(cls, value: Any) -> str:
        """Words (or too many emoji) where an emoji belongs are not sent back: the code picks the
        emoji (see ``_consistent``)."""
        try:
            emoji = _emoji(value)
        except ValueError:
            return ""
        return emoji if len(emoji) <= EMOJI_MAX else ""


# One action's answer, checked against the call's places and activity.
class PackedActionReply(PackedActionFields):
    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> PackedActionReply:
        inputs = inputs_of(info, PackedActionInputs)
        tree: PlaceTree = inputs.place_tree if inputs else {}
        name = inputs.name.strip() if inputs else ""
        if inputs and tree:
            self._check_place(tree)
            self._go_where_the_activity_says(tree, inputs)
        activity = inputs.activity() if inputs else ""
        try:
            self.predicate, self.target = _triple(name, self.predicate, self.target)
        except ValueError:
            if inputs is None:
                raise
            # A triple that does not read as "<name> <verb> <target>" (a place name copied into every
            # field) is not sent back: like the emoji, the code says it from the activity it already has.
            self.predicate, self.target = split_statement(f"{name} is {activity}", name)
        try:
            self.state = check_state(self.state, self.object, places=_place_names(tree, inputs))
        except ValueError:
            if inputs is None:
                raise
            self.state = _used_by(name)
        if not self.emoji:
            self.emoji = emoji_for((inputs.activity() if inputs else "") or self.target)
        if not self.state_emoji:
            self.state_emoji = emoji_for(self.state)
        return self

    def _go_where_the_activity_says(self, tree: PlaceTree, inputs: PackedActionInputs) -> None:
        """An activity that names a place ("opening Willow Bean Cafe") happens there: the code moves the
        choice to that area (and a place and object inside it) instead of sending the reply back."""
        activity = f"{inputs.action} {inputs.subtask}".lower()
        named = [s for s in tree if s.lower() in activity]
        if not named or self.sector in named:
            return
        self.sector = named[0]
        arenas = list(tree[self.sector])
        if self.arena not in arenas:
            self.arena = pick_arena(arenas, inputs.name)
        objects = tree[self.sector].get(self.arena, [])
        if self.object not in objects:
            self.object = pick_object(objects, inputs.activity()) if objects else NO_OBJECT

    def _check_place(self, tree: PlaceTree) -> None:
        sector = _match(self.sector, list(tree))
        if sector is None:
            raise ValueError(f"sector {self.sector!r} is not one of: {', '.join(tree)}; copy one of them exactly")
        arena = _match(self.arena, list(tree[sector]))
        if arena is None:
            # An arena that exists in exactly one area names the area too.
            owners = [s for s, arenas in tree.items() if _match(self.arena, list(arenas))]
            if len(owners) != 1:
                raise ValueError(
                    f"arena {self.arena!r} is not in {sector}; the places in {sector} are: {', '.join(tree[sector])}"
                )
            sector = owners[0]
            arena = _match(self.arena, list(tree[sector]))
        objects = tree[sector][cast(str, arena)]  # an owner's arena matched
        obj = _match(self.object, objects) if objects else NO_OBJECT
        if obj is None:
            raise ValueError(f"object {self.object!r} is not in {arena}; the objects there are: {', '.join(objects)}")
        self.sector, self.arena, self.object = sector, cast(str, arena), obj


def _match(value: str, options: list[str]) -> str | None:
    if value in options:
        return value
    lowered = value.strip().lower()
    return next((o for o in options if o.lower() == lowered), None)


def _place_names(tree: PlaceTree, inputs: PackedActionInputs | None) -> list[str]:
    """The areas and places of ``tree``, and the areas the prompt names (where the persona is and
    lives): a state that names one is not a state ("bed is Creekside Apartments", what the
    bundled model wrote)."""
    said = [inputs.current_sector, inputs.living_sector] if inputs else []
    return [*tree, *(arena for arenas in tree.values() for arena in arenas), *said]


def _used_by(name: str) -> str:
    return f"being used by {first_name(name) or 'someone'}"


def fail_safe(inputs: PackedActionInputs, choices: Choices) -> PackedActionReply:
    """An area the action names, else home, else where the persona is; keyword emoji; the triple
    split out of the activity; the object "being used by <first name>"."""
    tree, name, activity = inputs.place_tree, inputs.name, inputs.activity()
    sectors = [s for s in (choices.get("sectors") or list(tree)) if s in tree] or list(tree)
    action = f"{inputs.action} {activity}".lower()
    named = [s for s in sectors if s.lower() in action]  # "opening Hobbs Cafe" -> Hobbs Cafe
    sector = named[0] if named else pick_sector(sectors, inputs.living_sector, inputs.current_sector) if sectors else ""
    arenas = list(tree.get(sector, {}))
    arena = pick_arena(arenas, name) if arenas else ""
    objects = tree.get(sector, {}).get(arena, [])
    obj = pick_object(objects, activity) if objects else NO_OBJECT
    predicate, target = split_statement(f"{name} is {activity}", name)
    state = _used_by(name)
    return PackedActionReply(
        sector=sector,
        arena=arena,
        object=obj,
        emoji=emoji_for(activity),
        predicate=predicate,
        target=target,
        state=state,
        state_emoji=emoji_for(state),
    )


def object_event(obj: str, state: str) -> tuple[str, str, str]:
    """The object's triple read from its state: "being used to brew coffee" -> (obj, "is", that)."""
    predicate, target = split_statement(f"{obj} is {state}", obj)
    return obj, predicate, target


ACTION_PACKED = Task("action_packed", PackedActionInputs, PackedActionReply, fail_safe)


@dataclass(frozen=True)
class PackedAction:
    """What the faithful pipeline produces: the address and the action's details."""

    address: str
    pronunciatio: str
    event: tuple[str, str, str]
    obj_description: str | None
    obj_pronunciatio: str | None
    obj_event: tuple[str | None, str | None, str | None]


def _last_name(name: str) -> str:
    parts = name.split()
    return parts[-1] if parts else name


def allowed_places(tree: PlaceTree, name: str) -> PlaceTree:
    """The tree without other people's houses and rooms, and without areas that have no places."""
    last = _last_name(name)
    kept: PlaceTree = {}
    for sector in keep_own_private(unique(tree), last, HOUSE_MARKER):
        arenas = unique(tree[sector])
        arenas = keep_own_private(arenas, last, ROOM_MARKER) or arenas
        if arenas:
            kept[sector] = {arena: unique(tree[sector][arena]) for arena in arenas}
    return kept


def render_places(tree: PlaceTree) -> str:
    """One line per place: ``area > place: object, object``."""
    lines = []
    for sector, arenas in tree.items():
        for arena, objects in arenas.items():
            lines.append(f"{sector} > {arena}: {', '.join(objects) if objects else 'nothing in particular'}")
    return "\n".join(lines)


@dataclass(frozen=True)
class Standpoint:
    """Who asks where an action happens, and from where: what the packed action prompts are
    told besides the action. ``places``: the persona's known ``{sector: {arena: [objects]}}``
    of ``world``."""

    name: str
    world: str
    living_sector: str
    current_sector: str
    daily_plan_req: str
    places: PlaceTree

    def inputs(self, tree: PlaceTree, action_description: str) -> dict[str, Any]:
        """The inputs every action prompt shares, as keywords for its inputs model (``tree``: the
        allowed places, see :func:`allowed_places`)."""
        return dict(
            name=self.name,
            places=render_places(tree),
            living_sector=self.living_sector,
            current_sector=self.current_sector,
            daily_plan_req=self.daily_plan_req.strip() or "no fixed routine",
            action=main_action(action_description),
            place_tree=tree,
        )


def place_choices(tree: PlaceTree) -> dict[str, list[str]]:
    """The call-time choices of an action's place: every known area, place and object, and
    every path of them (the grammar's)."""
    objects = unique(o for arenas in tree.values() for objs in arenas.values() for o in objs)
    if any(not objs for arenas in tree.values() for objs in arenas.values()):
        objects.append(NO_OBJECT)
    return {
        "sectors": list(tree),
        "arenas": unique(a for arenas in tree.values() for a in arenas),
        "objects": objects,
        PLACES: [
            path_choice(sector, arena, obj)
            for sector, arenas in tree.items()
            for arena, objs in arenas.items()
            for obj in (objs or [NO_OBJECT])
        ],
    }


def as_action(reply: PackedActionReply, *, name: str, world: str) -> PackedAction:
    """A checked answer as the address and details of ``add_new_action``."""
    event = (name, reply.predicate, reply.target)
    address = f"{world}:{reply.sector}:{reply.arena}:{reply.object}"
    if reply.object == NO_OBJECT:
        return PackedAction(address, reply.emoji, event, None, None, (None, None, None))
    state = one_line(reply.state)
    return PackedAction(address, reply.emoji, event, state, reply.state_emoji, object_event(reply.object, state))


def packed_action(llm: LanguageModel, at: Standpoint, action_description: str, *, living_area: str) -> PackedAction:
    """Address and details of a new action in one call (the faithful mode makes up to eight).

    With no known place to go, the address is ``<living_area>:<random>`` like the faithful mode.
    """
    name, tree = at.name, allowed_places(at.places, at.name)
    if not tree:
        # Nowhere known to go: the faithful mode's address, and its two prompts for the action.
        address = f"{living_area}:{NO_OBJECT}" if living_area else f"{at.world}:{at.living_sector}:{NO_OBJECT}"
        emoji = pronunciatio(llm, action_description=action_description, persona=name)
        event = event_triple(llm, name=name, action_description=action_description)
        return PackedAction(address, emoji, event, None, None, (None, None, None))
    inputs = PackedActionInputs(**at.inputs(tree, action_description), subtask=subtask(action_description))
    reply: PackedActionReply = llm.ask(ACTION_PACKED, inputs, choices=place_choices(tree), persona=name)
    return as_action(reply, name=name, world=at.world)
