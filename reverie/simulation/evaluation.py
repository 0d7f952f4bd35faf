"""`python -m reverie evaluate SIM`: the paper's measurements on a simulation, now.

Every persona is interviewed the way ``call -- analysis`` does it (the memories that bear on
the question, the persona's answer; the safety check is left out, as the questions are the
code's own) and the answer is judged yes or no with the words that decide it (prompt
``interview_judge``):

* diffusion: "Did you know ...?" for each seeded fact (``reverie/seeds.json``);
* relationships: "Do you know <name>?" for every other resident; the network density is
  the share of pairs where at least one knows the other. With ``--pairs K`` only K pairs
  drawn at random are asked (both ways): at 25 residents all 300 pairs are 600 interviews,
  hours on a CPU; the density is then the sample's, with its 95 % interval;
* coordination: who stood in the seeded event's place during its time window, from the
  movement files.

Next to each interview figure is the same one read from the memories, with no model: a
resident holds a seeded fact when one of its memories (events, thoughts, conversations) has
the seed's keywords, and knows of a resident its memories name. A small model's interview
answers can say yes to anything they are asked about; the memories say what reached them.

Each evaluation is one checkpoint of ``<sim>/evaluation.json`` (by step; evaluating the
same step again replaces it), so evaluating at several points of a run gives the figures
over time. Nothing is written to the personas' memories; the calls go to the run's ledger.
"""

from __future__ import annotations

import argparse
import json
from datetime import timedelta
from pathlib import Path

from reverie.clock import parse_time
from reverie.config import Settings
from reverie.errors import UserError
from reverie.jsonio import write_json_atomic
from reverie.sim_layout import EVALUATION as EVALUATION_FILE
from reverie.simulation.concurrency import cognition_workers, run_groups
from reverie.simulation.evaluation_figures import (all_pairs, attendance, density, diffusion, holds, names_in,
                                                   sample_pairs)
from reverie.simulation.seeds import Seed, read_seeds
from reverie.tasks.common import content_words


def know_question(name: str) -> str:
    return f"Do you know {name}?"


def ask(sim, persona, question: str) -> dict:
    """One interview question, answered and judged: {"question", "answer", "verdict", "evidence"}."""
    from reverie.simulation.interview import answer
    from reverie.tasks.interview_judge import judge_answer

    reply = answer(sim, persona, [], question, safety_check=False)
    if reply is None:   # a safety check declined to answer (not asked for these questions)
        return {"question": question, "answer": None, "verdict": "no", "evidence": ""}
    judged = judge_answer(sim.llm, persona_name=persona.name, question=question, answer=reply)
    return {"question": question, "answer": reply, "verdict": judged.verdict, "evidence": judged.evidence}


def memory_texts(persona) -> list[str]:
    """Everything a persona's memory says in words: each node's description, and the lines of
    the conversations it took part in."""
    texts = []
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


def in_memory(sim, seeds: list[Seed], names: list[str]) -> tuple[dict[str, list[str]], dict[str, dict[str, bool]]]:
    """From the memories, no model: {fact: residents holding it}, {a: {b: a's memories name b}}."""
    texts = {name: memory_texts(sim.personas[name]) for name in names}
    keywords = {seed.fact: fact_keywords(seed, names) for seed in seeds}
    holders = {fact: [n for n in names if holds(texts[n], words)] for fact, words in keywords.items()}
    named = {a: {b: True for b in names_in(texts[a], [n for n in names if n != a])} for a in names}
    return holders, named


def movement_frames(storage, names: list[str]):
    """(time, {name: (x, y)}) for every movement file of the run, in step order."""
    for step in storage.steps_in("movement"):
        data = storage.read_movement(step) or {}
        when = (data.get("meta") or {}).get("curr_time")
        if not when:
            continue
        tiles = {n: m["movement"] for n, m in (data.get("persona") or {}).items() if n in names and m.get("movement")}
        yield parse_time(when), tiles


def coordination(sim, seed: Seed, invited: list[str]) -> dict:
    event = seed.event
    day = parse_time(f"{event.day}, 00:00:00")
    window = (day + timedelta(minutes=event.start), day + timedelta(minutes=event.end))

    def place_of(tile) -> bool:
        x, y = tile
        if not sim.maze.in_bounds((x, y)):
            return False
        t = sim.maze.tiles[y][x]
        return t["sector"] == event.sector and t["arena"] == event.arena

    seen = attendance(movement_frames(sim.storage, sim.persona_names), place_of, window, sim.persona_names)
    return {
        "fact": seed.fact, "host": seed.persona, "place": f"{event.sector}:{event.arena}",
        "window": [window[0].strftime("%B %d, %Y, %H:%M"), window[1].strftime("%B %d, %Y, %H:%M")],
        "reached": sim.curr_time >= window[0],   # False: the run has not got to the window, nobody could come yet
        "invited": [n for n in invited if n != seed.persona],
        "attended": sorted(seen), "steps_at_place": seen,
        "attended_invited": sorted(n for n in seen if n in invited and n != seed.persona),
    }


def evaluate(sim, *, say=print, pairs: int | None = None) -> dict:
    """Interview everyone, judge, measure; returns the checkpoint (not yet saved).

    Retrieval marks the memories it returns as just accessed; the interviews put the old
    times back, so a run that goes on after an evaluation is the run it would have been.
    ``pairs``: ask about that many random pairs of residents only (see the module's text)."""
    accessed = [(node, node.last_accessed) for p in sim.personas.values() for node in p.a_mem.nodes()]
    try:
        return _evaluate(sim, say, pairs)
    finally:
        for node, when in accessed:
            node.last_accessed = when


def _evaluate(sim, say, pairs: int | None = None) -> dict:
    names = list(sim.persona_names)
    if pairs is not None and pairs < 1:
        raise UserError("--pairs must be at least 1")
    asked = sample_pairs(names, pairs) if pairs is not None else all_pairs(names)
    about: dict[str, list[str]] = {name: [] for name in names}
    for a, b in asked:
        about[a].append(b)
        about[b].append(a)
    seeds = read_seeds(sim.storage.dir)
    sim.llm.set_clock(sim.step_no, sim.curr_time_str)
    fact_answers: dict[str, dict[str, dict]] = {s.fact: {} for s in seeds}
    rel_answers: dict[str, dict[str, dict]] = {}

    def interview(name: str) -> tuple[dict[str, dict], dict[str, dict]]:
        """One persona's answers: {fact: answer}, {other: answer}."""
        persona = sim.personas[name]
        facts = {seed.fact: ask(sim, persona, seed.question) for seed in seeds}
        return facts, {other: ask(sim, persona, know_question(other)) for other in names if other in about[name]}

    # On a multi-slot server several personas are interviewed at once (each its questions in order);
    # nothing is written to a memory, so the answers are those of one persona after another.
    workers = cognition_workers(sim.settings.backend, replaying=sim.llm.replaying)
    done = run_groups([[name] for name in names], interview, workers)
    for i, name in enumerate(names, 1):
        facts, rel_answers[name] = done[name]
        for fact, answer in facts.items():
            fact_answers[fact][name] = answer
        known = sum(a["verdict"] == "yes" for a in rel_answers[name].values())
        say(f"[{i}/{len(names)}] {name}: knows {known} of {len(rel_answers[name])} residents asked about; "
            + ", ".join(f"{s.fact}: {fact_answers[s.fact][name]['verdict']}" for s in seeds))
    holders, named = in_memory(sim, seeds, names)
    diffusion_rows = []
    coordination_rows = []
    for seed in seeds:
        answers = fact_answers[seed.fact]
        knowers = [n for n in names if answers[n]["verdict"] == "yes"]
        held = holders[seed.fact]
        diffusion_rows.append({"fact": seed.fact, "seeded_to": seed.persona, "question": seed.question,
                               **diffusion({n: answers[n]["verdict"] == "yes" for n in names}),
                               "knows": knowers, "answers": answers,
                               "in_memory": {**diffusion({n: n in held for n in names}), "holders": held,
                                             "keywords": fact_keywords(seed, names)}})
        if seed.event is not None:
            coordination_rows.append(coordination(sim, seed, knowers))
    knows = {a: {b: r["verdict"] == "yes" for b, r in row.items()} for a, row in rel_answers.items()}
    return {
        "step": sim.step_no, "time": sim.curr_time_str, "personas": names,
        "diffusion": diffusion_rows,
        "relationships": {**density(names, knows, None if pairs is None else asked), "answers": rel_answers,
                          "in_memory": density(names, named)},
        "coordination": coordination_rows,
    }


def read_evaluation(sim_dir: Path) -> dict | None:
    path = Path(sim_dir) / EVALUATION_FILE
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise UserError(f"{path} is not valid JSON ({exc}) — delete it and evaluate again") from None


def save_checkpoint(sim_dir: Path, sim_code: str, checkpoint: dict) -> dict:
    """Add (or replace, same step) a checkpoint in evaluation.json; returns the whole file."""
    data = read_evaluation(sim_dir) or {"sim_code": sim_code, "checkpoints": []}
    rows = [c for c in data.get("checkpoints", []) if c.get("step") != checkpoint["step"]]
    rows.append(checkpoint)
    data["checkpoints"] = sorted(rows, key=lambda c: c["step"])
    write_json_atomic(Path(sim_dir) / EVALUATION_FILE, data)
    return data


def summary_lines(checkpoint: dict) -> list[str]:
    lines = [f"evaluation at step {checkpoint['step']} ({checkpoint['time']}), {len(checkpoint['personas'])} personas"]
    for row in checkpoint["diffusion"]:
        held = row.get("in_memory")
        lines.append(f"  diffusion  {row['fact']}: {row['count']}/{row['total']} ({row['share']:.0%}) say they know"
                     + (f"; {held['count']}/{held['total']} ({held['share']:.0%}) hold it in memory" if held else ""))
    rel = checkpoint["relationships"]
    if rel.get("sampled"):
        low, high = rel["interval"]
        line = (f"  relationships  density {rel['density']:.3f} ({rel['known_pairs']} of {rel['pairs_asked']} "
                f"pairs asked, of {rel['pairs']}; 95 % interval {low:.3f}-{high:.3f})")
    else:
        line = f"  relationships  density {rel['density']:.3f} ({rel['known_pairs']} of {rel['pairs']} pairs)"
    named = rel.get("in_memory")
    lines.append(line + (f"; in memory {named['density']:.3f} ({named['known_pairs']} of {named['pairs']} pairs)"
                         if named else ""))
    for row in checkpoint["coordination"]:
        head = f"  coordination  {row['fact']} ({row['place']}, {row['window'][0]}-{row['window'][1][-5:]}): "
        if row.get("reached", True):
            lines.append(head + f"{len(row['invited'])} heard of it, {len(row['attended'])} came "
                                f"({len(row['attended_invited'])} of those who heard)")
        else:
            lines.append(head + f"{len(row['invited'])} heard of it; the run has not reached the window yet")
    return lines


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sim", help="simulation folder name under [paths] storage")
    parser.add_argument("--pairs", type=int, metavar="K",
                        help="ask about K random pairs of residents, both ways (default: every pair)")
    parser.add_argument("--into", metavar="NAME",
                        help="copy SIM to a new simulation NAME first and evaluate that (a base is never written)")


def main(args, settings: Settings, *, llm=None, say=print) -> int:
    from reverie.simulation.simulation import Simulation

    into = getattr(args, "into", None)
    if into:
        sim = Simulation.fork(settings, args.sim, into, llm=llm)
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
