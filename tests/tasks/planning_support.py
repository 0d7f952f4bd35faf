"""Test helpers for the planning/acting prompt units: the real LLM facade over the scripted
fake chat model (:class:`reverie.llm.fake_model.FakeChatModel`, not a real model).

The fake returns fixed replies in order (the last one again when they run out) and records
every call, so a test can check what a unit sent and how it post-processes the answer,
including the fail-safe path when every reply is wrong.
"""

from __future__ import annotations

from reverie import PROJECT_ROOT
from reverie.config import Settings
from reverie.llm import LLM
from reverie.llm.fake_model import FakeChatModel
from reverie.prompt_tools.evaluate import read_ledger
from reverie.sim_layout import SimLayout
from reverie.tasks.decide_reaction import Meeting
from reverie.tasks.registry import product_tasks

# The acting prompts of the one-prompt-per-question pipeline, in the order a step asks them: where
# the action goes, its emoji, its event, its object's state and that object's event.
ACTION_PROMPTS = (
    "action_sector",
    "action_arena",
    "action_object",
    "pronunciatio",
    "event_triple",
    "act_obj_desc",
    "act_obj_event_triple",
)

# A meeting for each reaction prompt (decide_to_talk, decide_to_react), and what each is doing for the second.
TALK = Meeting(
    init_name="Isabella Rodriguez",
    target_name="Klaus Mueller",
    context="Klaus Mueller is a regular customer.",
    now="February 13, 2023, 12:10:00 PM",
    init_status="Isabella Rodriguez is already working at the counter",
    target_status="Klaus Mueller is already eating lunch",
)
REACT = Meeting(
    init_name="Maria Lopez",
    target_name="Klaus Mueller",
    context="",
    now="February 13, 2023, 08:05:00 AM",
    init_status="Maria Lopez is on the way to taking a shower",
    target_status="Klaus Mueller is already taking a shower",
)
REACT_ACTS = dict(init_act="taking a shower", target_act="taking a shower")


def scripted_llm(*replies: str, ledger_path=None) -> tuple[LLM, FakeChatModel]:
    """The real facade (real prompt files, schemas, repair loop) over a scripted chat model."""
    settings = Settings()
    settings.paths.prompts = PROJECT_ROOT / "prompts"
    model = FakeChatModel(replies=list(replies))
    return LLM(
        settings, tasks=product_tasks(), chat_models={"strong": model, "cheap": model}, ledger_path=ledger_path
    ), model


def traced_llm(settings: Settings, layout: SimLayout, replies: list[str]) -> LLM:
    """The real facade over a scripted chat model (``replies`` in order), accounting and tracing
    its calls into ``layout``'s run."""
    model = FakeChatModel(replies=replies)
    return LLM(
        settings,
        tasks=product_tasks(),
        chat_models={"strong": model, "cheap": model},
        ledger_path=layout.ledger_path,
        trace_path=layout.trace_path,
    )


def last_user_text(model: FakeChatModel, call: int = -1) -> str:
    return model.calls[call].user_text


def call_schema(model: FakeChatModel, call: int = -1) -> dict:
    return model.calls[call].kwargs["response_format"]["schema"]


def answered(llm: LLM, prompt: str) -> bool:
    """The latest ask of ``prompt`` took the model's own reply (checked, perhaps after a
    correction), not its fail-safe: what a test on a real model can assert about the model."""
    lines = [line for line in read_ledger(llm.ledger.path) if line["prompt"] == prompt]
    return bool(lines) and not lines[-1]["fallback"]
