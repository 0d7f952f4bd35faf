"""One run over several OpenAI-compatible servers (``[[backend.servers]]``).

Each server keeps its own :class:`~reverie.llm.server_chat_model.ServerChatModel` per role, so
each gets the structured-output request its kind documents (llama-server's grammar, vLLM's,
Ollama's and LM Studio's ``json_schema``) exactly as a one-server run sends it. A
:class:`RoutedChatModel` per role stands in front of them and picks, for each call:

- the persona's own server (its first server, chosen least busy): a resident's calls keep
  landing where its prompt prefix is cached;
- the least busy server (calls in flight per slot) when that one is full or the call has no
  persona, so that every slot of every server is used;
- another server when the chosen one is lost (refused or dropped connection, no reply within
  the deadline): the call is made again there, and the lost server gets no more calls. Only
  when no server is left does the call fail, with one line naming them
  (:class:`~reverie.llm.server_errors.ServerFailing`: the run stops without saving the step).

The answering server is in the reply's ``response_metadata["server"]``, which the ledger keeps.
"""

from __future__ import annotations

import logging
import sys
import threading
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult

from reverie.llm.server_errors import BackendLost, Failure, ServerFailing, classify, describe
from reverie.llm.servers import persona_of

log = logging.getLogger("reverie.llm")

# Failures that lose a server for the rest of the run; its calls go to the others.
LOSES_SERVER = (Failure.UNREACHABLE, Failure.DROPPED, Failure.TIMEOUT)


class Router:
    """Which server takes the next call (thread-safe; shared by the roles of one run)."""

    def __init__(self, slots: list[int], sessions: list[Any]):
        self.slots = [max(1, int(n)) for n in slots]
        self.sessions = sessions  # each server's ServerSession (checked at start, see check)
        self.urls = [str(s.backend.base_url) for s in sessions]
        self.busy = [0] * len(self.slots)
        self.calls = [0] * len(self.slots)
        self.down: dict[int, str] = {}  # lost servers and why
        self._home: dict[str, int] = {}
        self._homed = [0] * len(self.slots)
        self._lock = threading.Lock()

    def _least_busy(self, live: list[int]) -> int:
        return min(live, key=lambda i: (self.busy[i] / self.slots[i], self._homed[i] / self.slots[i], i))

    def take(self, persona: str | None, tried: set[int]) -> int | None:
        """The server for a call of ``persona`` (counted in flight until :meth:`give_back`);
        None when every server is lost or already tried."""
        with self._lock:
            live = [i for i in range(len(self.slots)) if i not in self.down and i not in tried]
            if not live:
                return None
            home = self._home.get(persona) if persona is not None else None
            if persona is not None and home not in live:
                home = min(live, key=lambda i: (self._homed[i] / self.slots[i], self.busy[i] / self.slots[i], i))
                self._home[persona] = home
                self._homed[home] += 1
            pick = home if home is not None and self.busy[home] < self.slots[home] else self._least_busy(live)
            self.busy[pick] += 1
            self.calls[pick] += 1
            return pick

    def give_back(self, index: int) -> None:
        with self._lock:
            self.busy[index] -= 1

    def lose(self, index: int, why: str) -> None:
        with self._lock:
            if index in self.down:
                return
            self.down[index] = why
            for persona in [p for p, i in self._home.items() if i == index]:
                del self._home[persona]  # re-homed on its next call
            left = len(self.slots) - len(self.down)
        line = f"[backend] model server {self.urls[index]} lost ({why}); {left} of {len(self.slots)} left"
        print(line, file=sys.stderr)
        log.warning("%s", line)

    def revive(self) -> None:
        """Ask every server again (a new run after they were lost)."""
        with self._lock:
            self.down.clear()

    def none_left(self) -> ServerFailing:
        lost = "; ".join(f"{self.urls[i]}: {why}" for i, why in sorted(self.down.items()))
        return ServerFailing(
            f"[backend] every model server is lost ({lost}) — start them again and run again; this step was not saved"
        )

    def check(self) -> None:
        """Check every server before the run's first step (identity, model, the structured-output
        probe): one that cannot serve is left out with a line; none left stops the run."""
        for index, session in enumerate(self.sessions):
            try:
                session.check()
            except BackendLost as exc:
                if type(exc) is not BackendLost and not isinstance(exc, ServerFailing):
                    raise  # a refused key, a missing model, a refused schema: the configuration is wrong
                self.lose(index, str(exc).split(" — ", 1)[0])
        if len(self.down) == len(self.slots):
            raise self.none_left()


class _Checks:
    """What ``LLM.check_backend`` calls: every server checked (see :meth:`Router.check`)."""

    def __init__(self, router: Router):
        self.router = router

    def check(self) -> None:
        self.router.check()


class RoutedChatModel(BaseChatModel):
    """A role's chat model over several servers: each call on the server :class:`Router` picks."""

    routes: list[Any]  # one ServerChatModel per server, in the order of [[backend.servers]]
    router: Any  # Router, shared by the roles

    @property
    def _llm_type(self) -> str:
        return "reverie-routed"

    @property
    def session(self) -> _Checks:
        return _Checks(self.router)

    def count_prompt_tokens(self, messages: list[BaseMessage]) -> int:
        counted: int = self.routes[0].count_prompt_tokens(messages)
        return counted

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        router: Router = self.router
        persona = persona_of(run_manager)
        tried: set[int] = set()
        while (index := router.take(persona, tried)) is not None:
            try:
                result: ChatResult = self.routes[index]._generate(
                    messages, stop=stop, run_manager=run_manager, **kwargs
                )
                return result
            except BackendLost as exc:
                if type(exc) is not BackendLost:
                    raise
                router.lose(index, str(exc).split(" — ", 1)[0])  # it did not answer its first probe
            except Exception as exc:
                if classify(exc) not in LOSES_SERVER:
                    raise  # busy, refused, not a completion: the retry policy's business
                router.lose(index, describe(exc))
            finally:
                router.give_back(index)
            tried.add(index)
        raise router.none_left()
