"""Every registered prompt: its file, its fixtures, its schema, its validators, its fail-safe.

Generic over the registry, so a new unit is covered as soon as it registers and ships
``prompts/<name>.toml`` and ``prompts/fixtures/<name>.json``.
"""

from __future__ import annotations

import json
import re

import pytest
from pydantic import BaseModel, ValidationError

from reverie import PROJECT_ROOT
from reverie.config import load_settings
from reverie.llm.prompt_spec import load_prompt
from reverie.llm.schema import call_schema, items_asked
from reverie.llm.reply_parser import ReplyParser, ReplyProblems
from reverie.tasks.registry import product_tasks
from reverie.prompt_tools.cli import render
from reverie.prompt_tools.fixtures import fixture_names, load_fixture
from tests.tasks.planning_support import ACTION_PROMPTS

PROMPTS_DIR = PROJECT_ROOT / "prompts"
TASKS = product_tasks()


@pytest.fixture(scope="module")
def settings():
    return load_settings(PROJECT_ROOT / "config.toml")


NAMES = sorted(TASKS)

# The original's prompt sites that are never reached; not ported (prompts/README.md says why).
DEAD = [
    "create_conversation",
    "extract_keywords",
    "keyword_to_thoughts",
    "convo_to_thoughts",
    "thought_poignancy",
    "agent_chat_summarize_ideas",
    "agent_chat",
]


def _validate(schema: type[BaseModel], reply, context: dict) -> BaseModel:
    if isinstance(reply, str):
        return schema.model_validate_json(reply, context=context)
    return schema.model_validate(reply, context=context)


def _correction(name: str, reply, case) -> str | None:
    """The correction message the structured chain would send back for ``reply`` (None: valid),
    followed by pydantic's own wording of the same errors (fixtures may quote either)."""
    task = TASKS[name]
    text = reply if isinstance(reply, str) else json.dumps(reply)
    parser = ReplyParser(
        reply_model=task.schema,
        call_schema=call_schema(task.schema, case.choices),
        inputs=case.inputs,
        choices=case.choices or {},
        task_name=name,
        task=task,
    )
    try:
        parser.parse(text)
    except ReplyProblems as exc:
        correction = exc.observation
    else:
        return None
    try:
        _validate(task.schema, reply, case.context(task))
        raw = ""
    except ValidationError as exc:
        raw = str(exc)
    except ValueError as exc:  # not JSON at all
        raw = str(exc)
    return correction + "\n" + raw


# The original's 31 live prompt sites (23 reached by `run`, the four new-day identity
# prompts, four reached by server commands), by our names.
LIVE = [
    "wake_up_hour",
    "daily_plan",
    "hourly_schedule",
    "task_decomp",
    *ACTION_PROMPTS,
    "new_decomp_schedule",
    "decide_to_talk",
    "decide_to_react",
    "summarize_conversation",
    "event_poignancy",
    "chat_poignancy",
    "focal_points",
    "insights",
    "relationship_summary",
    "summarize_ideas",
    "next_convo_line",
    "whisper_inner_thought",
    "planning_thought_on_convo",
    "memo_on_convo",
    "safety_score",
    "iterative_chat_utterance",
    "identity_plan_note",
    "identity_thought_note",
    "identity_new_currently",
    "identity_new_daily_req",
]


def test_registry_has_every_live_prompt_site():
    assert len(LIVE) == len(set(LIVE)) == 31
    assert set(LIVE) <= set(TASKS), sorted(set(LIVE) - set(TASKS))


def test_every_prompt_file_and_fixture_belongs_to_a_task():
    files = sorted(p.stem for p in PROMPTS_DIR.glob("*.toml"))
    assert files == NAMES
    assert fixture_names() == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_prompt_file_loads_and_its_examples_are_valid_answers(name):
    spec = load_prompt(PROMPTS_DIR / f"{name}.toml")  # checks keys, role, declared == used variables
    assert spec.description.strip() and spec.used_in.strip()  # `prompts list` says where each is asked
    for user, assistant in spec.examples:
        assert user.strip()
        TASKS[name].schema.model_validate_json(assistant)  # few-shot answers have the real shape


@pytest.mark.parametrize("name", NAMES)
def test_prompt_file_lists_exactly_the_inputs_model_fields(name):
    TASKS[name].check_prompt(load_prompt(PROMPTS_DIR / f"{name}.toml"))  # a UserError names the difference


@pytest.mark.parametrize("name", NAMES)
def test_every_fixture_case_renders(name, settings):
    spec = load_prompt(PROMPTS_DIR / f"{name}.toml")
    fixture = load_fixture(name)
    for case in fixture.cases:
        assert set(spec.inputs) <= set(case.inputs), f"{fixture.path}: a case lacks inputs"
        messages = render(settings, name, case.inputs, case.choices)
        assert messages[-1].type == "human"
        assert all(str(m.content).strip() for m in messages)
        assert "{" + spec.inputs[0] + "}" not in messages[-1].content  # variables are filled in


@pytest.mark.parametrize("name", NAMES)
def test_valid_examples_round_trip(name):
    task, fixture = TASKS[name], load_fixture(name)
    assert fixture.valid, f"{fixture.path}: add at least one valid reply"
    case = fixture.cases[0]
    for reply in fixture.valid:
        model = _validate(task.schema, reply, case.context(task))
        again = task.schema.model_validate(json.loads(model.model_dump_json()), context=case.context(task))
        assert again == model


@pytest.mark.parametrize("name", NAMES)
def test_bad_replies_are_rejected_with_the_expected_message(name):
    fixture = load_fixture(name)
    assert fixture.bad, f"{fixture.path}: add at least one known-bad reply"
    for bad in fixture.bad:
        correction = _correction(name, bad.reply, fixture.cases[bad.case])
        assert correction is not None, f"{name}: {bad.reply!r} was accepted"
        assert bad.error in correction, f"{name}: {bad.reply!r} -> {correction}"


@pytest.mark.parametrize("name", NAMES)
def test_fail_safe_is_valid_for_every_case(name):
    task, fixture = TASKS[name], load_fixture(name)
    for case in fixture.cases:
        fallback = task.fail_safe(task.typed(case.inputs), case.choices)
        assert isinstance(fallback, task.schema)
        assert _correction(name, fallback.model_dump(mode="json"), case) is None
        again = task.schema.model_validate(json.loads(fallback.model_dump_json()), context=case.context(task))
        assert again == fallback


@pytest.mark.parametrize("name", NAMES)
def test_schema_is_bounded(name):
    """Every string has a maxLength and every array a maxItems (a grammar then bounds the reply)."""
    schema = TASKS[name].schema.model_json_schema()
    defs = schema.get("$defs", {})

    def walk(node, where):
        if "$ref" in node:
            return walk(defs[node["$ref"].split("/")[-1]], where)
        for key in ("anyOf", "oneOf", "allOf"):
            for sub in node.get(key, []):
                walk(sub, where)
        kind = node.get("type")
        if kind == "string" and "enum" not in node:
            assert "maxLength" in node, f"{name}: string {where} has no max_length"
        if kind == "array":
            assert "maxItems" in node, f"{name}: list {where} has no max_length"
            walk(node.get("items", {}), where + "[]")
        for key, sub in node.get("properties", {}).items():
            walk(sub, f"{where}.{key}")

    walk(schema, name)


def test_readme_lists_every_prompt_and_the_dead_ones():
    readme = (PROMPTS_DIR / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", readme, flags=re.MULTILINE))
    assert set(NAMES) <= listed
    for dead in DEAD:
        assert f"`{dead}`" in readme


# --- the command line ---------------------------------------------------------------------


def _prompts_cli(argv: list[str], settings) -> int:
    import argparse

    from reverie.prompt_tools import cli

    parser = argparse.ArgumentParser(prog="prompts")
    cli.configure(parser)
    return cli.main(parser.parse_args(argv), settings)


def test_prompts_list_names_every_prompt_with_its_role(settings, capsys):
    assert _prompts_cli(["list"], settings) == 0
    out = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line.split()[1] for line in out[1:-1]}
    assert sorted(rows) == NAMES
    assert set(rows.values()) <= {"strong", "cheap"}
    assert out[-1].startswith(f"{len(NAMES)} prompts")
    # The token budget: the longest fixture prompt (the model's tokenizer) plus max_tokens (and
    # max_tokens_per_item for each item the largest fixture case asks for).
    for line in out[1:-1]:
        name, _role, prompt, reply, budget = line.split()[:5]
        assert int(prompt) > 0 and int(budget) == int(prompt) + int(reply)
        spec = load_prompt(PROMPTS_DIR / f"{name}.toml")
        assert line.endswith(f"  {spec.used_in}")  # where it is asked: the prompt file's used_in
        items = max(items_asked(call_schema(TASKS[name].schema, case.choices)) for case in load_fixture(name).cases)
        assert int(reply) == (
            (spec.max_tokens + (spec.max_tokens_per_item or 0) * items) if spec.max_tokens else int(reply)
        )


def test_prompts_show_renders_the_first_fixture(settings, capsys):
    assert _prompts_cli(["show", "event_poignancy"], settings) == 0
    out = capsys.readouterr().out
    first = load_fixture("event_poignancy").cases[0].inputs
    assert "--- system ---" in out and "--- human ---" in out
    assert first["identity"].splitlines()[0] in out and first["description"] in out


def test_prompts_show_unknown_name_is_a_user_error(settings):
    from reverie.errors import UserError

    with pytest.raises(UserError, match="no prompt named 'no_such_prompt'"):
        _prompts_cli(["show", "no_such_prompt"], settings)


@pytest.mark.parametrize("name", NAMES)
def test_every_prompts_grammar_compiles_in_llama_cpp(name):
    """The JSON schema a call sends (its choices as enums) becomes the llama.cpp grammar that
    bounds the in-process model's reply."""
    from llama_cpp import LlamaGrammar

    case = load_fixture(name).cases[0]
    LlamaGrammar.from_json_schema(json.dumps(call_schema(TASKS[name].schema, case.choices)), verbose=False)


@pytest.mark.slow
@pytest.mark.timeout(3600)  # about 32 prompts x up to 3 attempts on a small CPU, when not replayed
def test_prompts_eval_runs_every_prompt_on_the_bundled_model(settings, capsys, monkeypatch):
    """`prompts eval --n 1` over all prompts, bundled model, grammar on; prints its table.

    The model only drives the command here: its answers are a recording
    (tests/recorded_replies.py, tests/recordings/prompts_eval.jsonl; a call it lacks goes to the
    model itself). Every prompt's grammar is compiled by llama.cpp in the test above."""
    from reverie.llm import LLM
    from tests.recorded_replies import recorded_llm

    monkeypatch.setattr(
        LLM,
        "from_settings",
        classmethod(
            lambda cls, eval_settings, *, tasks, ledger_path=None, **_: recorded_llm(
                eval_settings, "prompts_eval", ledger_path=ledger_path
            )
        ),
    )
    code = _prompts_cli(["eval", "--model", "bundled", "--n", "1"], settings)
    out = capsys.readouterr().out
    with capsys.disabled():
        print("\n" + out)
    assert code == 0
    lines = out.strip().splitlines()
    assert "grammar on" in lines[0]
    end = next(i for i, line in enumerate(lines) if line.startswith("TOTAL"))
    rows = {line.split()[0]: line.split() for line in lines[2 : end + 1]}
    assert sorted(set(rows) - {"TOTAL"}) == NAMES
    assert re.match(r"day coherence: [01]/1 days with no violation", lines[end + 1])  # --n 1: one day
    total = rows["TOTAL"]
    assert int(total[1]) == len(NAMES)  # one call per prompt
    assert int(total[7]) > 0  # the model really generated tokens
