"""Seeded events: statements a base whispers to one persona at the start of a run
(``reverie/seeds.json``), as the paper seeded a candidacy and a party.

Each seed is ``{"persona", "whisper", "question", "fact"}`` and, for an event, ``"event":
{"sector", "arena", "day", "start", "end", "description"}``: the event then becomes part of
that persona's plan for the day. ``question`` and ``fact`` are what ``evaluate`` asks about;
optional ``"keywords"`` are the words a memory must have to hold the fact. A yes/no question
("Did you know there is a party?") is judged yes or no; an open one ("Do you know who is
running for the town council?") carries ``"answer"``: the name (or a few words, or a list of
either) an answer must say to count as knowing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from reverie.errors import UserError
from reverie.persona.events import PlannedEvent

SEEDS_FILE = "seeds.json"


@dataclass(frozen=True)
class Seed:
    persona: str
    whisper: str
    question: str
    fact: str
    event: PlannedEvent | None = None
    keywords: tuple[str, ...] = ()   # the words a memory must have to hold the fact (evaluate)
    answer: tuple[str, ...] = ()     # an open question: what the answer must say (one of them)


def _minutes(text: str, path: Path) -> int:
    try:
        h, m = (int(v) for v in text.split(":"))
    except ValueError:
        raise UserError(f"{path}: event time '{text}' is not HH:MM") from None
    return h * 60 + m


def read_seeds(sim_dir: Path) -> list[Seed]:
    """The seeds of a simulation folder ([] when it has none)."""
    path = Path(sim_dir) / "reverie" / SEEDS_FILE
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise UserError(f"{path} is not valid JSON ({exc})") from None
    entries = data["seeds"] if isinstance(data, dict) else data
    seeds = []
    for i, item in enumerate(entries):
        missing = [k for k in ("persona", "whisper", "question", "fact") if not isinstance(item.get(k), str)]
        if missing:
            raise UserError(f"{path}: seed {i} needs the text field(s) {', '.join(missing)}")
        event = None
        if item.get("event"):
            e = item["event"]
            try:
                event = PlannedEvent(e["day"], _minutes(e["start"], path), _minutes(e["end"], path),
                                     e["sector"], e["arena"], e["description"])
            except KeyError as exc:
                raise UserError(f"{path}: the event of seed {i} needs '{exc.args[0]}'") from None
            if event.end <= event.start:
                raise UserError(f"{path}: the event of seed {i} ends before it starts")
        keywords = item.get("keywords") or []
        if not isinstance(keywords, list) or not all(isinstance(k, str) and k.strip() for k in keywords):
            raise UserError(f"{path}: the keywords of seed {i} must be a list of words")
        answer = item.get("answer") or []
        answer = [answer] if isinstance(answer, str) else answer
        if not isinstance(answer, list) or not all(isinstance(a, str) and a.strip() for a in answer):
            raise UserError(f"{path}: the answer of seed {i} must be a name or a list of names")
        seeds.append(Seed(item["persona"], item["whisper"], item["question"], item["fact"], event, tuple(keywords),
                          tuple(answer)))
    return seeds


def attach_events(seeds: list[Seed], personas: dict) -> None:
    """Give each persona the events seeded to it (they enter its plan when its day starts)."""
    for persona in personas.values():
        persona.events = [s.event for s in seeds if s.event and s.persona == persona.scratch.name]


def whisper_seeds(sim) -> dict[str, int]:
    """Whisper each seed to its persona. Called before any persona's first step (at step 0,
    or at the time ``--start`` moved a fresh fork to): a run resumed from there starts again
    from the memories without them."""
    from reverie.persona.thoughts import add_thought
    from reverie.tasks.whisper import whisper_inner_thought

    seeds = read_seeds(sim.storage.dir)
    if not seeds:
        return {}
    sim.llm.set_clock(sim.step_no, sim.curr_time_str)
    counts: dict[str, int] = {}
    for seed in seeds:
        persona = sim.personas.get(seed.persona)
        if persona is None:
            continue
        now = persona.scratch.curr_time or sim.curr_time
        thought = whisper_inner_thought(sim.llm, persona_name=seed.persona, whisper=seed.whisper)
        add_thought(persona, sim.llm, thought, [], score_text=seed.whisper, now=now)
        counts[seed.persona] = counts.get(seed.persona, 0) + 1
        sim.timeline.note(f"seed whispered to {seed.persona}: {seed.whisper}")
    return counts
