"""Fixtures of the LLM room: the test task's prompt file in tmp, settings, a scripted model."""

from __future__ import annotations

import pytest

from llm_support import PROMPT, TASK, USAGE
from reverie.config import Settings
from reverie.llm.fake_model import FakeChatModel


@pytest.fixture
def prompts_dir(tmp_path):
    folder = tmp_path / "prompts"
    folder.mkdir()
    (folder / f"{TASK}.toml").write_text(PROMPT, encoding="utf-8")
    return folder


@pytest.fixture
def settings(prompts_dir) -> Settings:
    s = Settings()
    s.paths.prompts = prompts_dir
    for role in (s.models.strong, s.models.cheap):
        role.n_ctx, role.n_threads, role.max_tokens, role.temperature = 1024, 2, 48, 0.2
    return s


@pytest.fixture
def scripted():
    """The scripted fake chat model (not a real model): the given replies in order, the last
    one again when they run out; every call is kept in ``.calls``."""

    def make(*replies: str) -> FakeChatModel:
        return FakeChatModel(replies=list(replies), usage=USAGE)

    return make
