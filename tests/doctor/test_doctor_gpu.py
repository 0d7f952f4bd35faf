"""GPU offload, tested without a GPU: llama.cpp's RPC backend with a real ``ggml-rpc-server`` on
loopback is a device in another process, so every layer of the bundled model can be put there and
`doctor` must see them land; with the same ``n_gpu_layers = -1`` and no device, `doctor` must fail
with the setup command that builds for the GPU. The model runs for real each time."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from reverie import PROJECT_ROOT
from reverie.cli import main
from reverie.config import ConfigError, load_settings
from reverie.llm.offload import Placement, devices, layers_that_fit, read_placement
from tests.loopback_server import rpc_server
from tests.doctor.test_doctor import checks_of, config_for


def gpu_config(write_config, tmp_path, extra: str = "") -> str:
    """The test config of test_doctor with every layer of both roles asked on the GPU (and ``extra``)."""
    base = Path(config_for(write_config, tmp_path)).read_text(encoding="utf-8")
    models = "".join(f"[models.{role}]\nn_gpu_layers = -1\n{extra}" for role in ("strong", "cheap"))
    return str(write_config(base + models))


@pytest.mark.slow
def test_every_layer_on_a_loopback_rpc_server_and_doctor_green(write_config, tmp_path):
    import llama_cpp

    if not llama_cpp.llama_supports_rpc():
        if os.environ.get("CI"):
            pytest.fail("llama-cpp-python has no RPC client, but CI's `.ci/setup --tests` builds it with one")
        pytest.skip("this llama-cpp-python was built without llama.cpp's RPC client — run .ci/setup")
    with rpc_server(tmp_path / "rpc.log") as endpoint:
        config = gpu_config(write_config, tmp_path, f'rpc_servers = "{endpoint}"\n')
        # Its own process: llama.cpp keeps an RPC server's devices for the life of the process.
        done = subprocess.run(
            [sys.executable, "-m", "reverie", "--config", config, "doctor", "--json"],
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            timeout=600,
        )
    checks = checks_of(done.stdout)
    assert done.returncode == 0, done.stdout + done.stderr
    assert all(line.startswith("✓") for line in checks.values()), checks
    gpu = checks["gpu"]
    assert f"RPC0 ({endpoint}" in gpu and "RPC" in gpu.split("built for", 1)[1].split(";")[0]
    landed = re.search(r"strong and cheap: (\d+) of (\d+) layers on the GPU \((\d+) MiB of weights there\)", gpu)
    assert landed and landed[1] == landed[2] and int(landed[1]) > 1 and int(landed[3]) > 0, gpu
    assert f"all {landed[2]} on RPC0" in checks["model"]
    # The grammar-constrained probe was answered validly by the model on the RPC device.
    probe = next(c for c in json.loads(done.stdout.splitlines()[-1]) if c["name"] == "probe call")
    assert "with grammar: valid after" in probe["detail"], probe


@pytest.mark.slow
def test_red_with_the_setup_fix_when_gpu_layers_are_asked_and_there_is_no_device(write_config, tmp_path, capsys):
    if devices():
        pytest.skip(f"this machine has a GPU device ({devices()[0].line()}): the layers land there")
    code = main(["--config", gpu_config(write_config, tmp_path), "doctor"])
    out = capsys.readouterr().out
    checks = checks_of(out)
    assert code == 1, out
    gpu = checks["gpu"]
    assert gpu.startswith("✗ gpu: [models.strong] n_gpu_layers = -1 asks for") and ", 0 landed there" in gpu, gpu
    assert "fix: bash .ci/setup --gpu " in gpu and "rpc_servers" in gpu
    assert "none on a GPU" in checks["model"] and checks["probe call"].startswith("✓")  # the rest still checked


def test_placement_read_from_llamas_load_log():
    log = "".join(
        f"load_tensors: layer {i:3d} assigned to device {'CPU' if i < 20 else 'CUDA0'}, is_swa = 0\n" for i in range(31)
    )
    log += "load_tensors:        CUDA0 model buffer size =    40.00 MiB\nload_tensors:   CPU_Mapped model buffer size =    92.10 MiB\n"
    placement = read_placement(log, Placement(asked=11))
    assert (placement.layers, placement.offloaded, placement.expected) == (31, 11, 11)
    assert placement.summary() == "30 layers + output, 11 of 31 on the GPU (11 on CUDA0)"
    assert placement.buffers == {"CUDA0": 40.0, "CPU_Mapped": 92.1}
    assert read_placement(log, Placement(asked=-1)).expected == 31


def test_layers_that_fit_the_free_memory():
    gib = 1 << 30
    assert layers_that_fit(free=4 * gib, weights=8 * gib, layers=33) == 16
    assert layers_that_fit(free=16 * gib, weights=8 * gib, layers=33) == 33
    assert layers_that_fit(free=0, weights=8 * gib, layers=33) == 0


@pytest.mark.parametrize("servers", ["127.0.0.1", "host:port", "a:1,:2", "h:70000"])
def test_rpc_servers_not_host_port_is_one_line(write_config, servers):
    with pytest.raises(ConfigError) as error:
        load_settings(write_config(f'[models.cheap]\nrpc_servers = "{servers}"\n'))
    assert "[models.cheap] rpc_servers" in str(error.value) and "is not host:port" in str(error.value)
    assert "\n" not in str(error.value)


def test_a_model_too_large_for_the_free_memory_is_told_how_many_layers_fit(write_config, monkeypatch):
    """No small GPU here: the device list is replaced by one 20 MiB device (the one fake in this
    file); the bundled GGUF's real size and layer count decide the answer."""
    from reverie.doctor import doctor_gpu
    from reverie.llm.models import bundled_model_path
    from reverie.llm.offload import Device

    monkeypatch.setattr(doctor_gpu, "devices", lambda: [Device("CUDA0", "a small card", 20 << 20, 24 << 30)])
    settings = load_settings(write_config("[models.strong]\nn_gpu_layers = -1\n"))
    fits = layers_that_fit(20 << 20, bundled_model_path().stat().st_size, 31)
    hint = doctor_gpu.fit_hint(settings)
    assert 0 < fits < 31 and f"CUDA0 has 20 MiB free: about {fits} of 31 layers fit" in hint, hint
    assert f"set [models.strong] n_gpu_layers = {fits - 2} or less" in hint
    monkeypatch.setattr(doctor_gpu, "devices", lambda: [Device("CUDA0", "a large card", 8 << 30, 24 << 30)])
    assert doctor_gpu.fit_hint(settings) is None
