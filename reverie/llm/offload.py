"""Where llama.cpp puts a model's layers: the devices this build sees, llama.cpp's RPC servers,
and the layers each loaded model placed on them.

llama-cpp-python's Python API names neither devices nor RPC servers, so this module speaks to
ggml's backend registry (``libggml``, shipped beside ``libllama`` in the llama_cpp package)
through ctypes, as llama.cpp's own tools do for ``--rpc``:

- :func:`add_rpc_servers` registers the devices of ``host:port`` servers (llama.cpp's
  ``ggml-rpc-server``) before a model loads; every later load that asks GPU layers in this
  process puts them there, as with a local GPU;
- :func:`devices` lists the GPU and RPC devices with their free memory, :func:`backends` the
  backends the build has (CPU, RPC, CUDA, Vulkan, Metal…);
- :func:`capture_placement` reads llama.cpp's load log: which device each layer went to.
"""

from __future__ import annotations

import ctypes
import re
import socket
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from reverie.errors import UserError

GIB = 1 << 30
GPU_TYPES = (1, 2)  # ggml_backend_dev_type: GPU, IGPU (CPU = 0, ACCEL = 3)
_LAYER_LINE = re.compile(r"layer\s+(\d+) assigned to device (\S+?),")
_BUFFER_LINE = re.compile(r"load_tensors:\s+(\S+) model buffer size =\s+([\d.]+) MiB")
_added: set[str] = set()
_lock = threading.Lock()


@dataclass(frozen=True)
class Device:
    name: str  # llama.cpp's: CUDA0, Vulkan0, MTL0, RPC0…
    description: str  # the card, or the RPC server's host:port
    free: int  # bytes; 0 when the backend does not say
    total: int

    def line(self) -> str:
        memory = f", {size(self.free)} of {size(self.total)} free" if self.total else ""
        return f"{self.name} ({self.description}{memory})"


def size(n: int) -> str:
    """``"23.5 GiB"``, ``"92 MiB"``."""
    return f"{n / GIB:.1f} GiB" if n >= GIB else f"{n / (1 << 20):.0f} MiB"


@dataclass
class Placement:
    """The layers of one loaded model by device, as llama.cpp counts them (the repeating layers
    and the output layer; ``n_gpu_layers = -1`` asks for all of them)."""

    asked: int  # n_gpu_layers
    by_device: dict[str, int] = field(default_factory=dict)
    buffers: dict[str, float] = field(default_factory=dict)  # MiB of weights per buffer (CPU_Mapped, RPC0…)

    @property
    def layers(self) -> int:
        return sum(self.by_device.values())

    @property
    def offloaded(self) -> int:
        return sum(n for device, n in self.by_device.items() if device != "CPU")

    @property
    def expected(self) -> int:
        return self.layers if self.asked < 0 else min(self.asked, self.layers)

    def summary(self) -> str:
        """``"30 layers + output, all 31 on RPC0"``, ``"… none on a GPU"``."""
        where = ", ".join(f"{n} on {d}" for d, n in self.by_device.items() if d != "CPU")
        if not self.offloaded:
            placed = "none on a GPU"
        elif self.offloaded == self.layers:
            placed = f"all {self.layers} on {', '.join(d for d in self.by_device if d != 'CPU')}"
        else:
            placed = f"{self.offloaded} of {self.layers} on the GPU ({where})"
        return f"{max(self.layers - 1, 0)} layers + output, {placed}"


@lru_cache(maxsize=1)
def _ggml() -> Any:
    """libggml as llama_cpp loaded it (the same library: the registry is shared), or None."""
    import llama_cpp

    folder = Path(llama_cpp.__file__).parent / "lib"
    # The wheel holds copies (libggml.so, .so.0, …), not links: only the file libllama loaded shares its registry.
    names = {"darwin": ["libggml.0.dylib", "libggml.dylib"], "win32": ["ggml.dll"]}.get(sys.platform, ["libggml.so.0"])
    found = _mapped("libggml.so") or next((folder / n for n in names if (folder / n).exists()), None)
    if found is None:
        return None
    lib = ctypes.CDLL(str(found))
    vp, sz, cp = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p
    for name, restype, argtypes in (
        ("ggml_backend_reg_count", sz, []),
        ("ggml_backend_reg_get", vp, [sz]),
        ("ggml_backend_reg_name", cp, [vp]),
        ("ggml_backend_reg_by_name", vp, [cp]),
        ("ggml_backend_reg_get_proc_address", vp, [vp, cp]),
        ("ggml_backend_register", None, [vp]),
        ("ggml_backend_dev_count", sz, []),
        ("ggml_backend_dev_get", vp, [sz]),
        ("ggml_backend_dev_name", cp, [vp]),
        ("ggml_backend_dev_description", cp, [vp]),
        ("ggml_backend_dev_type", ctypes.c_int, [vp]),
        ("ggml_backend_dev_memory", None, [vp, ctypes.POINTER(sz), ctypes.POINTER(sz)]),
    ):
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes
    return lib


def _mapped(name: str) -> Path | None:
    """The file of the library ``name`` (or ``name.N``) this process has loaded, where /proc says."""
    try:
        lines = Path("/proc/self/maps").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        path = Path(line.split(maxsplit=5)[-1]) if line.count(" ") >= 5 else None
        if path is not None and (path.name == name or path.name.startswith(name + ".")):
            return path
    return None


def backends() -> list[str]:
    """The backends this llama.cpp build has: ``["CPU", "RPC"]``, ``["CUDA", "CPU", "RPC"]``…"""
    lib = _ggml()
    if lib is None:
        return []
    names = [
        lib.ggml_backend_reg_name(lib.ggml_backend_reg_get(i)).decode() for i in range(lib.ggml_backend_reg_count())
    ]
    return list(dict.fromkeys("RPC" if n.startswith("RPC[") else n for n in names))


def devices() -> list[Device]:
    """The GPU devices llama.cpp can put layers on (an RPC server's device counts as one)."""
    lib = _ggml()
    if lib is None:
        return []
    found = []
    for i in range(lib.ggml_backend_dev_count()):
        dev = lib.ggml_backend_dev_get(i)
        if lib.ggml_backend_dev_type(dev) not in GPU_TYPES:
            continue
        free, total = ctypes.c_size_t(0), ctypes.c_size_t(0)
        lib.ggml_backend_dev_memory(dev, ctypes.byref(free), ctypes.byref(total))
        found.append(
            Device(
                lib.ggml_backend_dev_name(dev).decode(),
                lib.ggml_backend_dev_description(dev).decode(),
                free.value,
                total.value,
            )
        )
    return found


def add_rpc_servers(servers: str, setting: str) -> None:
    """Register the devices of each ``host:port`` in ``servers`` (comma-separated), once per process.

    llama.cpp ends the process when a server cannot be reached, so each one is tried first."""
    lib = _ggml()
    registry = lib.ggml_backend_reg_by_name(b"RPC") if lib is not None else None
    if not registry:
        raise UserError(
            f"{setting} rpc_servers is set, but this llama-cpp-python was built without llama.cpp's "
            "RPC client — run `bash .ci/setup` again (every build it makes has it)"
        )
    add = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_char_p)(
        lib.ggml_backend_reg_get_proc_address(registry, b"ggml_backend_rpc_add_server")
    )
    with _lock:
        for endpoint in (s.strip() for s in servers.split(",")):
            if endpoint in _added:
                continue
            host, port = endpoint.rsplit(":", 1)
            try:
                socket.create_connection((host, int(port)), timeout=5).close()
            except OSError as exc:
                raise UserError(
                    f"the RPC server {endpoint} cannot be reached ({exc.strerror or exc}) — start "
                    f"`ggml-rpc-server -H <its address> -p {port}` there, or fix {setting} rpc_servers"
                ) from None
            server = add(endpoint.encode())
            if not server:
                raise UserError(f"the RPC server {endpoint} offers no device — check the ggml-rpc-server running there")
            lib.ggml_backend_register(server)
            _added.add(endpoint)


@contextmanager
def capture_placement(asked: int) -> Iterator[Placement]:
    """Read llama.cpp's log while a model loads (inside the block); fill the yielded Placement after."""
    import llama_cpp
    from llama_cpp import _logger

    placement = Placement(asked=asked)
    text: list[str] = []

    @llama_cpp.llama_log_callback
    def keep(level: int, message: bytes, user_data: Any) -> None:
        text.append(message.decode("utf-8", "replace"))
        _logger.llama_log_callback(level, message, user_data)  # llama-cpp-python's own (prints when verbose)

    with _lock:
        llama_cpp.llama_log_set(keep, ctypes.c_void_p(0))
        try:
            yield placement
        finally:
            llama_cpp.llama_log_set(_logger.llama_log_callback, ctypes.c_void_p(0))
    read_placement("".join(text), placement)


def read_placement(log: str, placement: Placement) -> Placement:
    """Fill ``placement`` from llama.cpp's load log ("layer N assigned to device D", "D model buffer size")."""
    for _, device in sorted({int(i): d for i, d in _LAYER_LINE.findall(log)}.items()):
        placement.by_device[device] = placement.by_device.get(device, 0) + 1
    placement.buffers = {name: float(mib) for name, mib in _BUFFER_LINE.findall(log)}
    return placement


def layers_that_fit(free: int, weights: int, layers: int) -> int:
    """How many of ``layers`` (sharing ``weights`` bytes evenly) fit in ``free`` bytes, before the KV cache."""
    if layers <= 0 or weights <= 0:
        return 0
    return max(0, min(layers, int(free // (weights / layers))))
