"""The shape each file of a checkpoint must have, beyond parsing as JSON (docs/RUNS.md §3).

A file that parses can still not be one a resume could use (``nodes.json`` holding a list, a
position off the map or below zero, which Python's negative indexing would wrap round the
map). Each check takes the parsed JSON and returns what is wrong in a few words, or None.
The persona files go through the same loaders a resume uses, so what passes here loads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr, TypeAdapter, ValidationError

from reverie.clock import parse_time
from reverie.memory.concept_node import ConceptNode, node_number
from reverie.memory.scratch import Scratch

Coordinate = Annotated[StrictInt, Field(ge=0)]
MapSize = tuple[int, int]  # (width, height) of the simulation's map; None when it cannot be read


class _Meta(BaseModel):
    model_config = ConfigDict(extra="allow")
    step: Coordinate
    curr_time: StrictStr
    start_date: StrictStr
    sec_per_step: Annotated[StrictInt, Field(gt=0)]
    maze_name: StrictStr
    persona_names: Annotated[list[StrictStr], Field(min_length=1)]


class _Position(BaseModel):
    model_config = ConfigDict(extra="allow")
    maze: StrictStr
    x: Coordinate
    y: Coordinate


class _Move(BaseModel):
    model_config = ConfigDict(extra="allow")
    movement: tuple[Coordinate, Coordinate]


class _Movement(BaseModel):
    model_config = ConfigDict(extra="allow")
    persona: dict[str, _Move]


Number = StrictInt | StrictFloat
_ENVIRONMENT = TypeAdapter(dict[str, _Position])
_NODES = TypeAdapter(dict[str, dict[str, Any]])
_KW_STRENGTH = TypeAdapter(dict[str, dict[str, Number] | None])
_EMBEDDINGS = TypeAdapter(dict[str, list[Number]])
_SPATIAL = TypeAdapter(dict[str, dict[str, dict[str, list[StrictStr]]]])


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"])
    return f"{where}: {error['msg']}" if where else error["msg"]


def _validate(adapter: TypeAdapter[Any], data: Any) -> str | None:
    try:
        adapter.validate_python(data)
    except ValidationError as exc:
        return _first_error(exc)
    return None


def _off_map(tile: Sequence[int], size: MapSize | None) -> bool:
    return size is not None and not (tile[0] < size[0] and tile[1] < size[1])


def _map_text(size: MapSize | None) -> str:
    if size is None:
        return "outside the map"
    return f"outside the map (0..{size[0] - 1}, 0..{size[1] - 1})"


def meta_problem(meta: Any) -> str | None:
    try:
        _Meta.model_validate(meta)
        parse_time(meta["curr_time"])
    except ValidationError as exc:
        return _first_error(exc)
    except ValueError as exc:
        return f"curr_time: {exc}"
    return None


def environment_problem(env: Any, names: list[str], size: MapSize | None) -> str | None:
    """``environment/<step>.json``: a position on the map for every persona."""
    problem = _validate(_ENVIRONMENT, env)
    if problem:
        return problem
    for name in names:
        if name not in env:
            return f"no position for '{name}'"
        where = (env[name]["x"], env[name]["y"])
        if _off_map(where, size):
            return f"{name}: position {where[0]}, {where[1]} is {_map_text(size)}"
    return None


def movement_problem(movement: Any, size: MapSize | None) -> str | None:
    """``movement/<step>.json``: each persona's next tile, on the map."""
    try:
        parsed = _Movement.model_validate(movement)
    except ValidationError as exc:
        return _first_error(exc)
    for name, move in parsed.persona.items():
        if _off_map(move.movement, size):
            return f"{name}: movement {move.movement[0]}, {move.movement[1]} is {_map_text(size)}"
    return None


def scratch_problem(data: Any, size: MapSize | None) -> str | None:
    if not isinstance(data, dict):
        return "not a JSON object"
    try:
        scratch = Scratch.from_json(data)
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        return f"{type(exc).__name__}: {exc}"
    for tile in ([scratch.curr_tile] if scratch.curr_tile is not None else []) + list(scratch.planned_path):
        if min(tile) < 0 or _off_map(tile, size):
            return f"tile {tile[0]}, {tile[1]} is {_map_text(size) if size else 'below zero'}"
    return None


def nodes_problem(data: Any) -> str | None:
    problem = _validate(_NODES, data)
    if problem:
        return problem
    for node_id, node in data.items():
        try:
            node_number(node_id)
            ConceptNode.from_json(node_id, node)
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            return f"{node_id}: {type(exc).__name__}: {exc}"
    return None


# The persona files a resume reads, by name, and what each must hold (others need only parse).
PERSONA_FILES = {
    "nodes.json": lambda data, size: nodes_problem(data),
    "kw_strength.json": lambda data, size: _validate(_KW_STRENGTH, data),
    "embeddings.json": lambda data, size: _validate(_EMBEDDINGS, data),
    "spatial_memory.json": lambda data, size: _validate(_SPATIAL, data),
    "scratch.json": scratch_problem,
}
