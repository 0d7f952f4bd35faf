"""The whisper's third-person draft: code fills it in, the model only polishes it.

Runs the real facade over the scripted fake chat model (tests/tasks/planning_support.py):
the point is what our code sends and keeps, not what a model answers.
"""

from __future__ import annotations

import json

from reverie.tasks.whisper import WhisperInputs, whisper_inner_thought
from tests.tasks.planning_support import last_user_text, scripted_llm


def test_the_prompt_shows_a_draft_with_the_name_in_place_of_you():
    llm, model = scripted_llm(json.dumps({"thought": "Walter Brennan is June Brennan's husband of forty years."}))
    thought = whisper_inner_thought(
        llm, persona_name="June Brennan", whisper="Walter Brennan is your husband of forty years"
    )
    sent = last_user_text(model)
    assert "Draft: Walter Brennan is June Brennan's husband of forty years." in sent
    assert "your husband" not in sent  # the whisper itself is not shown: the model copied its "your"
    assert thought == "Walter Brennan is June Brennan's husband of forty years."


def test_an_ask_by_name_without_the_draft_gets_it_from_the_inputs_model():
    """Cases captured before the draft existed still render and run."""
    llm, model = scripted_llm(json.dumps({"thought": "Nora Bennett and Theo Alvarez are neighbors."}))
    reply = llm.ask(
        "whisper_inner_thought", {"persona_name": "Nora Bennett", "whisper": "You and Theo Alvarez are neighbors"}
    )
    assert "Draft: Nora Bennett and Theo Alvarez are neighbors." in last_user_text(model)
    assert reply.thought == "Nora Bennett and Theo Alvarez are neighbors."


def test_a_draft_the_caller_gives_is_kept():
    inputs = WhisperInputs(persona_name="Ana Silva", whisper="you paint", draft="Ana Silva paints.")
    assert inputs.draft == "Ana Silva paints."
