"""Several personas think at once when the model server answers several requests at once.

A persona's move reads and writes its own memory, reads the maze (nobody changes it
during cognition) and touches another persona only by reacting to it: talking to it or
waiting for it. It can react only to a persona whose event it perceives, and it perceives
only tiles within its vision radius. So at the start of a step the personas fall into
groups: two are in one group when either has the other's event within its vision radius,
or when they are talking to each other. Nothing one group does can change what another
group sees, so the groups run side by side, each on its own thread with its members in
persona order: every persona asks the model what it would ask in the sequential run, and
the same replies give the same step. What the threads share is safe to share: the
ledger, the cassette, the embedder's cache and the lazily built models are locked, each
persona has its own Chroma collection, and an in-process model is never used this way.

At most ``workers`` groups run at once (the server's slot count, ``[backend]
parallel_slots``); a group makes one model call at a time, except a persona's asks that need
none of each other's answers (``reverie.llm.side_by_side``), so a few more calls than slots may
be in flight for a moment, and the server queues them. A model loaded in process answers one call at a time, so there the
step stays sequential.
"""

from __future__ import annotations

import contextvars
import logging
import queue
import threading
from collections.abc import Callable, Iterable
from typing import TypeVar

from reverie.config import BackendKind, BackendSettings

log = logging.getLogger(__name__)

T = TypeVar("T")


def cognition_workers(backend: BackendSettings, *, replaying: bool = False) -> int:
    """How many groups of personas may think at once (1: the plain sequential step).

    Only an OpenAI-compatible server with several slots answers concurrent calls; a
    replayed run has no model to wait for and stays sequential (and deterministic).
    """
    if backend.kind != BackendKind.OPENAI or replaying:
        return 1
    return max(1, int(backend.total_slots))  # several servers: their slots together


def in_reach(persona, maze, personas: dict) -> set[str]:
    """Other personas whose event lies within this persona's vision radius, and its chat partner."""
    s = persona.scratch
    near = set()
    for tile in maze.get_nearby_tiles(s.curr_tile, s.vision_r):
        for event in maze.access_tile(tile)["events"]:
            if event[0] in personas and event[0] != persona.name:
                near.add(event[0])
    if s.chatting_with in personas:
        near.add(s.chatting_with)
    return near


def joined(names: list[str], links: Iterable[tuple[str, str]]) -> list[list[str]]:
    """``names`` grouped by ``links``, joined transitively: each group's members in the order of
    ``names``, the groups in the order of their first members."""
    order = {name: i for i, name in enumerate(names)}
    parent = {name: name for name in names}

    def root(name: str) -> str:
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for one, other in links:
        a, b = sorted((root(one), root(other)), key=order.__getitem__)
        parent[b] = a
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(root(name), []).append(name)
    return list(groups.values())


def interaction_groups(personas: dict, maze) -> list[list[str]]:
    """Personas that may touch each other this step, grouped; groups and members in persona order."""
    links = ((name, other) for name, persona in personas.items() for other in in_reach(persona, maze, personas))
    return joined(list(personas), links)


def run_groups(groups: list[list[str]], work: Callable[[str], T], workers: int) -> dict[str, T]:
    """``{name: work(name)}``: each group's members one after another, up to ``workers`` groups at once.

    The first failure (in group order) is raised once every running move has ended; no
    persona starts its move after a failure. Worker threads are daemons, so a second
    Ctrl-C ends the process at once, as in a sequential step; a move already under way
    when the caller is interrupted still finishes in the background.
    """
    if workers <= 1 or len(groups) <= 1:
        return {name: work(name) for group in groups for name in group}
    pending: queue.SimpleQueue = queue.SimpleQueue()
    for group in groups:
        pending.put(group)
    results: dict[str, T] = {}
    failures: dict[str, BaseException] = {}
    stop = threading.Event()
    context = contextvars.copy_context()

    def worker() -> None:
        while not stop.is_set():
            try:
                group = pending.get_nowait()
            except queue.Empty:
                return
            for name in group:
                if stop.is_set():
                    return
                try:
                    results[name] = context.copy().run(work, name)
                except BaseException as exc:  # handed to the caller's thread
                    failures[name] = exc
                    stop.set()
                    return

    threads = [
        threading.Thread(target=worker, name=f"cognition-{i}", daemon=True) for i in range(min(workers, len(groups)))
    ]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join()
    except BaseException:
        stop.set()
        raise
    for name in (name for group in groups for name in group):
        if name in failures:
            raise failures[name]
    return results
