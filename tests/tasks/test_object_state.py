"""act_obj_desc: the state phrase without "<object> is"; the fail-safe says who uses the object."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from reverie.tasks.object_state import ObjectStateReply, fail_safe
from reverie.tasks.object_state import ACT_OBJ_DESC
from reverie.prompt_tools.fixtures import inputs_with


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("being used to brew coffee.", "being used to brew coffee"),
        ("The coffee machine is brewing coffee", "brewing coffee"),
        ("coffee machine is idle", "idle"),
        ("is warming up", "warming up"),
    ],
)
def test_object_and_verb_prefix_are_removed(raw, expected):
    assert (
        ObjectStateReply.model_validate(
            {"state": raw}, context={"inputs": inputs_with(ACT_OBJ_DESC, object="coffee machine")}
        ).state
        == expected
    )


@pytest.mark.parametrize(
    "raw, why", [("M", "is not a phrase"), ("Ce", "is not a phrase"), ("coffee machine", "names 'coffee machine'")]
)
def test_a_letter_or_two_or_the_object_alone_is_sent_back(raw, why):
    """Each is sent back by its own check (not by the older ones: these have no leading article)."""
    with pytest.raises(ValidationError) as error:
        ObjectStateReply.model_validate(
            {"state": raw}, context={"inputs": inputs_with(ACT_OBJ_DESC, object="coffee machine")}
        )
    assert why in str(error.value)


def test_fail_safe_names_the_user():
    assert fail_safe(inputs_with(ACT_OBJ_DESC, object="bed", name="Maria Lopez"), {}).state == "being used by Maria"


# --- through the facade (scripted chat model: fixed replies, not a real model) ----------

from tests.tasks.planning_support import scripted_llm  # noqa: E402

from reverie.tasks.object_state import act_obj_desc  # noqa: E402


def test_function_returns_the_state_and_never_none():
    """Scripted: one valid reply, then replies that are never valid (fail-safe)."""
    llm, _ = scripted_llm('{"state": "the stove is heating a pan"}')
    assert (
        act_obj_desc(llm, object_name="stove", name="Isabella Rodriguez", action_description="cooking (frying eggs)")
        == "heating a pan"
    )
    llm, _ = scripted_llm("{}")
    assert (
        act_obj_desc(llm, object_name="stove", name="Isabella Rodriguez", action_description="cooking")
        == "being used by Isabella"
    )
