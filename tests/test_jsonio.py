"""A checkpoint's persona files are encoded member by member, each member once while it stays
the same: the text must be what json.dumps writes, however the members change between saves."""

from __future__ import annotations

import json
import random

import pytest

from reverie.jsonio import ObjectText


def _value(rng: random.Random):
    return rng.choice(
        [
            [rng.random() for _ in range(rng.randint(0, 4))],
            {
                "description": rng.choice(["café ☕", "line\nbreak", 'a "quote"', ""]),
                "poignancy": rng.randint(1, 10),
                "filling": [["Klaus Mueller", "Hi"]] if rng.random() < 0.5 else [],
                "expiration": None,
            },
            rng.randint(-5, 5),
        ]
    )


@pytest.mark.parametrize("indent", [2, None])
def test_the_text_is_json_dumps_after_every_kind_of_change(indent):
    rng = random.Random(7)
    writer = ObjectText(indent=indent)
    data: dict = {}
    assert writer.text(data) == json.dumps(data, indent=indent, ensure_ascii=True)
    for _ in range(60):
        change = rng.choice(["add", "add", "replace", "remove", "reorder", "none"])
        if change == "add":
            data[f"node_{rng.randint(1, 40)}é"] = _value(rng)
        elif change == "replace" and data:
            data[rng.choice(list(data))] = _value(rng)
        elif change == "remove" and data:
            del data[rng.choice(list(data))]
        elif change == "reorder":
            data = dict(reversed(list(data.items())))
        assert writer.text(data) == json.dumps(data, indent=indent, ensure_ascii=True)


def test_an_equal_value_made_anew_is_not_encoded_again():
    writer = ObjectText()
    writer.text({"node_1": {"poignancy": 4}})
    encoded = writer._members["node_1"][1]
    writer.text({"node_1": {"poignancy": 4}})
    assert writer._members["node_1"][1] is encoded
    writer.text({"node_1": {"poignancy": 7}})
    assert '"poignancy": 7' in writer._members["node_1"][1]
