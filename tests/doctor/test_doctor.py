"""`python -m reverie doctor`: green on the bundled model and on models of other template
families, red with the fix named on a GGUF without a chat template (the real model each time)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from reverie import PROJECT_ROOT
from reverie.cli import main
from tests.llm.chat_templates import OUR_TEMPLATES, fixture_gguf, llama_cpp_templates

pytestmark = pytest.mark.slow

CHECKS = ("model", "gpu", "chat template", "context", "probe call", "prompt cache", "peak memory", "memory", "storage")


def config_for(write_config, tmp_path, model_path: str | None = None) -> str:
    models = "".join(f'[models.{role}]\npath = "{model_path}"\n' for role in ("strong", "cheap")) if model_path else ""
    paths = f'[paths]\nstorage = "{(tmp_path / "storage").as_posix()}"\nprompts = "{(PROJECT_ROOT / "prompts").as_posix()}"\n'
    return str(write_config(paths + models))


def checks_of(output: str) -> dict[str, str]:
    found = {}
    for line in output.splitlines():
        if line[:2] in ("✓ ", "✗ ") and ":" in line:
            found[line[2:].split(":", 1)[0]] = line
    return found


def test_green_on_the_bundled_model(write_config, tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "reverie", "--config", config_for(write_config, tmp_path), "doctor"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    # (torch keeps its own compile cache there; ours is the probe's folder)
    assert list(scratch.glob("reverie-doctor-*")) == [], "doctor left its probe folder behind"
    checks = checks_of(done.stdout)
    assert done.returncode == 0, done.stdout + done.stderr
    assert list(checks) == list(CHECKS) and all(line.startswith("✓") for line in checks.values())
    assert "chatml" in checks["chat template"] and "system text kept" in checks["chat template"]
    assert "none on a GPU" in checks["model"] and "0 of 31 layers on the GPU (n_gpu_layers = 0)" in checks["gpu"]


@pytest.mark.parametrize(
    "template, folded",
    [
        (OUR_TEMPLATES / "mistralai-Mistral-7B-Instruct-v0.2.jinja", "mistral-instruct"),
        ("google-gemma-2-2b-it.jinja", "gemma"),
    ],
)
def test_green_on_other_template_families_with_the_system_text_folded(template, folded, write_config, tmp_path, capsys):
    path = template if not isinstance(template, str) else llama_cpp_templates() / template
    code = main(["--config", config_for(write_config, tmp_path, str(fixture_gguf(path))), "doctor"])
    checks = checks_of(capsys.readouterr().out)
    assert code == 0 and list(checks) == list(CHECKS), checks
    assert folded in checks["chat template"] and "folded into the first user turn" in checks["chat template"]


def test_red_with_the_fix_named_on_a_gguf_without_a_chat_template(write_config, tmp_path, capsys):
    code = main(["--config", config_for(write_config, tmp_path, str(fixture_gguf(None))), "doctor"])
    out = capsys.readouterr().out
    checks = checks_of(out)
    assert code == 1
    assert checks["model"].startswith("✗") and "fix: set [models.strong] chat_format" in checks["model"]
    assert checks["storage"].startswith("✓") and "to fix" in out
