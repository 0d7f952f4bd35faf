"""A resident's asks that need none of each other's answers: in flight together on a model that answers
several at once, their answers in the asks' order; one after another on one that does not."""

from __future__ import annotations

import contextvars
import threading
import time

import pytest

from reverie.llm import LLM
from reverie.llm.side_by_side import side_by_side
from reverie.tasks.registry import product_tasks


class Slots:
    """A stand-in for the model: only how many calls it answers at once matters here."""

    def __init__(self, n: int):
        self.concurrent_calls = n


def test_asks_are_in_flight_together_and_their_answers_come_back_in_the_asks_order():
    """Each ask waits until all three are in flight (a barrier no ask passes alone), then the
    first one given ends last: the answers still come back in the order the asks were given."""
    together = threading.Barrier(3, timeout=10)
    ended: list[int] = []

    def ask(i: int):
        def run() -> int:
            together.wait()  # broken (BrokenBarrierError) unless all three are in flight at once
            time.sleep(0.05 * (3 - i))
            ended.append(i)
            return i

        return run

    assert side_by_side(Slots(16), [ask(0), ask(1), ask(2)]) == [0, 1, 2]
    assert ended == [2, 1, 0]


def test_one_call_at_a_time_asks_them_one_after_another_on_the_callers_thread():
    seen: list[tuple[int, str]] = []

    def ask(i: int):
        return lambda: seen.append((i, threading.current_thread().name)) or i

    assert side_by_side(Slots(1), [ask(0), ask(1), ask(2)]) == [0, 1, 2]
    assert seen == [(i, threading.current_thread().name) for i in range(3)]
    assert side_by_side(object(), [ask(3)]) == [3]  # a model that does not say answers one at a time


def test_at_most_the_models_slots_are_in_flight():
    in_flight, most = 0, 0
    lock = threading.Lock()

    def ask() -> None:
        nonlocal in_flight, most
        with lock:
            in_flight += 1
            most = max(most, in_flight)
        time.sleep(0.05)
        with lock:
            in_flight -= 1

    side_by_side(Slots(2), [ask] * 6)
    assert most == 2


def test_every_ask_ends_and_the_first_failure_in_the_asks_order_is_raised():
    ended: list[str] = []
    go = threading.Event()

    def first() -> None:
        go.wait(10)  # fails after the second one has failed
        ended.append("first")
        raise ValueError("first")

    def second() -> None:
        ended.append("second")
        go.set()
        raise KeyError("second")

    def third() -> str:
        ended.append("third")
        return "third"

    with pytest.raises(ValueError, match=r"^first$"):
        side_by_side(Slots(3), [first, second, third])
    assert sorted(ended) == ["first", "second", "third"]


def test_each_ask_runs_in_the_callers_context():
    """The step's clock for the ledger is a context variable: every ask sees the caller's."""
    clock: contextvars.ContextVar[int] = contextvars.ContextVar("clock", default=0)
    clock.set(42)
    together = threading.Barrier(2, timeout=10)

    def ask() -> int:
        together.wait()
        return clock.get()

    assert side_by_side(Slots(2), [ask, ask]) == [42, 42]


def test_the_llm_answers_as_many_at_once_as_its_servers_slots(settings, tmp_path):
    def llm(**changes) -> LLM:
        s = settings.model_copy(deep=True)
        for key, value in changes.items():
            setattr(s.backend, key, value)
        return LLM(s, tasks=product_tasks())

    assert llm(kind="openai", base_url="http://127.0.0.1:1/v1", parallel_slots=16).concurrent_calls == 16
    assert llm(kind="openai", base_url="http://127.0.0.1:1/v1", parallel_slots=1).concurrent_calls == 1
    assert llm(kind="llama_cpp").concurrent_calls == 1  # an in-process model answers one call at a time
    tape = tmp_path / "tape.jsonl"
    tape.write_text("", encoding="utf-8")
    s = settings.model_copy(deep=True)
    s.backend.kind, s.backend.base_url, s.backend.parallel_slots = "openai", "http://127.0.0.1:1/v1", 16
    assert LLM(s, tasks=product_tasks(), replay=tape).concurrent_calls == 1  # a replay keeps the run's order
