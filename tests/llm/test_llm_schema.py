"""The per-call schema: choices become enums (also in lists), everything is bounded."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field

from reverie.llm.schema import NoChoices, call_schema, choice_problems, format_instruction
from reverie.llm.task import ITEMS_KEY, MOST_ITEMS_KEY, choice_field, choice_paths, path_choice


class Step(BaseModel):
    arena: str = choice_field("arenas", max_length=60)
    note: str


class Plan(BaseModel):
    objects: list[str] = choice_field("objects", max_length=3)
    steps: list[Step] = Field(max_length=4)


CHOICES = {"arenas": ["kitchen", "cafe"], "objects": ["bed", "desk", "bed"]}


def test_choices_become_enums_everywhere_and_everything_is_bounded():
    schema = call_schema(Plan, CHOICES)
    assert schema["properties"]["objects"]["items"]["enum"] == ["bed", "desk"]
    assert schema["properties"]["objects"]["maxItems"] == 3
    step = schema["$defs"]["Step"]
    assert step["properties"]["arena"]["enum"] == ["kitchen", "cafe"]
    assert step["properties"]["note"]["maxLength"] > 0
    assert step["additionalProperties"] is False and schema["additionalProperties"] is False
    assert call_schema(Plan, {"arenas": ["x"], "objects": ["y"]})["properties"]["objects"]["items"]["enum"] == ["y"]


def test_missing_or_empty_choices():
    with pytest.raises(ValueError, match=r"needs choices\['objects'\]"):
        call_schema(Plan, {"arenas": ["kitchen"]})
    with pytest.raises(NoChoices):
        call_schema(Plan, {"arenas": [], "objects": ["bed"]})


def test_choice_problems_name_path_value_and_allowed_values():
    schema = call_schema(Plan, CHOICES)
    data = {"objects": ["bed", "sofa"], "steps": [{"arena": "cafe", "note": ""}, {"arena": "moon", "note": ""}]}
    problems = [str(p) for p in choice_problems(schema, data, CHOICES)]
    assert problems == [
        'objects[1]: "sofa" is not one of the allowed values; choose one of: "bed", "desk"',
        'steps[1].arena: "moon" is not one of the allowed values; choose one of: "kitchen", "cafe"',
    ]


def test_format_instruction_shows_the_shape():
    line = format_instruction(call_schema(Plan, CHOICES))
    assert line.startswith('Answer with only one JSON object of this shape: {"objects": ["bed" | "desk", ...]')
    assert '"arena": "kitchen" | "cafe"' in line


class Hour(BaseModel):
    hour: int = Field(json_schema_extra={"x-choices": "hours"})


def test_whole_number_choices_stay_numbers_and_are_checked():
    schema = call_schema(Hour, {"hours": ["5", "6", "7"]})
    assert schema["properties"]["hour"]["enum"] == [5, 6, 7]
    assert format_instruction(schema) == 'Answer with only one JSON object of this shape: {"hour": 5 | 6 | 7}'
    assert [p.path for p in choice_problems(schema, {"hour": 13}, {"hours": ["5", "6", "7"]})] == ["hour"]
    assert choice_problems(schema, {"hour": 6}, {"hours": ["5", "6", "7"]}) == []
    # a grammar-less "6am" is left to the field's own validator, which reads clock forms
    assert choice_problems(schema, {"hour": "6am"}, {"hours": ["5", "6", "7"]}) == []


class Day(BaseModel):
    activities: list[str] = Field(min_length=1, max_length=24, json_schema_extra={ITEMS_KEY: "hours"})


def test_a_list_marked_with_an_items_key_gets_exactly_that_many_items_when_the_call_names_them():
    schema = call_schema(Day, {"hours": ["6:00 am", "7:00 am", "8:00 am"]})
    assert (schema["properties"]["activities"]["minItems"], schema["properties"]["activities"]["maxItems"]) == (3, 3)
    assert "(exactly 3 items)" in format_instruction(schema)
    # Without the key the field keeps its own bounds.
    bounds = call_schema(Day, {})["properties"]["activities"]
    assert (bounds["minItems"], bounds["maxItems"]) == (1, 24)


class Steps(BaseModel):
    steps: list[str] = Field(min_length=1, max_length=16, json_schema_extra={MOST_ITEMS_KEY: "slots"})


def test_a_list_marked_with_a_most_items_key_gets_at_most_that_many_items_and_never_more_than_its_own_bound():
    six = call_schema(Steps, {"slots": [str(m) for m in range(0, 60, 10)]})["properties"]["steps"]
    assert (six["minItems"], six["maxItems"]) == (1, 6)
    assert "(at most 6 items)" in format_instruction(call_schema(Steps, {"slots": [str(m) for m in range(0, 60, 10)]}))
    many = call_schema(Steps, {"slots": [str(m) for m in range(0, 300, 10)]})["properties"]["steps"]
    assert many["maxItems"] == 16
    assert call_schema(Steps, {})["properties"]["steps"]["maxItems"] == 16


class Cited(BaseModel):
    evidence: list[str] = Field(json_schema_extra={"x-choices": "numbers"})


def test_a_long_run_of_numbers_is_shown_by_its_ends():
    assert format_instruction(call_schema(Cited, {"numbers": [str(i) for i in range(21)]})) == (
        'Answer with only one JSON object of this shape: {"evidence": ["0" to "20", ...] (at most 30 items)}'
    )
    # A short run, and numbers with a gap, are written out.
    assert format_instruction(call_schema(Cited, {"numbers": ["0", "1", "2"]})).endswith(
        '{"evidence": ["0" | "1" | "2", ...] (at most 30 items)}'
    )
    gap = [str(i) for i in range(10) if i != 4]
    assert '"3" | "5"' in format_instruction(call_schema(Cited, {"numbers": gap}))


def test_whole_number_values_are_written_out_however_many():
    """A score or an hour is a value the model picks, not a label: shown as "1 to 10", the
    bundled model's single ratings went to 10."""
    schema = call_schema(Hour, {"hours": [str(h) for h in range(1, 11)]})
    assert format_instruction(schema).endswith('{"hour": 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10}')


class Where(BaseModel):
    model_config = {"json_schema_extra": choice_paths("places", ("area", "room", "thing"))}
    area: str = choice_field("areas")
    room: str = choice_field("rooms")
    thing: str = choice_field("things")
    note: str = Field(max_length=20)


PATHS = {
    "areas": ["Cafe", "Home"],
    "rooms": ["kitchen", "bedroom"],
    "things": ["stove", "bed", "sink"],
    "places": [
        path_choice("Cafe", "kitchen", "stove"),
        path_choice("Cafe", "kitchen", "sink"),
        path_choice("Home", "bedroom", "bed"),
        path_choice("Home", "kitchen", "stove"),
    ],
}


def test_a_grammar_of_paths_allows_only_the_paths_given():
    """Each field alone allows every area, room and thing; together only the given paths."""
    import jsonschema

    schema = call_schema(Where, PATHS)
    ok = {"area": "Home", "room": "bedroom", "thing": "bed", "note": "x"}
    jsonschema.validate(ok, schema)
    for wrong in (
        {"room": "bedroom", "area": "Cafe"},
        {"thing": "sink", "area": "Home", "room": "kitchen"},
        {"thing": "bed", "area": "Cafe", "room": "kitchen"},
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**ok, **wrong}, schema)
    assert [branch["properties"]["thing"]["enum"] for branch in schema["anyOf"]] == [
        ["stove", "sink"],
        ["bed"],
        ["stove"],
    ]
    line = format_instruction(schema)
    assert '"room": string (as listed)' in line and '"note": string (at most 20 characters)' in line
    assert "bedroom" not in line and line.count("{") == 1
    # the flat checks still name a value that is nowhere, once
    problems = choice_problems(schema, {**ok, "thing": "sofa"}, PATHS)
    assert [p.path for p in problems] == ["thing"]


def test_without_paths_the_fields_keep_their_flat_choices():
    schema = call_schema(Where, {k: v for k, v in PATHS.items() if k != "places"})
    assert schema["properties"]["room"]["enum"] == ["kitchen", "bedroom"] and "anyOf" not in schema
    with pytest.raises(ValueError, match=r"\['Cafe', 'stove'\] has 2 values"):
        call_schema(Where, {**PATHS, "places": [path_choice("Cafe", "stove")]})


def test_a_grammar_of_paths_in_a_list_of_answers():
    class Many(BaseModel):
        answers: list[Where] = Field(max_length=3)

    schema = call_schema(Many, PATHS)
    where = schema["$defs"]["Where"]
    assert len(where["anyOf"]) == 3 and schema["$defs"]["places-note"]["maxLength"] == 20
    import jsonschema

    jsonschema.validate({"answers": [{"area": "Cafe", "room": "kitchen", "thing": "sink", "note": ""}]}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"answers": [{"area": "Cafe", "room": "bedroom", "thing": "bed", "note": ""}]}, schema)
