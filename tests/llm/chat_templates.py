"""Test models of other families: the bundled GGUF with another model's real chat template.

The templates come from two places:
- llama.cpp's ``models/templates/`` folder (templates of published models), taken from
  the llama-cpp-python sdist of the pinned version (the source our wheel is built from),
  fetched once from PyPI;
- ``tests/fixtures/chat_templates/``: the original templates of Zephyr-7B-beta,
  Mistral-7B-Instruct v0.1/v0.2 and Phi-3-mini-4k-instruct, which llama.cpp's folder lacks.

Each fixture GGUF is the bundled one's bytes with the template spliced into its metadata
(a copy in well under a second), written once and kept in the user's cache, keyed by the
template's hash; a vocabulary-only one (no tensors, a few MB) serves to render a template.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from functools import lru_cache
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
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "--no-binary",
                ":all:",
                f"llama-cpp-python=={version}",
                "-d",
                tmp,
            ],
            check=True,
            capture_output=True,
        )
        sdist = next(Path(tmp).glob("llama_cpp_python-*.tar.gz"))
        staging = Path(tmp) / "templates"
        staging.mkdir()
        with tarfile.open(sdist) as tar:
            for member in tar.getmembers():
                if (
                    "/vendor/llama.cpp/models/templates/" in member.name
                    and member.name.endswith(".jinja")
                    and member.isfile()
                ):
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


TEMPLATE_KEY = "tokenizer.chat_template"


_SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}  # GGUF value types: bytes
_STRING, _ARRAY = 8, 9


@dataclass(frozen=True)
class _Parts:
    """The bundled GGUF cut where its chat template goes: everything but the template, as bytes."""

    magic_and_version: bytes
    metadata: bytes  # every key/value pair except the chat template(s)
    pairs: int
    tensor_infos: bytes
    tensors: int
    alignment: int
    data_offset: int


def _skip_value(raw: bytes, at: int, kind: int) -> int:
    """The offset just after a value of GGUF type ``kind`` that starts at ``at``."""
    if kind == _STRING:
        return at + 8 + struct.unpack_from("<Q", raw, at)[0]
    if kind == _ARRAY:
        item, count = struct.unpack_from("<IQ", raw, at)
        at += 12
        if item != _STRING and item != _ARRAY:
            return at + count * _SIZES[item]
        for _ in range(count):
            at = _skip_value(raw, at, item)
        return at
    return at + _SIZES[kind]


@lru_cache(maxsize=1)
def _bundled_parts() -> _Parts:
    """The bundled GGUF read by the format's layout (header, key/value pairs, tensor infos, data)."""
    raw = bundled_model_path().read_bytes()
    tensors, pairs = struct.unpack_from("<QQ", raw, 8)
    at, kept, alignment = 24, [], 32
    for _ in range(pairs):
        start = at
        length = struct.unpack_from("<Q", raw, at)[0]
        key = raw[at + 8 : at + 8 + length].decode()
        kind = struct.unpack_from("<I", raw, at + 8 + length)[0]
        at = _skip_value(raw, at + 12 + length, kind)
        if key == "general.alignment":
            alignment = struct.unpack_from("<I", raw, at - 4)[0]
        if not key.startswith(TEMPLATE_KEY):
            kept.append(raw[start:at])
    infos = at
    for _ in range(tensors):
        at += 8 + struct.unpack_from("<Q", raw, at)[0]  # the name
        dims = struct.unpack_from("<I", raw, at)[0]
        at += 4 + 8 * dims + 4 + 8  # the dimensions, the type, the offset
    data_offset = at + (-at % alignment)
    return _Parts(raw[:8], b"".join(kept), len(kept), raw[infos:at], tensors, alignment, data_offset)


def _write_gguf(template: bytes | None, target: Path, *, weights: bool) -> None:
    """The bundled GGUF with ``template`` as its only chat template (None: none), its bytes
    spliced (the tensors' offsets are relative to their section, so they hold); without
    ``weights``: no tensors, for ``Llama(vocab_only=True)``."""
    parts = _bundled_parts()
    metadata, pairs = parts.metadata, parts.pairs
    if template is not None:
        key = TEMPLATE_KEY.encode()
        metadata += struct.pack("<Q", len(key)) + key + struct.pack("<IQ", 8, len(template)) + template  # 8: string
        pairs += 1
    head = parts.magic_and_version + struct.pack("<QQ", parts.tensors if weights else 0, pairs) + metadata
    if weights:
        head += parts.tensor_infos
    head += b"\0" * (-len(head) % parts.alignment)
    with target.open("wb") as out:
        out.write(head)
        if weights:
            with bundled_model_path().open("rb") as source:
                source.seek(parts.data_offset)
                shutil.copyfileobj(source, out, 1 << 24)


def fixture_gguf(template: Path | None, *, weights: bool = True) -> Path:
    """The bundled GGUF with ``template`` as its chat template (None: with none at all);
    without ``weights``: its vocabulary and metadata only (a few MB), enough to render."""
    source = bundled_model_path()
    text = template.read_bytes() if template else b"<none>"
    key = hashlib.sha256(text + str(source.stat().st_size).encode()).hexdigest()[:16]
    kind = "" if weights else "-vocab"
    target = CACHE / "gguf-templates" / f"{template.stem if template else NO_TEMPLATE}-{key}{kind}.gguf"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".part")
    _write_gguf(template.read_bytes() if template else None, partial, weights=weights)
    partial.rename(target)
    return target
