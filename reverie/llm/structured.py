"""The structured chain: prompt file + task schema -> a checked Pydantic object.

For one ``ask``: render the prompt (stable text first, the format line and the variable
user text last), call the role's chat model with ``max_tokens`` and, when
``[repair] grammar`` is on, a JSON-schema grammar; parse and validate the reply; on
problems, append the reply and a correction message and call again, up to
``[repair] max_attempts``. Out of attempts: the task's fail-safe (logged), or
:class:`StructuredOutputError` with ``[repair] strict``. Every ask is accounted in the
ledger; a cassette can record or replay the raw replies.
"""

from __future__ import annotations

import copy
import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import Runnable, RunnableConfig
from pydantic import BaseModel, ValidationError

from reverie.config import Settings
from reverie.errors import UserError
from reverie.llm.cassette import Cassette
from reverie.llm.corrections import WHOLE, Problem, correction_message, from_validation_error, not_json
from reverie.llm.fail_safe_guard import fail_safe as guarded_fail_safe
from reverie.llm.ledger import Ledger
from reverie.llm.prompt_size import Fitted, estimate_tokens, fit
from reverie.llm.prompt_spec import PromptSpec, PromptStore
from reverie.llm.reasoning import without_reasoning
from reverie.llm.safe_text import clean
from reverie.llm.server_errors import BackendLost, call_with_retries
from reverie.llm.servers import current_persona
from reverie.llm.schema import NoChoices, call_schema, canonical_choices, choice_problems, format_instruction
from reverie.llm.task import Task, TaskRegistry

log = logging.getLogger("reverie.llm")

# Temperature added per retry (capped at 1.2).
RETRY_WARMING = 0.3


class StructuredOutputError(UserError):
    """Strict mode: the model gave no valid reply within the allowed attempts."""


def extract_json(text: str) -> str:
    """The JSON object in a reply (tolerates code fences and text around it)."""
    text = text.strip()
    if text.startswith("```"):
        text = text.strip("`").removeprefix("json").strip()
    start, end = text.find("{"), text.rfind("}")
    candidate = text[start : end + 1] if start != -1 and end > start else text
    try:
        json.loads(candidate, strict=False)  # raises ValueError with the position of the problem
    except RecursionError:
        raise ValueError("the JSON is nested too deeply; answer with one flat object") from None
    return candidate


@dataclass
class _Outcome:
    result: BaseModel | None = None
    attempts: int = 0
    errors: list[str] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int | None = 0  # None once a reply did not say (e.g. a server that does not report it)
    trimmed_tokens: int = 0  # prompt tokens cut so that the prompt fits the context window


class StructuredChain(Runnable[dict, BaseModel]):
    """``invoke({"name", "inputs", "choices"?, "persona"?}) -> the task's schema instance``."""

    def __init__(
        self,
        settings: Settings,
        *,
        models: Callable[[str], BaseChatModel],
        prompts: PromptStore,
        ledger: Ledger,
        cassette: Cassette | None = None,
        tasks: TaskRegistry,
        clock: Callable[[], tuple[Any, Any]] = lambda: (None, None),
    ):
        self.settings, self.models, self.prompts, self.tasks = settings, models, prompts, tasks
        self.ledger, self.cassette, self.clock = ledger, cassette, clock
        # Set once the model server cannot be reached: later asks use their fail-safe at once
        # and the run saves and stops after the step (see reverie.llm.server_errors).
        self.backend_lost: BackendLost | None = None

    def invoke(self, input: dict, config: RunnableConfig | None = None, **kwargs: Any) -> BaseModel:
        return self.ask(input["name"], input["inputs"], choices=input.get("choices"), persona=input.get("persona"))

    def ask(self, name: str, inputs: dict, *, choices: dict | None = None, persona: str | None = None) -> BaseModel:
        task, spec = self.task(name), self.prompts.get(name)
        inputs = copy.deepcopy(dict(inputs))
        choices = {key: list(values) for key, values in (choices or {}).items()}
        missing = [key for key in spec.inputs if key not in inputs]
        if missing:
            raise ValueError(f"prompt {name!r} needs inputs {missing}")

        started = time.perf_counter()
        outcome = _Outcome()
        try:
            schema = call_schema(task.schema, choices)
        except NoChoices as exc:
            outcome.errors.append(str(exc))
        else:
            asking = current_persona.set(persona)  # a multi-slot server keeps each persona on its slot
            try:
                self._attempts(task, spec, schema, inputs, choices, outcome)
            finally:
                current_persona.reset(asking)
        step, game_time = self.clock()
        entry = dict(
            prompt=name, role=spec.role, persona=persona, step=step, game_time=game_time,
            attempts=outcome.attempts, errors=outcome.errors, prompt_tokens=outcome.prompt_tokens,
            completion_tokens=outcome.completion_tokens,
            cached_tokens=outcome.cached_tokens if outcome.attempts else None, latency_s=round(time.perf_counter() - started, 3),
            trimmed_tokens=outcome.trimmed_tokens,
        )
        if outcome.result is not None:
            self.ledger.record(valid=True, fallback=False, **entry)
            return outcome.result
        if self.settings.repair.strict:
            self.ledger.record(valid=False, fallback=False, **entry)
            raise StructuredOutputError(
                f"prompt '{name}': no valid reply after {outcome.attempts} attempt(s) — {' | '.join(outcome.errors[-3:])}"
            )
        log.warning("prompt %s: fail-safe used after %d attempt(s): %s", name, outcome.attempts, outcome.errors)
        self.ledger.record(valid=False, fallback=True, **entry)
        return guarded_fail_safe(task, inputs, choices)

    def task(self, name: str) -> Task:
        """The task named ``name``, its prompt file checked to list exactly the task's inputs."""
        task = self.tasks[name]
        task.check_prompt(self.prompts.get(name))
        return task

    def render(self, name: str, inputs: dict, *, choices: dict | None = None) -> list[BaseMessage]:
        """The messages of a first attempt, exactly as the model would get them."""
        spec = self.prompts.get(name)
        return self._render(spec, inputs, call_schema(self.task(name).schema, choices))

    def max_tokens(self, name: str) -> int:
        """The reply limit of one call of this prompt."""
        spec = self.prompts.get(name)
        return spec.max_tokens or getattr(self.settings.models, spec.role).max_tokens

    def measure(self, name: str, inputs: dict, *, choices: dict | None = None) -> Fitted:
        """The first attempt's prompt as it would be sent: cut to the context window, with
        the tokens it had before (``prompt_tokens + trimmed_tokens``). Loads the model."""
        task, spec = self.task(name), self.prompts.get(name)
        schema = call_schema(task.schema, choices)
        params = self._params(spec, schema)
        return self._fitted(task, spec, schema, dict(inputs), [], params)

    # -- one ask -----------------------------------------------------------------------

    def _attempts(self, task: Task, spec: PromptSpec, schema: dict, inputs: dict, choices: dict, outcome: _Outcome) -> None:
        base = self._render(spec, inputs, schema)
        exchanges: list[BaseMessage] = []  # the replies so far, each followed by its correction
        params = self._params(spec, schema)
        for attempt in range(1, self.settings.repair.max_attempts + 1):
            if self.backend_lost is not None:
                outcome.errors.append(f"attempt {attempt}: not asked, the model server is unreachable")
                return
            outcome.attempts = attempt
            conversation = [*base, *exchanges]  # what the cassette keys on, trimmed or not
            try:
                sent, seen_inputs = self._fit(task, spec, schema, inputs, exchanges, params, outcome)
                reply = self._call(spec, conversation, attempt, params, sent)
            except ValueError as exc:  # e.g. instructions alone longer than the context window, a server's 400
                outcome.errors.append(f"attempt {attempt}: model call failed: {exc}")
                return
            except BackendLost as exc:
                self.backend_lost = exc
                outcome.errors.append(f"attempt {attempt}: model call failed: {exc}")
                return
            usage = reply.usage_metadata or {}
            outcome.prompt_tokens += usage.get("input_tokens", 0)
            outcome.completion_tokens += usage.get("output_tokens", 0)
            cached = (usage.get("input_token_details") or {}).get("cache_read")
            outcome.cached_tokens = None if cached is None or outcome.cached_tokens is None else outcome.cached_tokens + cached
            result, problems = self._check(task, schema, reply, seen_inputs, choices)
            log.debug("prompt %s attempt %d: %r -> %s", spec.name, attempt, reply.content, problems or "valid")
            if not problems:
                outcome.result = result
                return
            outcome.errors += [f"attempt {attempt}: {p}" for p in problems]
            exchanges = [*exchanges, AIMessage(content=clean(reply.content)), HumanMessage(content=correction_message(problems))]

    def _fit(self, task: Task, spec: PromptSpec, schema: dict, inputs: dict, exchanges: list[BaseMessage],
             params: dict, outcome: _Outcome) -> tuple[list[BaseMessage], dict]:
        """The messages to send and the inputs they show, cut to the context window."""
        if self.cassette and self.cassette.replaying:
            return [*self._render(spec, inputs, schema), *exchanges], inputs
        fitted = self._fitted(task, spec, schema, inputs, exchanges, params)
        if fitted.trimmed_tokens:
            log.info("prompt %s: %d tokens of growing inputs cut to fit the context window", spec.name, fitted.trimmed_tokens)
        outcome.trimmed_tokens = max(outcome.trimmed_tokens, fitted.trimmed_tokens)
        return fitted.messages, fitted.inputs

    def _fitted(self, task: Task, spec: PromptSpec, schema: dict, inputs: dict, exchanges: list[BaseMessage],
                params: dict) -> Fitted:
        model = self.models(spec.role)
        count = getattr(model, "count_prompt_tokens", None) or estimate_tokens
        budget = getattr(self.settings.models, spec.role).n_ctx - params["max_tokens"]
        return fit(lambda shown: self._render(spec, shown, schema), inputs, task.trim, exchanges, count, budget)

    def _render(self, spec: PromptSpec, inputs: dict, schema: dict) -> list[BaseMessage]:
        messages = spec.template().format_messages(**{key: inputs[key] for key in spec.inputs})
        user = messages[-1]
        messages[-1] = HumanMessage(content=f"{format_instruction(schema)}\n\n{user.content}")
        return messages

    def _params(self, spec: PromptSpec, schema: dict) -> dict:
        params: dict[str, Any] = {"max_tokens": self.max_tokens(spec.name)}
        if spec.temperature is not None:
            params["temperature"] = spec.temperature
        if self.settings.repair.grammar:
            params["response_format"] = {"type": "json_object", "schema": schema, "name": spec.name}
        return params

    def _warmer(self, spec: PromptSpec, params: dict, attempt: int) -> dict:
        """Retries sample a little hotter: a small model otherwise repeats its invalid reply."""
        if attempt == 1:
            return params
        base = params.get("temperature", getattr(self.settings.models, spec.role).temperature)
        return {**params, "temperature": min(1.2, base + RETRY_WARMING * (attempt - 1))}

    def _call(self, spec: PromptSpec, conversation: list[BaseMessage], attempt: int, params: dict,
              sent: list[BaseMessage]) -> AIMessage:
        """``sent`` goes to the model; the cassette keys on the untrimmed ``conversation``."""
        if self.cassette and self.cassette.replaying:
            return self.cassette.replay(spec.name, conversation, attempt)
        model, backend = self.models(spec.role), self.settings.backend
        reply = call_with_retries(lambda: model.invoke(sent, **self._warmer(spec, params, attempt)),
                                  server=backend.kind == "openai", where=backend.base_url,
                                  retries=backend.retries, first_pause_s=backend.retry_pause_s)
        if self.cassette:
            self.cassette.record(spec.name, conversation, attempt, reply)
        return reply

    @staticmethod
    def _check(task: Task, schema: dict, reply: AIMessage, inputs: dict, choices: dict) -> tuple[BaseModel | None, list[Problem]]:
        text = without_reasoning(reply.content if isinstance(reply.content, str) else json.dumps(reply.content))
        try:
            raw = extract_json(text)
            # strict=False: the grammar lets raw newlines into strings; they are harmless text here.
            data = clean(json.loads(raw, strict=False))
        except ValueError as exc:
            cut_off = (reply.response_metadata or {}).get("finish_reason") == "length"
            return None, [not_json(str(exc), cut_off)]
        try:
            data = canonical_choices(schema, data, choices)
            problems = choice_problems(schema, data, choices)
            result = task.validate(data, inputs, choices)
        except ValidationError as exc:
            return None, from_validation_error(exc) + problems
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError, RecursionError) as exc:
            # Any reply the checks cannot handle is a correction for the model, never a crash.
            log.warning("prompt %s: reply could not be checked (%s: %s)", task.name, type(exc).__name__, exc)
            return None, [Problem(WHOLE, "this reply could not be read as the object described; "
                                         "answer with one JSON object with exactly the fields asked for")]
        return (None if problems else result), problems

