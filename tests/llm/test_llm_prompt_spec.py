"""Prompt files: loading, the {variables} check, one-line errors, reload on change."""

from __future__ import annotations

import os

import pytest

from llm_support import PROMPT, TASK
from reverie.errors import UserError
from reverie.llm.prompt_spec import PromptStore, load_prompt


def write(tmp_path, text: str, name: str = "p.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path) -> str:
    with pytest.raises(UserError) as info:
        load_prompt(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    return message


def test_a_good_file_becomes_a_chat_template(tmp_path):
    spec = load_prompt(write(tmp_path, PROMPT, f"{TASK}.toml"))
    assert spec.name == TASK and spec.role == "cheap" and spec.inputs == ("name", "lifestyle", "earliest")
    messages = spec.template().format_messages(name="Ana", lifestyle="bakes bread", earliest=5)
    assert [m.type for m in messages] == ["system", "human", "ai", "human"]
    assert messages[-1].content.startswith("Ana bakes bread. Ana never gets up before 5.")
    assert messages[2].content == '{"hour": 5, "place": "bedroom"}'


def test_used_in_is_read_when_given_and_empty_when_not(tmp_path):
    assert load_prompt(write(tmp_path, PROMPT)).used_in == ""
    text = PROMPT.replace('role = "cheap"', 'role = "cheap"\nused_in = "plan: each morning"')
    assert load_prompt(write(tmp_path, text)).used_in == "plan: each morning"


def test_bad_toml_names_file_and_line(tmp_path):
    message = error_of(write(tmp_path, 'role = "cheap"\ndescription = \n'))
    assert "not valid TOML" in message and "line 2" in message


def test_undeclared_variable_names_the_line(tmp_path):
    text = PROMPT.replace('inputs = ["name", "lifestyle", "earliest"]', 'inputs = ["name", "lifestyle"]')
    message = error_of(write(tmp_path, text))
    assert "line 6" in message and "{earliest} is used but not listed in inputs" in message


def test_declared_but_unused_input(tmp_path):
    text = PROMPT.replace(
        'inputs = ["name", "lifestyle", "earliest"]', 'inputs = ["name", "lifestyle", "earliest", "age"]'
    )
    assert "input 'age' is listed in inputs but not used" in error_of(write(tmp_path, text))


@pytest.mark.parametrize(
    "change, expected",
    [
        (('role = "cheap"', 'role = "medium"'), 'role must be "strong" or "cheap"'),
        (('role = "cheap"\n', ""), "missing key 'role'"),
        (('role = "cheap"', 'role = "cheap"\nrloe = 1'), "unknown key 'rloe'"),
        (("never gets up before {earliest}.", "never {gets up before {earliest}."), "double literal braces"),
        (("assistant = ", "assistent = "), "example 1 must have exactly two strings"),
        (
            ('role = "cheap"', 'role = "cheap"\nrepeat_penalty = 0.9'),
            "repeat_penalty must be a number from 1 (off) to 2",
        ),
        (
            ('role = "cheap"', 'role = "cheap"\nrepeat_penalty = "1.1"'),
            "repeat_penalty must be a number from 1 (off) to 2",
        ),
        (
            ('role = "cheap"', 'role = "cheap"\nformat_line_with_grammar = "no"'),
            "format_line_with_grammar must be true or false",
        ),
        (('role = "cheap"', 'role = "cheap"\nused_in = ["plan"]'), "'used_in' must be a string"),
    ],
)
def test_malformed_files(tmp_path, change, expected):
    assert expected in error_of(write(tmp_path, PROMPT.replace(*change)))


def test_edits_apply_on_the_next_call(tmp_path):
    path = write(tmp_path, PROMPT, f"{TASK}.toml")
    store = PromptStore(tmp_path)
    assert store.get(TASK).role == "cheap"
    path.write_text(PROMPT.replace('role = "cheap"', 'role = "strong"'), encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert store.get(TASK).role == "strong"
    with pytest.raises(UserError, match="no such prompt file for task 'missing'"):
        store.get("missing")
