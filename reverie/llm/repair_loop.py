"""The repair loop of one call: ``prompt | model.bind(...) | parser``, again with corrections.

One ask is a small state machine (:class:`Step`); each step is a method that names the next::

    step        what it does                                   next
    ASK         send the conversation so far to the model      VALIDATE; FAIL_SAFE if the call fails
    VALIDATE    parse and check the reply                      VALID (the answer); REFUSED
    REFUSED     weigh the refused reply                        REPAIR; ASK_AFRESH if it repeats an
                                                               earlier one; FAIL_SAFE when out of
                                                               attempts or at a second repeat
    REPAIR      the reply and its correction join the talk     ASK
    ASK_AFRESH  the refused replies are dropped                ASK

ASK renders the prompt (stable text first, the format line and the variable user text last;
a prompt may leave the format line to the grammar, ``format_line_with_grammar``), cuts it to
the context window and sends it to the role's chat model (retried on server failures by
:class:`~reverie.llm.retry_model.RetryingModel`, outside this loop) bound to ``max_tokens``,
the temperature and, with ``[repair] grammar``, the JSON-schema grammar. VALIDATE hands the
reply to the call's :class:`~reverie.llm.reply_parser.ReplyParser`. REPAIR sends a refused
reply back to the model, followed by the parser's correction, up to ``[repair] max_attempts``;
retries sample a little hotter. A reply that repeats an earlier attempt's word for word means
the correction did not reach the model: ASK_AFRESH asks the prompt once more afresh (without
the refused replies, hotter, with another seed), and a second repeat ends the ask. At
FAIL_SAFE the structured chain uses the task's logged fail-safe.

The caller's ``RunnableConfig`` (callbacks, tags, metadata) reaches the chat model and the
parser on every attempt, with ``"prompt"`` and ``"attempt"`` added to its metadata. Record and
replay are not the loop's business: its :mod:`~reverie.llm.model_turn` strategy sends each turn.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum, auto
from typing import Any, cast

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import ensure_config
from pydantic import BaseModel

from reverie.config import Settings
from reverie.llm.model_turn import Turn, model_turns
from reverie.llm.prompt_size import Fitted, estimate_tokens, fit
from reverie.llm.prompt_spec import PromptSpec
from reverie.llm.reply_parser import ReplyParser, ReplyProblems
from reverie.llm.safe_text import clean_str
from reverie.llm.schema import format_instruction, items_asked
from reverie.llm.task import AnyTask

log = logging.getLogger("reverie.llm")

# Temperature added per retry (capped at 1.2).
RETRY_WARMING = 0.3
# A refused reply goes back to the model cut to what its max_tokens could hold, at this many
# characters a token (generous: English runs about 4): a server that ignores max_tokens must not
# push the repair turn past the context window with a reply of 100 KB.
ECHO_CHARS_PER_TOKEN = 6


def render_messages(
    spec: PromptSpec, inputs: dict[str, Any], schema: dict[str, Any], *, grammar: bool = False
) -> list[BaseMessage]:
    """The prompt's messages for these inputs, the format line put before the last user text
    (left out when ``grammar`` holds the reply to the schema and the prompt says it may be)."""
    messages = spec.template().format_messages(**{key: inputs[key] for key in spec.inputs})
    if grammar and not spec.format_line_with_grammar:
        return messages
    user = messages[-1]
    messages[-1] = HumanMessage(content=f"{format_instruction(schema)}\n\n{user.content}")
    return messages


@dataclass
class Outcome:
    result: BaseModel | None = None
    attempts: int = 0
    errors: list[str] = field(default_factory=list)
    trimmed_tokens: int = 0  # prompt tokens cut so that the prompt fits the context window


class Step(Enum):
    """Where one ask stands (the module's table says what each step does and leads to)."""

    ASK = auto()  # send the conversation so far to the model
    VALIDATE = auto()  # parse and check the reply
    REFUSED = auto()  # the reply was refused: repair it, ask afresh, or give up
    REPAIR = auto()  # the refused reply goes back to the model, followed by its correction
    ASK_AFRESH = auto()  # a repeated reply: the prompt again, without the refused replies
    VALID = auto()  # end: a valid reply (Outcome.result)
    FAIL_SAFE = auto()  # end: no valid reply; the chain uses the task's fail-safe


ENDS = (Step.VALID, Step.FAIL_SAFE)


@dataclass
class AskState:
    """What one ask has gathered so far."""

    inputs: dict[str, Any]
    config: RunnableConfig
    base: list[BaseMessage]  # the first attempt's messages
    outcome: Outcome = field(default_factory=Outcome)
    attempt: int = 0
    exchanges: list[BaseMessage] = field(default_factory=list)  # refused replies, each followed by its correction
    refused: list[str] = field(default_factory=list)  # the refused replies' texts (a repeat is spotted here)
    asked_afresh: bool = False  # a repeated reply was answered by asking afresh (once only)
    reply: BaseMessage | None = None  # the latest reply
    shown: dict[str, Any] = field(default_factory=dict)  # the inputs the latest attempt showed
    problems: ReplyProblems | None = None  # why the latest reply was refused

    def reply_text(self) -> str:
        return str(self.reply.content).strip() if self.reply is not None else ""


class RepairLoop(Runnable[dict[str, Any], Outcome]):
    """``invoke(inputs, config) -> Outcome`` for one prompt, schema and set of choices.

    It opens no run of its own: the chat model's and the parser's runs are children of
    whatever run ``config`` belongs to (the structured chain's ask). How each attempt reaches
    the model (live, or through a recording) is its :class:`~reverie.llm.model_turn.ModelTurns`'."""

    def __init__(
        self,
        settings: Settings,
        *,
        task: AnyTask,
        spec: PromptSpec,
        schema: dict[str, Any],
        choices: dict[str, Any],
        model: Callable[[], Runnable[LanguageModelInput, BaseMessage]],
        replaying: bool = False,
    ):
        self.settings, self.task, self.spec, self.schema, self.choices = settings, task, spec, schema, choices
        self.model = model
        self.turns = model_turns(model, replaying=replaying)
        self.steps: dict[Step, Callable[[AskState], Step]] = {
            Step.ASK: self._ask,
            Step.VALIDATE: self._validate,
            Step.REFUSED: self._refused,
            Step.REPAIR: self._repair,
            Step.ASK_AFRESH: self._ask_afresh,
        }

    def invoke(self, input: dict[str, Any], config: RunnableConfig | None = None, **kwargs: Any) -> Outcome:
        state = AskState(inputs=input, config=ensure_config(config), base=self.render(input))
        step = Step.ASK
        while step not in ENDS:
            step = self.steps[step](state)
        return state.outcome

    # -- the steps -------------------------------------------------------------------------

    def _ask(self, state: AskState) -> Step:
        """The next attempt: the prompt and the exchanges so far, sent to the model. A call that
        fails (instructions alone longer than the context window, a server's 400) is not repaired."""
        state.attempt = state.outcome.attempts = state.attempt + 1
        afresh = state.asked_afresh and not state.exchanges  # the turn right after ASK_AFRESH
        try:
            sent, state.shown = self._prompt(state)
            params = self.afresh(state.attempt) if afresh else self.warmer(state.attempt)
            turn = Turn(self.spec.name, state.attempt, sent, [*state.base, *state.exchanges], params)
            state.reply = self.turns.send(turn, self._attempt_config(state.config, state.attempt))
        except ValueError as exc:
            state.outcome.errors.append(f"attempt {state.attempt}: model call failed: {exc}")
            return Step.FAIL_SAFE
        return Step.VALIDATE

    def _validate(self, state: AskState) -> Step:
        """The reply parsed and checked by the call's parser."""
        parser = ReplyParser(
            reply_model=self.task.schema,
            call_schema=self.schema,
            inputs=state.shown,
            choices=self.choices,
            task_name=self.task.name,
            task=self.task,
        )
        assert state.reply is not None  # ASK leads here only with a reply
        content = state.reply.content
        try:
            state.outcome.result = parser.invoke(state.reply, config=self._attempt_config(state.config, state.attempt))
        except ReplyProblems as problems:
            log.debug("prompt %s attempt %d: %r -> %s", self.spec.name, state.attempt, content, problems.problems)
            state.outcome.errors += [f"attempt {state.attempt}: {p}" for p in problems.problems]
            state.problems = problems
            return Step.REFUSED
        log.debug("prompt %s attempt %d: %r -> valid", self.spec.name, state.attempt, content)
        return Step.VALID

    def _refused(self, state: AskState) -> Step:
        """A new refused reply is repaired while attempts are left. A reply that repeats an earlier
        one means the correction did not reach the model: the prompt is asked afresh, once."""
        last = state.attempt == self.settings.repair.max_attempts
        text = state.reply_text()
        if text not in state.refused:
            return Step.FAIL_SAFE if last else Step.REPAIR
        if state.asked_afresh or last:
            state.outcome.errors.append(
                f"attempt {state.attempt}: the same reply as attempt {state.refused.index(text) + 1}; not asked again"
            )
            return Step.FAIL_SAFE
        return Step.ASK_AFRESH

    def _repair(self, state: AskState) -> Step:
        """The refused reply and its correction join the conversation."""
        assert state.reply is not None and state.problems is not None  # REFUSED leads here only with both
        state.refused.append(state.reply_text())
        state.exchanges = [
            *state.exchanges,
            AIMessage(content=self.echoed(state.reply.content)),
            HumanMessage(content=state.problems.observation),
        ]
        return Step.ASK

    def _ask_afresh(self, state: AskState) -> Step:
        """The prompt again without the refused replies, hotter and with another seed."""
        repeated = state.refused.index(state.reply_text()) + 1
        state.outcome.errors.append(
            f"attempt {state.attempt}: the same reply as attempt {repeated}; asked afresh with another seed"
        )
        state.asked_afresh, state.exchanges = True, []
        return Step.ASK

    # -- the parts of one attempt --------------------------------------------------------

    def _attempt_config(self, config: RunnableConfig, attempt: int) -> RunnableConfig:
        """The caller's config for one attempt's runs: its own run's id and name left out."""
        kept = {key: value for key, value in config.items() if key not in ("run_id", "run_name", "metadata")}
        metadata = {**(config.get("metadata") or {}), "prompt": self.spec.name, "attempt": attempt}
        return cast(RunnableConfig, {**kept, "metadata": metadata})

    def render(self, inputs: dict[str, Any]) -> list[BaseMessage]:
        """The first attempt's messages (the format line as the grammar setting decides)."""
        return render_messages(self.spec, inputs, self.schema, grammar=self.settings.repair.grammar)

    def _prompt(self, state: AskState) -> tuple[list[BaseMessage], dict[str, Any]]:
        """The messages to send and the inputs they show: cut to the context window, unless
        the turns are sent uncut."""
        if not self.turns.trims:
            return [*self.render(state.inputs), *state.exchanges], state.inputs
        fitted = self.fitted(state.inputs, state.exchanges)
        if fitted.trimmed_tokens:
            log.info(
                "prompt %s: %d tokens of growing inputs cut to fit the context window",
                self.spec.name,
                fitted.trimmed_tokens,
            )
        state.outcome.trimmed_tokens = max(state.outcome.trimmed_tokens, fitted.trimmed_tokens)
        return fitted.messages, fitted.inputs

    def fitted(self, inputs: dict[str, Any], exchanges: list[BaseMessage]) -> Fitted:
        """The prompt with ``exchanges`` after it, cut to the context window (loads the model)."""
        model = self.model()
        count = getattr(model, "count_prompt_tokens", None) or estimate_tokens
        budget = getattr(self.settings.models, self.spec.role).n_ctx - self.params()["max_tokens"]
        return fit(self.render, inputs, self.task.trim, exchanges, count, budget)

    def echoed(self, content: str | list[str | dict[str, Any]]) -> str:
        """A refused reply as the repair turn shows it: cleaned, and cut to what ``max_tokens`` could hold."""
        text = clean_str(content if isinstance(content, str) else str(content))
        limit = self.max_tokens() * ECHO_CHARS_PER_TOKEN
        return text if len(text) <= limit else text[:limit] + " …"

    def max_tokens(self) -> int:
        return self.spec.reply_tokens(
            getattr(self.settings.models, self.spec.role).max_tokens, items_asked(self.schema)
        )

    def params(self) -> dict[str, Any]:
        """What the model is bound to on a first attempt."""
        params: dict[str, Any] = {"max_tokens": self.max_tokens()}
        if self.spec.temperature is not None:
            params["temperature"] = self.spec.temperature
        if self.spec.repeat_penalty is not None:
            params["repeat_penalty"] = self.spec.repeat_penalty
        if self.settings.repair.grammar:
            params["response_format"] = {"type": "json_object", "schema": self.schema, "name": self.spec.name}
        return params

    def warmer(self, attempt: int) -> dict[str, Any]:
        """Retries sample a little hotter: a small model otherwise repeats its invalid reply."""
        params = self.params()
        if attempt == 1:
            return params
        base = params.get("temperature", getattr(self.settings.models, self.spec.role).temperature)
        return {**params, "temperature": min(1.2, base + RETRY_WARMING * (attempt - 1))}

    def afresh(self, attempt: int) -> dict[str, Any]:
        """The prompt asked again after a repeated reply: hotter still, and another seed (the role's
        seed plus the attempt, so a run stays reproducible)."""
        params = self.warmer(attempt)
        seed = getattr(self.settings.models, self.spec.role).seed
        return {
            **params,
            "temperature": min(1.2, params["temperature"] + RETRY_WARMING),
            "seed": (seed if seed is not None and seed >= 0 else 0) + attempt,
        }
