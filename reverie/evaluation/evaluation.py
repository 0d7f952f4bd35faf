"""`python -m reverie evaluate SIM`: the paper's measurements on a simulation, now, by the
paper's interview method (§6.5 / §7.1).

Every persona is interviewed the way ``call -- analysis`` does it (the memories that bear on
the question, the persona's answer; the safety check is left out, as the questions are the
code's own):

* diffusion: each seeded fact's question (``reverie/seeds.json``). A yes/no question ("Did
  you know there is a Valentine's Day party?") is judged yes or no with the words that decide
  it (prompt ``interview_judge``); an open one ("Do you know who is running for the town
  council?") is yes only when the answer names the seed's ``answer`` (Marcus Reed): an answer
  naming someone else, or no one, is no. The one it names, asked about themselves, may answer
  "I am" instead: their answer is judged;
* relationships: "Do you know of <name>?" for every other resident; the network density is
  the share of pairs where **both** say yes (an undirected graph of mutual knowledge). With
  ``--pairs K`` only K pairs drawn at random are asked (both ways): at 25 residents all 300
  pairs are 600 interviews, hours on a CPU; the density is then the sample's, with its 95 %
  interval;
* an answer counts as knowing only when the persona's memories support it: a memory with the
  seed's keywords, a memory naming the other resident in full (its identity's ``learned`` and
  ``currently`` count as memories: a seed may plant its fact there, as the original did). A yes they do not support is
  counted apart: the hallucination rate (the paper: 6 of 453 answers, 1.3 %);
* coordination: who heard of the seeded event (invited: those who know it) and who stood in
  its place during its time window, from the movement files.

Next to each figure is the same one read from the memories alone, with no model. The
measurements are defined once, typed, in ``reverie/evaluation/evaluation_report.py``; the figures read
from them, in ``reverie/evaluation/evaluation_metrics.py`` (a registry of metrics).

Each evaluation is one checkpoint of ``<sim>/evaluation.json`` (by step; evaluating the
same step again replaces it), so evaluating at several points of a run gives the figures
over time. Nothing is written to the personas' memories; the calls go to the run's ledger.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

from reverie.clock import parse_time
from reverie.config import Settings
from reverie.errors import UserError
from reverie.evaluation import evaluation_report
from reverie.evaluation.evaluation_figures import (
    all_pairs,
    attendance,
    density,
    holds,
    named_in,
    names_in,
    sample_pairs,
)
from reverie.evaluation.evaluation_metrics import METRICS
from reverie.evaluation.evaluation_report import (
    EVALUATION_FILE,
    Answer,
    Checkpoint,
    Coordination,
    Diffusion,
    Hallucinations,
    HeldInMemory,
    Relationships,
    Share,
    save_checkpoint,
)
from reverie.evaluation.metrics import Shown
from reverie.simulation.concurrency import cognition_workers, run_groups
from reverie.simulation.seeds import Seed, read_seeds
from reverie.tasks.common import content_words

if TYPE_CHECKING:
    from reverie.llm.language_model import LanguageModel
    from reverie.persona.persona import Persona
    from reverie.simulation.simulation import Simulation
    from reverie.simulation.storage import SimStorage

Say = Callable[[str], object]
Verdict = Literal["yes", "no"]

__all__ = ["EVALUATION_FILE", "evaluate", "main", "save_checkpoint", "summary_lines"]


def summary_lines(checkpoint: Checkpoint) -> list[str]:
    """What ``evaluate`` prints: the checkpoint's figures, and the metrics shown in the summary."""
    return evaluation_report.summary_lines(checkpoint, METRICS.labelled(checkpoint, Shown.SUMMARY))


def know_question(name: str) -> str:
    return f"Do you know of {name}?"


Judge = Callable[[], tuple[Verdict, str]]  # () -> (verdict, evidence), the model's judgement of the answer


def score(reply: str, persona_name: str, expected: Iterable[str], judge: Judge) -> tuple[Verdict, str]:
    """(verdict, evidence) of an answer. A yes/no question (no ``expected``): the judge's. An
    open one: yes when the answer names one of ``expected`` (the name is the evidence), else
    no; except for the persona ``expected`` names, who may speak of themselves ("I am"): judged."""
    expected = list(expected)
    if not expected:
        return judge()
    named = named_in(reply, expected)
    if named is not None:
        return "yes", named
    if named_in(persona_name, expected) is not None:
        return judge()
    return "no", ""


def ask(sim: Simulation, persona: Persona, question: str, *, supported: bool, expected: Iterable[str] = ()) -> Answer:
    """One interview question, answered, scored and checked against the persona's memories."""
    from reverie.evaluation.interview import answer
    from reverie.tasks.interview_judge import judge_answer

    reply = answer(sim, persona, [], question, safety_check=False)
    if reply is None:  # a safety check declined to answer (not asked for these questions)
        return Answer(question=question, supported=supported)

    def judge() -> tuple[Verdict, str]:
        assert sim.llm is not None  # an opened simulation has its model
        judged = judge_answer(sim.llm, persona_name=persona.name, question=question, answer=reply)
        return judged.verdict, judged.evidence

    verdict, evidence = score(reply, persona.name, expected, judge)
    return Answer(question=question, answer=reply, verdict=verdict, evidence=evidence, supported=supported)


def memory_texts(persona: Persona) -> list[str]:
    """Everything a persona holds in words: what its identity has learned and is doing now (a
    seed may set ``currently``, as the original planted its facts), each memory node's
    description, and the lines of the conversations it took part in."""
    s = persona.scratch
    texts = [t for t in (s.learned, s.currently) if t]
    for node in persona.a_mem.nodes():
        texts.append(node.description)
        if node.type == "chat":
            texts.extend(str(line[1]) for line in node.filling if isinstance(line, (list, tuple)) and len(line) > 1)
    return texts


def fact_keywords(seed: Seed, names: list[str]) -> list[str]:
    """The words a memory must have to hold the seed's fact: the seed's own ``keywords``, else
    the fact's words of four letters or more that are not in a resident's name."""
    if seed.keywords:
        return list(seed.keywords)
    in_names = {w for name in names for w in content_words(name)}
    return sorted(content_words(seed.fact) - in_names)


@dataclass(frozen=True)
class MemorySupport:
    """What the residents' memories hold, read with no model: the support an answer needs."""

    keywords: dict[str, list[str]]  # {fact: the words a memory must have}
    holders: dict[str, list[str]]  # {fact: residents with such a memory}
    named: dict[str, set[str]]  # {a: the residents a's memories name in full}

    @classmethod
    def of(cls, sim: Simulation, seeds: list[Seed], names: list[str]) -> MemorySupport:
        texts = {name: memory_texts(sim.personas[name]) for name in names}
        keywords = {seed.fact: fact_keywords(seed, names) for seed in seeds}
        holders = {fact: [n for n in names if holds(texts[n], words)] for fact, words in keywords.items()}
        named = {a: names_in(texts[a], [n for n in names if n != a]) for a in names}
        return cls(keywords, holders, named)

    def knows_of(self, names: list[str]) -> dict[str, dict[str, bool]]:
        return {a: {b: True for b in self.named[a]} for a in names}


def movement_frames(storage: SimStorage, names: list[str]) -> Iterator[tuple[datetime, dict[str, Any]]]:
    """(time, {name: (x, y)}) for every movement file of the run, in step order."""
    for step in storage.steps_in("movement"):
        data = storage.read_movement(step) or {}
        when = (data.get("meta") or {}).get("curr_time")
        if not when:
            continue
        tiles = {n: m["movement"] for n, m in (data.get("persona") or {}).items() if n in names and m.get("movement")}
        yield parse_time(when), tiles


def coordination(sim: Simulation, seed: Seed, invited: list[str]) -> Coordination:
    event = seed.event
    assert event is not None  # asked only of a seed with an event
    day = parse_time(f"{event.day}, 00:00:00")
    window = (day + timedelta(minutes=event.start), day + timedelta(minutes=event.end))

    def place_of(tile: tuple[int, ...]) -> bool:
        x, y = tile
        if not sim.maze.in_bounds((x, y)):
            return False
        t = sim.maze.tiles[y][x]
        return t["sector"] == event.sector and t["arena"] == event.arena

    seen = attendance(movement_frames(sim.storage, sim.persona_names), place_of, window, sim.persona_names)
    guests = [n for n in invited if n != seed.persona]
    return Coordination(
        fact=seed.fact,
        host=seed.persona,
        place=f"{event.sector}:{event.arena}",
        window=[window[0].strftime("%B %d, %Y, %H:%M"), window[1].strftime("%B %d, %Y, %H:%M")],
        reached=sim.curr_time >= window[0],  # False: the run has not got to the window, nobody could come yet
        invited=guests,
        attended=sorted(seen),
        steps_at_place=seen,
        attended_invited=sorted(n for n in seen if n in guests),
    )


def evaluate(sim: Simulation, *, say: Say = print, pairs: int | None = None) -> Checkpoint:
    """Interview everyone, score, check against the memories, measure; returns the checkpoint
    with the metrics shown in ``evaluation.json`` kept in it (not yet saved: :func:`save_checkpoint`).

    Retrieval marks the memories it returns as just accessed; the interviews put the old
    times back, so a run that goes on after an evaluation is the run it would have been.
    ``pairs``: ask about that many random pairs of residents only (see the module's text)."""
    accessed = [(node, node.last_accessed) for p in sim.personas.values() for node in p.a_mem.nodes()]
    try:
        return METRICS.stamp(_evaluate(sim, say, pairs))
    finally:
        for node, when in accessed:
            node.last_accessed = when


def diffusion_row(seed: Seed, names: list[str], answers: dict[str, Answer], memory: MemorySupport) -> Diffusion:
    held = memory.holders[seed.fact]
    return Diffusion(
        fact=seed.fact,
        seeded_to=seed.persona,
        question=seed.question,
        expected=list(seed.answer),
        **Share.of({n: answers[n].knows for n in names}).model_dump(),
        knows=[n for n in names if answers[n].knows],
        said_yes=Share.of({n: answers[n].verdict == "yes" for n in names}),
        unsupported=[n for n in names if answers[n].hallucinated],
        in_memory=HeldInMemory(
            **Share.of({n: n in held for n in names}).model_dump(), holders=held, keywords=memory.keywords[seed.fact]
        ),
        answers=answers,
    )


def hallucinations(answers: Iterable[Answer]) -> Hallucinations:
    answers = list(answers)
    return Hallucinations(
        answers=len(answers),
        yes=sum(a.verdict == "yes" for a in answers),
        unsupported=sum(a.hallucinated for a in answers),
    )


def _evaluate(sim: Simulation, say: Say, pairs: int | None = None) -> Checkpoint:
    names = list(sim.persona_names)
    if pairs is not None and pairs < 1:
        raise UserError("--pairs must be at least 1")
    asked = sample_pairs(names, pairs) if pairs is not None else all_pairs(names)
    about: dict[str, list[str]] = {name: [] for name in names}
    for a, b in asked:
        about[a].append(b)
        about[b].append(a)
    seeds = read_seeds(sim.storage.dir)
    memory = MemorySupport.of(sim, seeds, names)
    assert sim.llm is not None  # an opened simulation has its model
    llm = sim.llm
    llm.set_clock(sim.step_no, sim.curr_time_str)
    fact_answers: dict[str, dict[str, Answer]] = {s.fact: {} for s in seeds}
    rel_answers: dict[str, dict[str, Answer]] = {}

    def interview(name: str) -> tuple[dict[str, Answer], dict[str, Answer]]:
        """One persona's answers: {fact: answer}, {other: answer}."""
        persona = sim.personas[name]
        facts = {
            seed.fact: ask(
                sim, persona, seed.question, expected=seed.answer, supported=name in memory.holders[seed.fact]
            )
            for seed in seeds
        }
        return facts, {
            other: ask(sim, persona, know_question(other), supported=other in memory.named[name])
            for other in names
            if other in about[name]
        }

    # On a multi-slot server several personas are interviewed at once (each its questions in order);
    # nothing is written to a memory, so the answers are those of one persona after another.
    workers = cognition_workers(sim.settings.backend, replaying=llm.replaying)
    done = run_groups([[name] for name in names], interview, workers)
    for i, name in enumerate(names, 1):
        facts, rel_answers[name] = done[name]
        for fact, answer in facts.items():
            fact_answers[fact][name] = answer
        known = sum(a.knows for a in rel_answers[name].values())
        say(
            f"[{i}/{len(names)}] {name}: knows of {known} of {len(rel_answers[name])} residents asked about; "
            + ", ".join(f"{s.fact}: {fact_answers[s.fact][name].verdict}" for s in seeds)
        )
    diffusion_rows = [diffusion_row(seed, names, fact_answers[seed.fact], memory) for seed in seeds]
    coordination_rows = [
        coordination(sim, seed, row.knows) for seed, row in zip(seeds, diffusion_rows) if seed.event is not None
    ]
    sample = None if pairs is None else asked
    knows = {a: {b: r.knows for b, r in row.items()} for a, row in rel_answers.items()}
    said = {a: {b: r.verdict == "yes" for b, r in row.items()} for a, row in rel_answers.items()}
    every = [a for row in fact_answers.values() for a in row.values()] + [
        a for row in rel_answers.values() for a in row.values()
    ]
    return Checkpoint(
        step=sim.step_no,
        time=sim.curr_time_str,
        personas=names,
        diffusion=diffusion_rows,
        relationships=Relationships(
            **density(names, knows, sample).model_dump(),
            said_yes=density(names, said, sample),
            in_memory=density(names, memory.knows_of(names)),
            answers=rel_answers,
        ),
        coordination=coordination_rows,
        hallucinations=hallucinations(every),
    )


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sim", help="simulation folder name under [paths] storage")
    parser.add_argument(
        "--pairs", type=int, metavar="K", help="ask about K random pairs of residents, both ways (default: every pair)"
    )
    parser.add_argument(
        "--into",
        metavar="NAME",
        help="copy SIM to a new simulation NAME first and evaluate that (a base is never written)",
    )
    parser.add_argument("--overwrite", action="store_true", help="with --into: replace an existing simulation NAME")


def main(args: argparse.Namespace, settings: Settings, *, llm: LanguageModel | None = None, say: Say = print) -> int:
    from reverie.simulation.simulation import Simulation

    into = getattr(args, "into", None)
    if into:
        sim = Simulation.fork(settings, args.sim, into, llm=llm, overwrite=bool(getattr(args, "overwrite", False)))
    else:
        sim = Simulation.open(settings, args.sim, llm=llm, instead=f"evaluate {args.sim} --into NEW_NAME")
    try:
        checkpoint = evaluate(sim, say=say, pairs=getattr(args, "pairs", None))
        save_checkpoint(sim.storage.dir, sim.storage.sim_code, checkpoint)
    finally:
        sim.close()
    for line in summary_lines(checkpoint):
        say(line)
    say(f"wrote {sim.storage.dir / EVALUATION_FILE}")
    return 0
