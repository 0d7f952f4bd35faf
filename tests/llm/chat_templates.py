"""Test models of other families: the bundled GGUF with another model's real chat template.

The templates come from two places:
- llama.cpp's ``models/templates/`` folder (templates of published models), taken from
  the llama-cpp-python sdist of the pinned version (the source our wheel is built from),
  fetched once from PyPI;
- ``tests/fixtures/chat_templates/``: the original templates of Zephyr-7B-beta,
  Mistral-7B-Instruct v0.1/v0.2 and Phi-3-mini-4k-instruct, which llama.cpp's folder lacks.

Each fixture GGUF is written once by the ``gguf`` package's ``gguf-new-metadata`` and
kept in the user's cache, keyed by the template's hash.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from reverie import PROJECT_ROOT
from reverie.llm.models import bundled_model_path

CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "reverie-test-assets"
OUR_TEMPLATES = PROJECT_ROOT / "tests" / "fixtures" / "chat_templates"
NO_TEMPLATE = "no-chat-template"

# Templates of llama.cpp's folder that cannot serve a plain chat, and why. Loading one is a
# one-line error naming [models.X] chat_format (tested).
LEFT_OUT: dict[str, str] = {
    "fireworks-ai-llama-3-firefunction-v2": "function calling only: it needs the `functions` and `datetime` "
                                            "variables that its own caller supplies",
}


def llama_cpp_version() -> str:
    for line in (PROJECT_ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        found = re.match(r"^llama-cpp-python(?:\[[a-z,]+\])?==(\S+)", line.strip())
        if found:
            return found.group(1)
    raise RuntimeError("llama-cpp-python is not pinned in requirements.txt")


def llama_cpp_templates() -> Path:
    """llama.cpp's ``models/templates`` of the pinned llama-cpp-python sdist (fetched once)."""
    version = llama_cpp_version()
    folder = CACHE / f"llama.cpp-templates-{version}"
    if folder.is_dir() and any(folder.glob("*.jinja")):
        return folder
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
             f"llama-cpp-python=={version}", "-d", tmp],
            check=True, capture_output=True,
        )
        sdist = next(Path(tmp).glob("llama_cpp_python-*.tar.gz"))
        staging = Path(tmp) / "templates"
        staging.mkdir()
        with tarfile.open(sdist) as tar:
            for member in tar.getmembers():
                if "/vendor/llama.cpp/models/templates/" in member.name and member.name.endswith(".jinja") and member.isfile():
                    source = tar.extractfile(member)
                    (staging / Path(member.name).name).write_bytes(source.read() if source else b"")
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging.rename(folder)
    return folder


def template_files() -> dict[str, Path]:
    """``{name: template file}`` of every template tested (llama.cpp's, then ours)."""
    files = {p.stem: p for p in sorted(llama_cpp_templates().glob("*.jinja")) if p.stem not in LEFT_OUT}
    files.update({p.stem: p for p in sorted(OUR_TEMPLATES.glob("*.jinja"))})
    return files


def fixture_gguf(template: Path | None) -> Path:
    """The bundled GGUF with ``template`` as its chat template (None: with none at all)."""
    source = bundled_model_path()
    text = template.read_bytes() if template else b"<none>"
    key = hashlib.sha256(text + str(source.stat().st_size).encode()).hexdigest()[:16]
    target = CACHE / "gguf-templates" / f"{template.stem if template else NO_TEMPLATE}-{key}.gguf"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".part")
    tool = Path(sys.executable).with_name("gguf-new-metadata")
    args = ["--chat-template-file", str(template)] if template else ["--remove-metadata", "tokenizer.chat_template"]
    subprocess.run([str(tool), *args, "--force", str(source), str(partial)], check=True, capture_output=True)
    partial.rename(target)
    return target
