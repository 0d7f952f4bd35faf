"""Engine time per part: the model's calls made inside a stage are taken out of it (a fake
clock, so the figures are exact), inner parts count as they are, and each thread counts its own."""

from __future__ import annotations

import threading

import pytest

from reverie import engine_time


class FakeClock:
    def __init__(self):
        self.now = 0.0
        self._lock = threading.Lock()

    def perf_counter(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(engine_time, "time", fake)
    return fake


def test_a_stage_counts_its_own_time_without_the_model_calls_made_inside_it(clock):
    before = engine_time.totals()
    with engine_time.timed("plan"):
        clock.advance(0.25)  # the engine's own work
        with engine_time.model_call():
            clock.advance(4.0)  # waiting for the model
        with engine_time.timed("path finding"):
            clock.advance(0.5)
        with engine_time.model_call():
            clock.advance(2.0)
    spent = engine_time.since(before)
    assert spent["plan"] == pytest.approx(0.75)
    assert spent["path finding"] == pytest.approx(0.5)


def test_a_model_call_on_another_thread_is_not_taken_out_of_this_threads_stage(clock):
    before = engine_time.totals()
    started, other_done = threading.Event(), threading.Event()

    def other_persona():
        started.wait()
        with engine_time.model_call():
            clock.advance(3.0)
        other_done.set()

    worker = threading.Thread(target=other_persona)
    worker.start()
    with engine_time.timed("perceive"):
        started.set()
        other_done.wait()  # the clock moved 3 s while this thread was in its stage
    worker.join()
    assert engine_time.since(before)["perceive"] == pytest.approx(3.0)
