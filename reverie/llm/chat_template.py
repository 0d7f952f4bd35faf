"""How a loaded GGUF's chat template treats our messages, found out once at load.

llama-cpp-python picks a chat handler when a model loads: one of its built-in formats
(``mistral-instruct``, ``llama-3``, ``chatml``, …, guessed from the GGUF's template or
forced by ``[models.X] chat_format``) or the GGUF's own Jinja template. Some of them drop
the system message without a word (Mistral-Instruct, Phi-3) or refuse it (Gemma). Every
prompt keeps its instructions in the system message, so :func:`probe` renders a probe
conversation through the model's own handler and decides:

- ``SystemRole.KEPT``: the system text reaches the model as is;
- ``SystemRole.FOLDED``: it is folded into the first user turn (:func:`fold_system`),
  and the few-shot turns still alternate user / assistant.

:func:`rendered_prompt` gives the exact text the handler would tokenize, which is also
how the chain measures a prompt against the context window.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from reverie.errors import UserError

DEFAULT_TEMPLATE = "chat_template.default"  # llama-cpp-python's name for the GGUF's own template

# Markers that tell a template family apart (checked in order, on the template text).
_FAMILIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("llama-3", ("<|start_header_id|>",)),
    ("gemma", ("<start_of_turn>",)),
    ("gemma-4", ("<|turn>",)),
    ("glm", ("[gMASK]",)),
    ("kimi", ("<|im_middle|>",)),
    ("minimax", ("]~b]",)),
    ("seed-oss", ("<seed:bos>",)),
    ("nemotron", ("<SPECIAL_1",)),
    ("apertus", ("<|user_start|>",)),
    ("phi-3", ("<|user|>", "<|end|>")),
    ("zephyr", ("<|user|>", "<|assistant|>")),
    ("deepseek", ("<｜User｜>",)),
    ("granite", ("<|start_of_role|>",)),
    ("command-r", ("<|START_OF_TURN_TOKEN|>",)),
    ("gpt-oss (harmony)", ("<|start|>", "<|channel|>")),
    ("mistral", ("[INST]",)),
    ("chatml", ("<|im_start|>",)),
)

_PROBE_SYSTEM = "PROBE-SYSTEM: answer in one word."
_PROBE_TURNS = ("PROBE-USER-1 what is one plus one?", "PROBE-ASSISTANT-1 two", "PROBE-USER-2 and two plus two?")


class SystemRole(enum.Enum):
    KEPT = "kept"
    FOLDED = "folded"

    def describe(self) -> str:
        return "system text kept" if self is SystemRole.KEPT else "system text folded into the first user turn"


@dataclass(frozen=True)
class TemplateReport:
    """What was decided for one loaded model."""

    chat_format: str  # llama-cpp-python's handler name, or DEFAULT_TEMPLATE for the GGUF's Jinja template
    family: str  # e.g. "mistral", "chatml", "unknown"
    system: SystemRole
    reason: str = ""  # why the system text is folded
    # Tool-use templates iterate over ``tools`` and fail on a plain chat's None: they get [].
    empty_tools: bool = False

    @property
    def render_kwargs(self) -> dict[str, Any]:
        return {"tools": []} if self.empty_tools else {}

    def line(self) -> str:
        """``chat template: mistral-instruct (system text folded into the first user turn)``."""
        name = self.chat_format if self.chat_format != DEFAULT_TEMPLATE else f"the GGUF's own ({self.family})"
        reason = f": {self.reason}" if self.reason else ""
        tools = ", an empty tool list for its tool-use template" if self.empty_tools else ""
        return f"chat template: {name} ({self.system.describe()}{reason}{tools})"

    def as_dict(self) -> dict[str, Any]:
        return {
            "chat_format": self.chat_format,
            "family": self.family,
            "system": self.system.value,
            "reason": self.reason,
            "empty_tools": self.empty_tools,
        }


class _Rendered(Exception):
    """Raised by :class:`_Capture` with the prompt text the handler was about to tokenize."""

    def __init__(self, text: str):
        super().__init__("rendered")
        self.text = text


class _Capture:
    """Stands in for the ``Llama`` a chat handler gets: it stops at the first tokenize."""

    def tokenize(self, text: bytes, *args: Any, **kwargs: Any) -> list[int]:
        raise _Rendered(text.decode("utf-8", errors="replace"))

    def __getattr__(self, name: str) -> Any:  # anything else the handler touches first
        raise AttributeError(name)


def family_of(template_text: str | None, chat_format: str) -> str:
    """A family name for the template: built-in formats name themselves."""
    if chat_format != DEFAULT_TEMPLATE:
        return chat_format
    for family, markers in _FAMILIES:
        if template_text and all(marker in template_text for marker in markers):
            return family
    return "unknown"


def handler_of(llama: Any) -> Any:
    """The chat handler ``Llama.create_chat_completion`` would use (same lookup order)."""
    from llama_cpp import llama_chat_format

    return (
        llama.chat_handler
        or llama._chat_handlers.get(llama.chat_format)
        or llama_chat_format.get_chat_completion_handler(llama.chat_format)
    )


def as_dicts(messages: list[BaseMessage]) -> list[dict[str, str]]:
    roles = {"system": "system", "human": "user", "ai": "assistant"}
    return [{"role": roles.get(m.type, m.type), "content": str(m.content)} for m in messages]


def rendered_prompt(llama: Any, messages: list[dict[str, str]], **kwargs: Any) -> str:
    """The exact text the model's chat handler makes of ``messages`` (it may raise ValueError)."""
    handler = handler_of(llama)
    try:
        handler(llama=_Capture(), messages=messages, **kwargs)
    except _Rendered as done:
        return done.text
    except Exception as exc:  # a template's raise_exception, a Jinja error, a handler we cannot drive
        raise ValueError(str(exc) or type(exc).__name__) from None
    raise ValueError(f"the chat handler '{llama.chat_format}' produced no prompt")


def fold_system(messages: list[BaseMessage]) -> list[BaseMessage]:
    """System text put in front of the first user turn; the other turns unchanged."""
    system = "\n\n".join(str(m.content) for m in messages if isinstance(m, SystemMessage))
    rest = [m for m in messages if not isinstance(m, SystemMessage)]
    if not system:
        return rest
    for index, message in enumerate(rest):
        if isinstance(message, HumanMessage):
            rest[index] = HumanMessage(content=f"{system}\n\n{message.content}")
            return rest
    return [HumanMessage(content=system), *rest]


def _probe_messages() -> list[BaseMessage]:
    from langchain_core.messages import AIMessage

    user1, assistant1, user2 = _PROBE_TURNS
    return [
        SystemMessage(content=_PROBE_SYSTEM),
        HumanMessage(content=user1),
        AIMessage(content=assistant1),
        HumanMessage(content=user2),
    ]


def _survives(llama: Any, messages: list[BaseMessage], **kwargs: Any) -> tuple[bool, str]:
    """(system text there exactly once and every turn present, why not)."""
    try:
        text = rendered_prompt(llama, as_dicts(messages), **kwargs)
    except ValueError as exc:
        return False, f'the template raises "{exc}"'
    if text.count(_PROBE_SYSTEM) != 1:
        return (
            False,
            "the template drops the system message" if _PROBE_SYSTEM not in text else "the system text repeats",
        )
    missing = [turn for turn in _PROBE_TURNS if turn not in text]
    if missing:
        return False, f"the template drops a turn ({missing[0]!r})"
    return True, ""


def probe(llama: Any, *, path: str, setting: str) -> TemplateReport:
    """Decide how system text reaches this model. ``setting`` names the config key to fix."""
    template_text = (getattr(llama, "metadata", None) or {}).get("tokenizer.chat_template")
    chat_format = llama.chat_format or DEFAULT_TEMPLATE
    family = family_of(template_text, chat_format)
    first_problem = ""
    probes: tuple[dict[str, Any], ...] = ({}, {"tools": []})
    for kwargs in probes:
        kept, reason = _survives(llama, _probe_messages(), **kwargs)
        if kept:
            return TemplateReport(chat_format, family, SystemRole.KEPT, empty_tools=bool(kwargs))
        folded, problem = _survives(llama, fold_system(_probe_messages()), **kwargs)
        if folded:
            return TemplateReport(chat_format, family, SystemRole.FOLDED, reason, empty_tools=bool(kwargs))
        first_problem = first_problem or problem
    raise UserError(
        f"the chat template of '{path}' ({chat_format}) cannot render a conversation ({first_problem}) — "
        f'set {setting} chat_format to one of llama-cpp-python\'s formats, e.g. "chatml"'
    )


def known_formats() -> list[str]:
    """Every chat format name llama-cpp-python can force."""
    from llama_cpp import llama_chat_format

    return sorted(llama_chat_format.LlamaChatCompletionHandlerRegistry()._chat_handlers)
