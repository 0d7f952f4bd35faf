"""Every chat template: the system text reaches the model exactly once; and one real call per
template family completes (the bundled model carrying the template; see tests/llm/chat_templates.py).

Rendering needs no weights: each template is loaded into a vocabulary-only copy of the bundled
GGUF (llama-cpp-python picks its chat handler as for the full model) and probed as the loader
does. The real call is the model's part (its tokenizer and llama.cpp take the rendered text and
generate): it is made once per family, through the loader, by the first template of that family.
"""

from __future__ import annotations

import json

import pytest
from llama_cpp import Llama

from chat_templates import LEFT_OUT, fixture_gguf, llama_cpp_templates, template_files
from reverie.config import Settings
from reverie.errors import UserError
from reverie.llm import LLM
from reverie.llm.chat_template import SystemRole, as_dicts, probe, rendered_prompt
from reverie.llm.models import LocalChatModel
from reverie.prompt_tools.fixtures import load_fixture
from reverie.tasks.registry import product_tasks

TASK = "pronunciatio"  # a real task with a short prompt and a short reply
TEMPLATES = template_files()

# Families whose template drops or refuses the system message: their system text is folded.
FOLDED = {
    "mistralai-Mistral-7B-Instruct-v0.1",
    "mistralai-Mistral-7B-Instruct-v0.2",
    "microsoft-Phi-3-mini-4k-instruct",
    "google-gemma-2-2b-it",
}

# A family (its markers, as reverie.llm.chat_template names it, and how the probe treats it:
# handler, system text, tool list) -> the template whose real call completed for it.
CALLED: dict[tuple, str] = {}


def settings_for(model_path, tmp_path) -> Settings:
    settings = Settings()
    for role in (settings.models.strong, settings.models.cheap):
        role.path, role.n_ctx, role.n_threads, role.max_tokens = str(model_path), 2048, 2, 48
    settings.backend.prompt_cache = False
    settings.paths.storage = tmp_path
    return settings


def family_key(report) -> tuple:
    return report.family, report.chat_format, report.system, report.empty_tools


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_the_system_text_reaches_the_model_once_and_a_real_call_per_family_completes(name, tmp_path):
    vocab = fixture_gguf(TEMPLATES[name], weights=False)
    llama = Llama(model_path=str(vocab), vocab_only=True, verbose=False)  # as the loader's, without weights
    report = probe(llama, path=str(vocab), setting="[models.cheap]")
    model = LocalChatModel(client=llama, template=report, model_path=str(vocab), verbose=False)
    llm = LLM(settings_for(vocab, tmp_path), tasks=product_tasks(), ledger_path=tmp_path / "llm_calls.jsonl")
    case = load_fixture(TASK).cases[0]
    system = llm.chain.prompts.get(TASK).system.strip()

    sent = model._sent(llm.chain.render(TASK, case.inputs, choices=case.choices))
    prompt = rendered_prompt(llama, as_dicts(sent), **report.render_kwargs)
    assert prompt.count(system) == 1, f"{report.line()}: system text appears {prompt.count(system)} times"
    if name in FOLDED:
        assert report.system is SystemRole.FOLDED, report.line()

    family = family_key(report)
    if family in CALLED:
        return  # its family's real call completed with CALLED[family]
    real = LLM(
        settings_for(fixture_gguf(TEMPLATES[name]), tmp_path),
        tasks=product_tasks(),
        ledger_path=tmp_path / "llm_calls.jsonl",
    )
    assert real._model("cheap").template == report, "the loader decides as the probe of the template did"
    saved = json.loads((tmp_path / "chat_templates.json").read_text(encoding="utf-8"))
    assert saved["cheap"]["system"] == report.system.value
    real.ask(TASK, case.inputs, choices=case.choices)
    line = json.loads((tmp_path / "llm_calls.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert not [e for e in line["errors"] if "model call failed" in e], line["errors"]
    assert line["completion_tokens"] > 0, "the model generated a reply"
    CALLED[family] = name


@pytest.mark.slow
def test_a_gguf_without_a_chat_template_needs_chat_format(tmp_path):
    bare = fixture_gguf(None)
    llm = LLM(settings_for(bare, tmp_path), tasks=product_tasks(), ledger_path=tmp_path / "llm_calls.jsonl")
    with pytest.raises(UserError) as error:
        llm._model("strong")
    assert "[models.strong] chat_format" in str(error.value) and "no chat template" in str(error.value)

    settings = settings_for(bare, tmp_path)
    settings.models.strong.chat_format = settings.models.cheap.chat_format = "chatml"
    forced = LLM(settings, tasks=product_tasks(), ledger_path=tmp_path / "forced.jsonl")
    assert forced._model("strong").template.chat_format == "chatml"
    case = load_fixture(TASK).cases[0]
    forced.ask(TASK, case.inputs, choices=case.choices)
    assert not [e for e in forced.ledger.last["errors"] if "model call failed" in e]
    assert forced.ledger.last["completion_tokens"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(LEFT_OUT))
def test_a_template_that_cannot_chat_is_one_line_naming_chat_format(name, tmp_path):
    template = llama_cpp_templates() / f"{name}.jinja"
    with pytest.raises(UserError) as error:
        LLM(settings_for(fixture_gguf(template), tmp_path), tasks=product_tasks())._model("strong")
    assert "cannot render a conversation" in str(error.value) and "[models.strong] chat_format" in str(error.value)


def test_an_unknown_chat_format_is_one_line_naming_the_key(tmp_path):
    settings = settings_for("unused.gguf", tmp_path)
    settings.models.strong.chat_format = settings.models.cheap.chat_format = "mistral-instruct-v9"
    with pytest.raises(UserError) as error:
        LLM(settings, tasks=product_tasks())._model("strong")
    assert "[models.strong] chat_format = 'mistral-instruct-v9' is not one of" in str(error.value)
    assert "\n" not in str(error.value)
