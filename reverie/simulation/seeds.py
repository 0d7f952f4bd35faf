"""Seeds: facts a base plants in one persona at the start of a run (``reverie/seeds.json``),
as the paper seeded a candidacy and a party.

Each seed is ``{"persona", "currently" and/or "whisper", "question", "fact"}``:

- ``currently``: text added to the persona's ``currently`` (its identity), the original's way
  (docs/FIDELITY.md): it reaches every prompt of that persona, and each new day's identity
  revision works from it. When the revised status drops it, the code puts it back, until
  the day of the seed's event has passed (a seed without an event: always);
- ``whisper``: a statement turned into one inner thought (a memory), as ``call -- whisper``.

``question`` and ``fact`` are what ``evaluate`` asks about; optional ``"keywords"`` are the
words a memory must have to hold the fact. A yes/no question ("Did you know there is a
party?") is judged yes or no; an open one ("Do you know who is running for the town
council?") carries ``"answer"``: the name (or a few words, or a list of either) an answer
must say to count as knowing. An optional ``"event": {"sector", "arena", "day",
"start", "end", "description"}`` is where and when the seeded event happens; only with
``[simulation] force_seed_plan`` (``--force-seed-plan``) does the code also put it into the
persona's plan for that day. By default the plan comes from the persona's identity alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from reverie.errors import UserError
from reverie.persona.events import PlannedEvent
from reverie.persona.seeded_status import SeededStatus, Seeds, holds, with_status

SEEDS_FILE = "seeds.json"


@dataclass(frozen=True)
class Seed:
    persona: str
    whisper: str  # "" when the seed has none
    question: str
    fact: str
    event: PlannedEvent | None = None
    keywords: tuple[str, ...] = ()  # the words a memory must have to hold the fact (evaluate)
    answer: tuple[str, ...] = ()  # an open question: what the answer must say (one of them)
    currently: str = ""  # added to the persona's `currently` ("" when the seed has none)


def _minutes(text: str, path: Path) -> int:
    try:
        h, m = (int(v) for v in text.split(":"))
    except ValueError:
        raise UserError(f"{path}: event time '{text}' is not HH:MM") from None
    return h * 60 + m


def seeds_path(sim_dir: Path) -> Path:
    return Path(sim_dir) / "reverie" / SEEDS_FILE


def read_seeds(sim_dir: Path) -> list[Seed]:
    """The seeds of a simulation folder ([] when it has none)."""
    path = seeds_path(sim_dir)
    return read_seeds_file(path) if path.is_file() else []


def read_seeds_file(path: Path) -> list[Seed]:
    """The seeds of a seeds file (a clear error naming what to fix when it is not one)."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"{path}: no such seeds file — give a JSON list of seeds (see docs/EXPERIMENT.md)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise UserError(f"{path} is not valid JSON ({exc})") from None
    entries = data.get("seeds") if isinstance(data, dict) else data
    if not isinstance(entries, list):
        raise UserError(f'{path}: give a list of seeds (or {{"seeds": [...]}})')
    seeds = []
    for i, item in enumerate(entries):
        if not isinstance(item, dict):
            raise UserError(f"{path}: seed {i} is not an object")
        missing = [k for k in ("persona", "question", "fact") if not isinstance(item.get(k), str)]
        if missing:
            raise UserError(f"{path}: seed {i} needs the text field(s) {', '.join(missing)}")
        for key in ("whisper", "currently"):
            if not isinstance(item.get(key, ""), str):
                raise UserError(f"{path}: the {key} of seed {i} must be text")
        if not (item.get("whisper", "").strip() or item.get("currently", "").strip()):
            raise UserError(f"{path}: seed {i} needs a 'currently' (added to the persona's identity) or a 'whisper'")
        event = None
        if item.get("event"):
            e = item["event"]
            try:
                event = PlannedEvent(
                    e["day"],
                    _minutes(e["start"], path),
                    _minutes(e["end"], path),
                    e["sector"],
                    e["arena"],
                    e["description"],
                )
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
        seeds.append(
            Seed(
                item["persona"],
                item.get("whisper", "").strip(),
                item["question"],
                item["fact"],
                event,
                tuple(keywords),
                tuple(answer),
                item.get("currently", "").strip(),
            )
        )
    return seeds


def attach_seeds(seeds: list[Seed], personas: dict, *, force_plan: bool = False) -> None:
    """Give each persona its seeds: the ``currently`` texts a new day keeps (with the day of
    their event, if any), and, with ``force_plan``, the events code puts into its plan."""
    for persona in personas.values():
        mine = [s for s in seeds if s.persona == persona.scratch.name]
        persona.take_seeds(
            Seeds(
                status=tuple(SeededStatus(s.currently, s.event.day if s.event else None) for s in mine if s.currently),
                events=tuple(s.event for s in mine if s.event) if force_plan else (),
            )
        )


def plant_seeds(sim) -> dict[str, int]:
    """Plant each seed in its persona: its ``currently`` text joins the persona's identity,
    its whisper becomes an inner thought. Called before any persona's first step (at step 0,
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
        if seed.currently and holds(persona.scratch.currently or "", seed.currently):
            sim.timeline.note(f"seed already in {seed.persona}'s identity, not added again: {seed.currently}")
        elif seed.currently:
            persona.scratch.set_currently(with_status(persona.scratch.currently or "", seed.currently))
            sim.timeline.note(f"seed added to {seed.persona}'s identity: {seed.currently}")
        if seed.whisper:
            now = persona.scratch.curr_time or sim.curr_time
            thought = whisper_inner_thought(sim.llm, persona_name=seed.persona, whisper=seed.whisper)
            add_thought(persona, sim.llm, thought, [], score_text=seed.whisper, now=now)
            sim.timeline.note(f"seed whispered to {seed.persona}: {seed.whisper}")
        counts[seed.persona] = counts.get(seed.persona, 0) + 1
    return counts
