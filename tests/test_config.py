"""config.toml: partial files take defaults; every bad value is one line naming what to fix."""

from __future__ import annotations

import subprocess
import sys

import pytest

from reverie import PROJECT_ROOT
from reverie.config import BUNDLED, ConfigError, load_settings
from reverie.errors import UserError


def error_of(path) -> str:
    with pytest.raises(ConfigError) as info:
        load_settings(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    assert isinstance(info.value, UserError) and info.value.exit_code == 2
    return message


def test_the_shipped_config_loads():
    settings = load_settings(PROJECT_ROOT / "config.toml")
    assert settings.models.strong.path == BUNDLED and settings.paths.prompts == PROJECT_ROOT / "prompts"


def test_a_partial_file_takes_defaults(write_config, tmp_path):
    path = write_config('[models.cheap]\nmax_tokens = 64\n\n[paths]\nstorage = "runs"\n')
    settings = load_settings(path)
    assert settings.models.cheap.max_tokens == 64 and settings.models.strong.max_tokens == 256
    assert settings.repair.max_attempts == 3 and settings.backend.kind == "llama_cpp"
    assert settings.paths.storage == tmp_path / "runs"
    # Keys the file leaves out keep the project's folders, wherever the file lies.
    assert settings.paths.assets == PROJECT_ROOT / "environment/frontend_server/static_dirs/assets"
    assert settings.paths.prompts == PROJECT_ROOT / "prompts"
    assert settings.source == path


def test_the_simulation_debug_log_is_not_djangos_debug(write_config):
    settings = load_settings(write_config("debug = true\n"))
    assert settings.debug is True and settings.frontend.debug is False
    settings = load_settings(write_config("[frontend]\ndebug = true\n"))
    assert settings.debug is False and settings.frontend.debug is True


def test_the_environment_variable_selects_the_file(write_config, monkeypatch):
    path = write_config("debug = true\n", name="other.toml")
    monkeypatch.setenv("REVERIE_CONFIG", str(path))
    assert load_settings().debug is True


@pytest.mark.parametrize(
    "text, expected",
    [
        ("[simulation]\nautosave_every = true\n", ["[simulation] autosave_every:", "(got "]),
        ('debug = "yes"\n', ["debug:", "(got "]),
        ("[frontend]\ndebug = 1\n", ["[frontend] debug:", "(got "]),
        ("[repair]\ngrammar = 0\n", ["[repair] grammar:", "(got "]),
        ("[models.cheap]\nn_ctx = 2048.0\n", ["[models.cheap] n_ctx:", "(got "]),
        ("[models.cheap]\ntemperature = true\n", ["[models.cheap] temperature:", "(got "]),
        ('[models.cheap]\ntemperature = "0.5"\n', ["[models.cheap] temperature:", "(got "]),
        ("[models.strong]\nnctx = 4096\n", ["[models.strong] nctx: unknown key"]),
        ('[repair]\nmax_attempts = "three"\n', ["[repair] max_attempts: Input should be a valid integer"]),
        ("[repair]\nmax_attempts = 0\n", ["[repair] max_attempts: Input should be greater than or equal to 1"]),
        ('[backend]\nkind = "ollama"\n', ["[backend] kind: Input should be 'llama_cpp' or 'openai'"]),
        (
            '[simulation]\nscheduler = "fast"\n',
            ["[simulation] scheduler: Input should be 'lockstep' or 'out_of_order'"],
        ),
        ("[models.strong]\npath = 'models/zephyr.gguf'\n", ["[models.strong] path: no such file"]),
        ("[embeddings]\nmodel = 'nowhere'\n", ["[embeddings] model: no such folder"]),
        ("[repair\nstrict = true\n", ["not valid TOML"]),
    ],
)
def test_bad_values_give_one_line(write_config, text, expected):
    """Types are strict: a value of the wrong type is named with what was given ("(got ..."); any
    other bad value, with what is wrong with it."""
    message = error_of(write_config(text))
    assert [part for part in expected if part not in message] == []


def test_missing_model_file_says_what_to_do(write_config):
    message = error_of(write_config("[models.strong]\npath = 'models/zephyr.gguf'\n"))
    assert "zephyr.gguf" in message and 'set path = "bundled"' in message


def test_a_file_that_is_not_gguf(write_config, tmp_path):
    (tmp_path / "fake.gguf").write_bytes(b"<html>not a model</html>")
    assert "is not a GGUF file" in error_of(write_config("[models.cheap]\npath = 'fake.gguf'\n"))


def test_missing_config_file(tmp_path):
    assert "no such config file" in error_of(tmp_path / "absent.toml")


def test_the_command_line_prints_one_line_and_exits_2(write_config):
    path = write_config("[models.strong]\npath = 'models/zephyr.gguf'\n")
    run = subprocess.run(
        [sys.executable, "-m", "reverie", "--config", str(path), "prompts", "list"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "[models.strong] path: no such file" in lines[0]
