"""Text for the `print ...` commands of the interactive server (docs/SERVER.md §4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reverie.memory.concept_node import NodeKind

if TYPE_CHECKING:
    from reverie.memory.scratch import Scratch
    from reverie.persona.persona import Persona
    from reverie.world.maze import Maze


def schedule(entries: list) -> str:
    """One line per entry: ``HH:MM || <activity>`` where HH:MM is the entry's end time."""
    lines, minutes = [], 0
    for activity, duration in entries or []:
        minutes += int(duration)
        lines.append(f"{minutes // 60:02d}:{minutes % 60:02d} || {activity}")
    return "\n".join(lines) if lines else "(no schedule yet)"


def memory(persona: Persona, kind: str) -> str:
    nodes = persona.a_mem.streams[NodeKind(kind)].nodes
    if not nodes:
        return f"(no {kind} memories)"
    lines = []
    for i, node in enumerate(nodes, 1):
        when = node.created.strftime("%B %d, %Y, %H:%M:%S")
        if kind == NodeKind.CHAT:
            lines.append(f"{i}. with {node.object} ({node.description}) at {when}")
            lines.extend(f"     {speaker}: {utterance}" for speaker, utterance in node.filling)
        else:
            lines.append(
                f"{i}. [{when}] ({node.subject}, {node.predicate}, {node.object}) "
                f"{node.description} — poignancy {node.poignancy}"
            )
    return "\n".join(lines)


def spatial_tree(tree: dict, depth: int = 0) -> str:
    lines = []
    for key, value in (tree or {}).items():
        lines.append(f"{' >' * depth} {key}".strip())
        if isinstance(value, dict):
            sub = spatial_tree(value, depth + 1)
            if sub:
                lines.append(sub)
        else:
            lines.extend(f"{' >' * (depth + 1)} {obj}" for obj in value)
    return "\n".join(lines)


def buffer(scratch: Scratch) -> str:
    items = (scratch.chatting_with_buffer or {}).items()
    return ", ".join(f"{name}: {count}" for name, count in items) or "(empty)"


def tile_events(maze: Maze, x: int, y: int) -> str:
    events = maze.access_tile((x, y))["events"]
    return "\n".join(str(e) for e in sorted(events, key=str)) or "(no events)"


def tile_details(maze: Maze, x: int, y: int) -> str:
    return "\n".join(f"{key}: {value}" for key, value in maze.access_tile((x, y)).items())
