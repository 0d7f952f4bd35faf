"""What a run did, in a few lines for the end of `run`: who went where, the conversations,
the model calls (with their repairs and fail-safes) and where to watch it.

Everything is read back from the run's own files (``movement/<step>.json`` and the LLM
ledger), so the summary says what the viewer and ``/runs/<sim>/`` will show.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reverie.address import PersonaAt, Place, movement_address, parse_address
from reverie.simulation.storage import SimStorage

TOPIC_CHARS = 70
FRONTEND = "http://127.0.0.1:8000"


@dataclass
class RunStory:
    """The places each persona went through (in order) and the conversations, from the movement files."""

    places: dict[str, list[str]] = field(default_factory=dict)
    conversations: list[tuple[list[str], str, str]] = field(default_factory=list)  # (speakers, opening line, clock)


def place_of(description: str) -> str | None:
    """ "walking @ Willow Creek:Willow Bean Cafe:counter" -> "Willow Bean Cafe"."""
    address = movement_address(str(description))
    if address is None:
        return None
    if isinstance(parse_address(address), PersonaAt):
        return None  # talking to someone where they stand: the conversation is listed on its own
    parts = [p.strip() for p in Place(address).parts if p.strip()]
    if len(parts) >= 2:
        return parts[1]
    return parts[0] if parts else None


def read_story(storage: SimStorage, first_step: int, end_step: int) -> RunStory:
    """The story of steps ``first_step`` .. ``end_step - 1`` (missing files are skipped)."""
    story, seen = RunStory(), set()
    for step in range(first_step, end_step):
        data = storage.read_movement(step) or {}
        clock = str((data.get("meta") or {}).get("curr_time") or "")
        for name, move in (data.get("persona") or {}).items():
            place = place_of(move.get("description") or "")
            visited = story.places.setdefault(name, [])
            if place and (not visited or visited[-1] != place):
                visited.append(place)
            chat = move.get("chat")
            if chat and repr(chat) not in seen:
                seen.add(repr(chat))
                first_line = next(iter(chat), ["", ""])
                speakers = sorted({str(line[0]) for line in chat if line})
                story.conversations.append((speakers, str(first_line[1]) if len(first_line) > 1 else "", clock))
    return story


def _merge_growing_chats(conversations):
    """A chat grows a line per step; keep the longest version of each (same speakers, same opening)."""
    kept: dict[tuple, tuple] = {}
    for speakers, opening, clock in conversations:
        kept.setdefault((tuple(speakers), opening), (speakers, opening, clock))
    return list(kept.values())


def ledger_counts(lines: list[dict]) -> tuple[int, int, int]:
    """(calls, repaired, fail-safes) of ledger ``lines``."""
    fallbacks = sum(1 for line in lines if line.get("fallback"))
    repaired = sum(1 for line in lines if not line.get("fallback") and int(line.get("attempts") or 1) > 1)
    return len(lines), repaired, fallbacks


def summary_lines(story: RunStory, sim_code: str, ledger_lines: list[dict], demo_step: int | None) -> list[str]:
    """The lines printed at the end of a run."""
    out = ["what happened:"]
    for name, places in story.places.items():
        out.append(f"  {name}: {' -> '.join(places) if places else 'stayed put'}")
    conversations = _merge_growing_chats(story.conversations)
    if not conversations:
        out.append("  no conversation")
    for speakers, opening, clock in conversations:
        topic = opening if len(opening) <= TOPIC_CHARS else opening[: TOPIC_CHARS - 1] + "…"
        when = f" ({clock.split(', ')[-1]})" if clock else ""
        out.append(f'  conversation{when}: {" and ".join(speakers)}: "{topic}"')
    calls, repaired, fallbacks = ledger_counts(ledger_lines)
    out.append(f"  {calls} model call(s), {repaired} repaired, {fallbacks} fail-safe(s): {FRONTEND}/runs/{sim_code}/")
    if demo_step is not None:
        out.append(f"  watch it: {FRONTEND}/demo/{sim_code}/{demo_step}/3/")
    else:
        out.append(
            f"  to watch it: python -m reverie compress {sim_code}, then {FRONTEND}/demo/{sim_code}/<first step>/3/"
        )
    return out


def print_summary(storage: SimStorage, first_step: int, end_step: int, demo_step: int | None) -> list[str]:
    """Print (and return) the end-of-run lines for steps ``first_step`` .. ``end_step - 1``."""
    from reverie.prompt_tools.evaluate import read_ledger

    lines = [
        line
        for line in read_ledger(storage.ledger_path)
        if not isinstance(line.get("step"), int) or first_step <= line["step"] < end_step
    ]
    out = summary_lines(read_story(storage, first_step, end_step), storage.sim_code, lines, demo_step)
    print("\n".join(out), flush=True)
    return out
