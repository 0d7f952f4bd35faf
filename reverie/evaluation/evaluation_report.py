"""What `evaluate` measured, typed: one checkpoint of ``<sim>/evaluation.json`` and its
summary lines, next to the paper's own figures (§7.1).

The measurements are defined here once; the evaluation writes these models, the summary lines
print them, and the run's page (`/runs/<sim>/`) reads them back. The figures read from a
checkpoint (the paper's table in ``experiment.json`` and ``game_day.json``, columns of the
run's page) are metrics, registered once in ``reverie/evaluation/evaluation_metrics.py``. A neutral helper:
it imports nothing of the engine, so the pages may import it too. Files written before a
field existed still read (the field takes its default).

The paper's method, which the figures follow:

* an answer "knows" only when the persona said so **and** its memories support it (a memory
  with the fact's keywords; a memory naming the other resident); a yes without that support
  is a hallucination (the paper: 6 of 453 answers, 1.3 %);
* diffusion: the share of residents who know a seeded fact;
* density: the share of pairs who **both** know of each other (an undirected graph of
  mutual knowledge);
* the party: who heard of it (invited: those who know) and who came (in its place during
  its time window).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from reverie.errors import UserError
from reverie.jsonio import write_json_atomic
from reverie.sim_layout import EVALUATION as EVALUATION_FILE


class Figure(BaseModel):
    model_config = ConfigDict(extra="allow")


class Answer(Figure):
    """One interview question, answered and scored."""

    question: str
    answer: str | None = None
    verdict: Literal["yes", "no"] = "no"  # what the answer says (the judge, or the open question's name)
    evidence: str = ""  # the words of the answer that decide the verdict
    supported: bool | None = None  # the persona's memories hold it (None: files from before)

    @property
    def knows(self) -> bool:
        """The paper's "knows": said yes, and the memories support it."""
        return self.verdict == "yes" and self.supported is not False

    @property
    def hallucinated(self) -> bool:
        return self.verdict == "yes" and self.supported is False


class Share(Figure):
    count: int = 0
    total: int = 0
    share: float = 0.0

    @classmethod
    def of(cls, flags: dict[str, bool]) -> Share:
        count = sum(1 for v in flags.values() if v)
        return cls(count=count, total=len(flags), share=round(count / len(flags), 4) if flags else 0.0)

    def text(self) -> str:
        return f"{self.count}/{self.total} ({self.share:.0%})"


class HeldInMemory(Share):
    holders: list[str] = []
    keywords: list[str] = []


class Diffusion(Share):
    """A seeded fact: ``count``/``share`` are those who know it (said so, memories support it)."""

    fact: str
    seeded_to: str = ""
    question: str = ""
    expected: list[str] = []  # an open question: the answer must name one of these
    knows: list[str] = []
    said_yes: Share | None = None  # every yes, memories or not
    unsupported: list[str] = []  # said yes, no memory holds it
    in_memory: HeldInMemory | None = None
    answers: dict[str, Answer] = {}


class Density(Figure):
    """Mutual knowledge: an edge when both of a pair know of each other."""

    pairs: int = 0
    known_pairs: int = 0
    density: float = 0.0
    edges: list[list[str]] = []
    sampled: bool = False
    pairs_asked: int | None = None
    interval: list[float] | None = None

    def text(self) -> str:
        if self.sampled and self.interval:
            low, high = self.interval
            return (
                f"{self.density:.3f} ({self.known_pairs} of {self.pairs_asked} pairs asked, of {self.pairs}; "
                f"95 % interval {low:.3f}-{high:.3f})"
            )
        return f"{self.density:.3f} ({self.known_pairs} of {self.pairs} pairs)"


class Relationships(Density):
    said_yes: Density | None = None  # both said yes, memories or not
    in_memory: Density | None = None  # both one's memories name the other, no model
    answers: dict[str, dict[str, Answer]] = {}


class Coordination(Figure):
    """A seeded event: who heard of it (invited) and who was in its place during its window."""

    fact: str
    host: str = ""
    place: str = ""
    window: list[str] = []
    reached: bool | None = None  # False: the run has not got to the window; None: files from before
    invited: list[str] = []
    attended: list[str] = []
    steps_at_place: dict[str, int] = {}
    attended_invited: list[str] = []


class Hallucinations(Figure):
    """Yeses the memories do not support, over every answer (the paper's 6 of 453)."""

    answers: int = 0
    yes: int = 0
    unsupported: int = 0

    @property
    def rate(self) -> float:
        return self.unsupported / self.answers if self.answers else 0.0

    @property
    def percent(self) -> str:
        return f"{self.rate:.1%}"

    def text(self) -> str:
        return f"{self.unsupported} of {self.answers} answers ({self.percent}) said yes with no memory of it"


class Checkpoint(Figure):
    step: int
    time: str = ""
    personas: list[str] = []
    diffusion: list[Diffusion] = []
    relationships: Relationships = Field(default_factory=Relationships)
    coordination: list[Coordination] = []
    hallucinations: Hallucinations | None = None


class EvaluationFile(Figure):
    sim_code: str = ""
    checkpoints: list[Checkpoint] = []


class PaperFigures(BaseModel):
    """The paper's figures over two game days, 25 residents (§7.1): the anchors a run is read against."""

    residents: int = 25
    candidacy: tuple[int, int] = (1, 8)  # knew at the start, at the end
    party: tuple[int, int] = (1, 13)
    density: tuple[float, float] = (0.167, 0.74)
    invited: int = 12
    came: int = 5
    hallucinated: tuple[int, int] = (6, 453)  # unsupported answers, of all answers


PAPER = PaperFigures()


def paper_line(paper: PaperFigures = PAPER) -> str:
    n, c, p, d, (bad, of) = paper.residents, paper.candidacy, paper.party, paper.density, paper.hallucinated
    return (
        f"  the paper, two days: candidacy {c[0]} -> {c[1]} of {n} ({c[0] / n:.0%} -> {c[1] / n:.0%}), "
        f"party {p[0]} -> {p[1]} of {n} ({p[0] / n:.0%} -> {p[1] / n:.0%}), density {d[0]} -> {d[1]}, "
        f"{paper.invited} invited and {paper.came} came, hallucinations {bad} of {of} ({bad / of:.1%})"
    )


def summary_lines(cp: Checkpoint, more: Sequence[tuple[str, str]] = ()) -> list[str]:
    """What ``evaluate`` prints of a checkpoint; ``more``: (label, value) lines before the paper's."""
    lines = [f"evaluation at step {cp.step} ({cp.time}), {len(cp.personas)} personas"]
    for row in cp.diffusion:
        said = f"; {row.said_yes.count} said yes" if row.said_yes else ""
        bad = f" ({len(row.unsupported)} with no memory of it)" if row.said_yes else ""
        held = f"; {row.in_memory.text()} hold it in memory" if row.in_memory else ""
        lines.append(f"  diffusion  {row.fact}: {row.text()} know{said}{bad}{held}")
    rel = cp.relationships
    line = f"  relationships  density {rel.text()}, both know of each other"
    if rel.said_yes:
        line += f"; both said yes {rel.said_yes.density:.3f}"
    if rel.in_memory:
        line += f"; in memory {rel.in_memory.density:.3f} ({rel.in_memory.known_pairs} of {rel.in_memory.pairs} pairs)"
    lines.append(line)
    for event in cp.coordination:
        head = (
            f"  coordination  {event.fact} ({event.place}, {event.window[0]}-{event.window[1][-5:]}): "
            if len(event.window) == 2
            else f"  coordination  {event.fact} ({event.place}): "
        )
        if event.reached is False:
            lines.append(head + f"{len(event.invited)} invited; the run has not reached the window yet")
        else:
            lines.append(
                head + f"{len(event.invited)} invited, {len(event.attended)} came "
                f"({len(event.attended_invited)} of those invited)"
            )
    if cp.hallucinations:
        lines.append(f"  hallucinations  {cp.hallucinations.text()}")
    lines.extend(f"  {label}  {value}" for label, value in more)
    lines.append(paper_line())
    return lines


def read_evaluation(sim_dir: Path) -> EvaluationFile | None:
    path = Path(sim_dir) / EVALUATION_FILE
    if not path.is_file():
        return None
    try:
        return EvaluationFile.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except json.JSONDecodeError as exc:
        raise UserError(f"{path} is not valid JSON ({exc}) — delete it and evaluate again") from None
    except ValueError as exc:
        first = str(exc).splitlines()[0]
        raise UserError(f"{path} is not an evaluation file ({first}) — delete it and evaluate again") from None


def save_checkpoint(sim_dir: Path, sim_code: str, checkpoint: Checkpoint) -> EvaluationFile:
    """Add (or replace, same step) a checkpoint in evaluation.json; returns the whole file."""
    data = read_evaluation(sim_dir) or EvaluationFile(sim_code=sim_code)
    rows = [c for c in data.checkpoints if c.step != checkpoint.step] + [checkpoint]
    data.checkpoints = sorted(rows, key=lambda c: c.step)
    write_json_atomic(Path(sim_dir) / EVALUATION_FILE, data.model_dump(mode="json", exclude_none=True))
    return data
