"""A metric: one figure of a run, named, computed and placed once (after Mesa's ``DataCollector``:
reporters registered once, collected into a table, one row per evaluation checkpoint).

A :class:`Metric` has a typed key (:class:`MetricKey`: the name it has in every file that
carries it), a label for people, a unit that says how its value is written, how it is computed
from one checkpoint of ``evaluation.json`` (the interviews' data and the run's movement, as
``evaluate`` measured them), and where it is shown (:class:`Shown`). :data:`reverie.evaluation.evaluation_metrics.METRICS`
is the one registry; ``evaluate``, ``game_day``, ``experiment`` and the run's page
(``/runs/<sim>/``) take their figures from it, so a new figure is one ``register`` call.

A neutral helper: it imports nothing of the engine, so the pages may import it too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from reverie.evaluation.evaluation_report import Checkpoint


class MetricKey(StrEnum):
    """The name a figure has in the files (a str: it reads and writes JSON keys as they are)."""

    STEP = "step"
    TIME = "time"
    CANDIDACY = "candidacy"
    CANDIDACY_IN_MEMORY = "candidacy_in_memory"
    PARTY = "party"
    PARTY_IN_MEMORY = "party_in_memory"
    FACTS = "facts"
    DENSITY = "density"
    DENSITY_IN_MEMORY = "density_in_memory"
    INVITED = "invited"
    CAME = "came"
    AT_PARTY = "at_party"
    WINDOW_REACHED = "window_reached"
    KNOWN_PAIRS = "known_pairs"  # the page's "Pairs who know each other"
    EVENTS = "events"  # the page's "Invited and came"
    HALLUCINATIONS = "hallucinations"
    HALLUCINATED_ANSWERS = "hallucinated_answers"
    UNSUPPORTED = "unsupported"  # the page's "Yes with no memory of it"


class Shown(StrEnum):
    """Where a metric is shown."""

    EVALUATION = "evaluation.json"  # kept in each checkpoint under its key, when it was measured
    GAME_DAY = "game_day.json"  # each of the report's "evaluations"
    EXPERIMENT = "experiment.json"  # each of the report's "checkpoints" (and its "start" and "end")
    EXPERIMENT_TABLE = "experiment table"  # a row "label: start -> end" of the printed table
    SUMMARY = "summary"  # a line of the summary `evaluate` prints
    RUN_PAGE = "/runs/<sim>/"  # a column of the evaluation table on the run's page


@dataclass(frozen=True)
class Cell:
    """A value as the run's page shows it: its text, and notes in small print under it (for
    the page only: it is no JSON)."""

    text: str
    notes: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.text + (f" ({'; '.join(self.notes)})" if self.notes else "")


class Unit(StrEnum):
    """How a value is written for people; None is "n/a" (the page writes the metric's ``missing``)."""

    SHARE = "share"  # 0.36 -> 36%
    RATE = "rate"  # 0.0132 -> 1.3%
    RATIO = "ratio"  # 0.74 -> 0.740
    COUNT = "count"
    FLAG = "yes/no"
    TEXT = "text"
    DATA = "data"  # a structure, written to the files as it is
    CELL = "cell"  # a Cell, for the page
    COLUMNS = "columns"  # {column: Cell}: a column of the page for each, headed label + column

    # Shadows str.format on purpose: a unit formats a figure, and no unit is ever a format string.
    def format(self, value: Any) -> str:  # type: ignore[override]
        if value is None:
            return "n/a"
        if self is Unit.SHARE:
            return f"{value:.0%}"
        if self is Unit.RATE:
            return f"{value:.1%}"
        if self is Unit.RATIO:
            return f"{value:.3f}"
        if self is Unit.FLAG:
            return "yes" if value else "no"
        if self is Unit.COLUMNS:
            return "; ".join(f"{column}: {cell}" for column, cell in value.items())
        return str(value)


@runtime_checkable
class Metric(Protocol):
    """One figure: what it is called, how it is written, how it is computed, where it is shown."""

    # Read-only members: a frozen dataclass (CheckpointMetric) is a Metric.
    @property
    def key(self) -> MetricKey | str: ...
    @property
    def label(self) -> str: ...
    @property
    def unit(self) -> Unit: ...
    @property
    def shown(self) -> frozenset[Shown]: ...
    @property
    def missing(self) -> str:
        """What the page shows for None."""
        ...

    def of(self, checkpoint: Checkpoint) -> Any:
        """The value for one checkpoint of ``evaluation.json`` (JSON-ready but for the page's
        cells; None: not measured)."""
        ...


@dataclass(frozen=True)
class CheckpointMetric:
    """A :class:`Metric` computed by a function of one checkpoint."""

    key: MetricKey | str
    label: str
    unit: Unit
    compute: Callable[[Checkpoint], Any]
    shown: frozenset[Shown]
    missing: str = "–"

    def of(self, checkpoint: Checkpoint) -> Any:
        return self.compute(checkpoint)


def metric(
    key: MetricKey | str,
    label: str,
    unit: Unit,
    compute: Callable[[Checkpoint], Any],
    *shown: Shown,
    missing: str = "–",
) -> CheckpointMetric:
    return CheckpointMetric(key=key, label=label, unit=unit, compute=compute, shown=frozenset(shown), missing=missing)


class MetricRegistry:
    """The registered metrics, in the order they were registered (the order of the files' keys
    and of the page's columns). Two metrics may share a key only where they are never shown
    together (``game_day.json``'s "came" is not ``experiment.json``'s)."""

    def __init__(self, metrics: Iterable[Metric] = ()) -> None:
        self._metrics: list[Metric] = []
        for m in metrics:
            self.register(m)

    def __iter__(self) -> Iterator[Metric]:
        return iter(list(self._metrics))

    def register(self, m: Metric) -> Metric:
        if not isinstance(m, Metric):
            raise TypeError(f"{m!r} is not a Metric: it needs key, label, unit, shown, missing and of(checkpoint)")
        if str(m.key) in (MetricKey.STEP, MetricKey.TIME):
            raise ValueError(f"metric {str(m.key)!r}: step and time are every row's own, not a metric")
        for other in self._metrics:
            both = other.shown & m.shown
            if str(other.key) == str(m.key) and both:
                raise ValueError(f"metric {str(m.key)!r} is registered twice for {', '.join(sorted(both))}")
        self._metrics.append(m)
        return m

    def unregister(self, m: Metric) -> None:
        self._metrics.remove(m)

    @contextmanager
    def registered(self, m: Metric) -> Iterator[Metric]:
        """``m`` registered for the ``with`` block only."""
        self.register(m)
        try:
            yield m
        finally:
            self.unregister(m)

    def shown_in(self, where: Shown) -> list[Metric]:
        return [m for m in self._metrics if where in m.shown]

    @staticmethod
    def value(m: Metric, checkpoint: Checkpoint) -> Any:
        """The value the checkpoint keeps for ``m`` (measured with the interviews), else computed."""
        kept = checkpoint.model_extra or {}
        return kept[str(m.key)] if Shown.EVALUATION in m.shown and str(m.key) in kept else m.of(checkpoint)

    def collect(self, checkpoint: Checkpoint, where: Shown) -> dict[str, Any]:
        """One row: the checkpoint's step and time, then every metric shown in ``where``."""
        row: dict[str, Any] = {MetricKey.STEP.value: checkpoint.step, MetricKey.TIME.value: checkpoint.time}
        row.update((str(m.key), self.value(m, checkpoint)) for m in self.shown_in(where))
        return row

    def table(self, checkpoints: Iterable[Checkpoint], where: Shown) -> list[dict[str, Any]]:
        return [self.collect(c, where) for c in checkpoints]

    def stamp(self, checkpoint: Checkpoint) -> Checkpoint:
        """The checkpoint with every metric shown in ``evaluation.json`` kept in it, under its key."""
        kept = {str(m.key): m.of(checkpoint) for m in self.shown_in(Shown.EVALUATION)}
        taken = sorted(set(kept) & set(type(checkpoint).model_fields))
        if taken:
            raise ValueError(
                f"metric {taken[0]!r}: a checkpoint's own field has that name — give the metric another key"
            )
        return checkpoint.model_copy(update=kept) if kept else checkpoint

    def labelled(self, checkpoint: Checkpoint, where: Shown) -> list[tuple[str, str]]:
        """(label, value as written) for every metric shown in ``where``."""
        return [(m.label, m.unit.format(self.value(m, checkpoint))) for m in self.shown_in(where)]
