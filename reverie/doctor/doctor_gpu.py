"""The GPU check of `python -m reverie doctor`: no silent CPU fallback.

It names the backends llama.cpp was built for, the devices it sees (with their free memory) and
the layers of each role on them. A role that asks GPU layers (``n_gpu_layers`` other than 0)
and got fewer than it asked fails, with the fix: the setup command that builds for the GPU, a
driver to check, or memory to free. After a model failed to load with GPU layers,
:func:`fit_hint` says how many layers would fit the devices' free memory.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import NamedTuple

from reverie.config import Settings
from reverie.llm.offload import Placement, backends, devices, layers_that_fit, size

NOT_GPU = {"CPU", "RPC", "BLAS"}  # backends of a build that has no GPU of its own


class Verdict(NamedTuple):
    ok: bool
    detail: str
    fix: str = ""


def setup_fix() -> str:
    """The setup command that builds llama.cpp for this machine's GPU."""
    if shutil.which("nvidia-smi"):
        return "bash .ci/setup --gpu cuda (nvidia-smi is here)"
    if sys.platform == "darwin":
        return "bash .ci/setup --gpu metal"
    if shutil.which("vulkaninfo"):
        return "bash .ci/setup --gpu vulkan"
    return "bash .ci/setup --gpu cuda (NVIDIA), --gpu vulkan (AMD, Intel) or --gpu metal (Apple), on the machine with the GPU"


def check(settings: Settings, placements: dict[str, Placement]) -> Verdict:
    built, found = backends(), devices()
    head = f"llama.cpp built for {', '.join(built) or 'an unknown backend'}; "
    head += f"devices: {'; '.join(d.line() for d in found)}" if found else "no GPU device"
    roles: dict[int, list[str]] = {}
    for role, placement in placements.items():
        roles.setdefault(id(placement), []).append(role)
    lines, short = [], []
    for same in roles.values():
        placement, asked = placements[same[0]], getattr(settings.models, same[0]).n_gpu_layers
        lines.append(
            f"{' and '.join(same)}: {placement.offloaded} of {placement.layers} layers on the GPU"
            f"{_weights(placement)} (n_gpu_layers = {asked})"
        )
        if asked != 0 and placement.offloaded < placement.expected:
            short.append((same[0], asked, placement))
    detail = "; ".join([head, *lines])
    if not short:
        if found and not any(getattr(settings.models, r).n_gpu_layers for r in placements):
            detail += " — set n_gpu_layers = -1 to use them"
        return Verdict(True, detail)
    role, asked, placement = short[0]
    setting = f"[models.{role}]"
    said = (
        f"{setting} n_gpu_layers = {asked} asks for {placement.expected} layers on a GPU, "
        f"{placement.offloaded} landed there ({head})"
    )
    own_gpu = [b for b in built if b not in NOT_GPU]
    if found:
        fix = (
            f"free memory on {', '.join(d.name for d in found)}, or set {setting} n_gpu_layers = {placement.offloaded}"
        )
    elif own_gpu:
        driver = " (nvidia-smi must list the card)" if "CUDA" in own_gpu else ""
        fix = f"llama.cpp was built for {', '.join(own_gpu)} but finds no device: check the driver{driver}, or set {setting} n_gpu_layers = 0"
    else:
        fix = f"{setup_fix()}; or set {setting} rpc_servers to a llama.cpp RPC server, or n_gpu_layers = 0"
    return Verdict(False, said, fix)


def _weights(placement: Placement) -> str:
    on_gpu = sum(mib for name, mib in placement.buffers.items() if not name.startswith("CPU"))
    return f" ({on_gpu:.0f} MiB of weights there)" if on_gpu else ""


def fit_hint(settings: Settings) -> str | None:
    """After a failed load: how many layers of the first role asking GPU layers fit the free memory,
    when fewer than it asks (the weights only; the KV cache takes some more)."""
    from llama_cpp import Llama

    from reverie.llm.models import ROLES, model_path

    found = devices()
    free = sum(d.free for d in found)
    for role in ROLES:
        model = getattr(settings.models, role)
        path = model_path(model)
        if not model.n_gpu_layers or not found or not free or not Path(path).is_file():
            continue
        try:
            meta = Llama(str(path), vocab_only=True, n_ctx=256, verbose=False).metadata
            layers = int(meta[f"{meta['general.architecture']}.block_count"]) + 1
        except (ValueError, RuntimeError, OSError, KeyError):
            continue
        weights = path.stat().st_size
        asked = layers if model.n_gpu_layers < 0 else min(model.n_gpu_layers, layers)
        fits = layers_that_fit(free, weights, layers)
        if fits < asked:
            names = ", ".join(d.name for d in found)
            return (
                f"the weights of {path.name} take {size(weights)} and {names} "
                f"{'has' if len(found) == 1 else 'have'} {size(free)} free: about {fits} of {layers} layers "
                f"fit before the KV cache, so set [models.{role}] n_gpu_layers = {max(fits - 2, 0)} or less"
            )
    return None
