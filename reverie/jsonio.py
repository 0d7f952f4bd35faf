"""JSON files written atomically and read with a one-line error: every layer's file I/O."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from reverie.errors import UserError, naming

# Inside :func:`reusing_unchanged`: (the folder being written, the folder it replaces).
_REUSE: ContextVar[tuple[Path, Path] | None] = ContextVar("reusing_unchanged", default=None)


@contextmanager
def reusing_unchanged(new_dir: Path, old_dir: Path) -> Iterator[None]:
    """Inside, a file written under ``new_dir`` whose text is that of the same file under
    ``old_dir`` becomes a hard link to it: no new data and no disk sync (a checkpoint rewrites
    every persona's files, and most of them have not changed since the last one). Files are
    only ever replaced, never changed in place, so the two names stay the same text."""
    token = _REUSE.set((Path(new_dir), Path(old_dir)))
    try:
        yield
    finally:
        _REUSE.reset(token)


def _linked_unchanged(path: Path, text: str) -> bool:
    reuse = _REUSE.get()
    if reuse is None:
        return False
    new_dir, old_dir = reuse
    try:
        old = old_dir / path.relative_to(new_dir)
        data = text.encode("utf-8")
        if old.stat().st_size != len(data) or old.read_bytes() != data:
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        os.link(old, path)
        return True
    except (ValueError, OSError):  # not under new_dir, no old file, or no hard links here: write it
        return False


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` so readers see the old file or the new one, never half (on
    disk before it replaces the old one)."""
    path = Path(path)
    if _linked_unchanged(path, text):
        return
    with naming(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with naming(path), os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_json_atomic(path: str | Path, data: Any, *, indent: int | None = 2) -> None:
    """JSON like the original writes it (indent 2, non-ASCII escaped), atomically."""
    write_text_atomic(path, json.dumps(data, indent=indent, ensure_ascii=True))


class ObjectText:
    """The text :func:`write_json_atomic` writes for a ``{key: value}`` object, encoding again
    only the members whose value changed since the last call (a checkpoint saves every persona's
    memory every few steps, and little of it has changed since the one before). A value is
    unchanged when it is the same object or equal to the one encoded: values must not be
    changed in place after they are written."""

    def __init__(self, *, indent: int | None = 2):
        self.indent = indent
        self._members: dict[str, tuple[Any, str]] = {}  # key -> (value encoded, its line of the object)

    def text(self, data: dict[str, Any]) -> str:
        members: dict[str, tuple[Any, str]] = {}
        for key, value in data.items():
            known = self._members.get(key)
            if known is None or not (known[0] is value or known[0] == value):
                known = (value, self._line(key, value))
            members[key] = known
        self._members = members
        if not members:
            return "{}"
        lines = (line for _, line in members.values())
        return "{" + ", ".join(lines) + "}" if self.indent is None else "{\n" + ",\n".join(lines) + "\n}"

    def _line(self, key: str, value: Any) -> str:
        text = json.dumps(value, indent=self.indent, ensure_ascii=True)
        if self.indent is None:
            return f"{json.dumps(key)}: {text}"
        # One level deeper than on its own: json.dumps escapes a newline inside a string, so
        # every newline in the text is the layout's.
        pad = " " * self.indent
        return f"{pad}{json.dumps(key)}: " + text.replace("\n", "\n" + pad)


class BadJSON(UserError, json.JSONDecodeError):
    """A file that is not valid JSON (truncated, edited by hand): still a ``JSONDecodeError``
    for callers that expect one, and one line naming the file for the user."""

    def __init__(self, path: str | Path, exc: json.JSONDecodeError):
        json.JSONDecodeError.__init__(self, exc.msg, exc.doc, exc.pos)
        self.path = Path(path)

    def __str__(self) -> str:
        return (
            f"{self.path} is damaged (not valid JSON: {self.msg} at line {self.lineno}) — "
            "restore it from a copy, or fork the simulation's base again"
        )


def read_json(path: str | Path) -> Any:
    with open(path, encoding="utf-8") as fh:
        try:
            return json.load(fh)
        except json.JSONDecodeError as exc:
            raise BadJSON(path, exc) from None


def read_json_or(path: Path, *, missing: Callable[[], Exception], unreadable: Callable[[str], Exception]) -> Any:
    """The JSON in ``path``; a missing file raises ``missing()``, one that cannot be read as JSON
    ``unreadable(<the error's class name>)``: callers word the one line for their user."""
    try:
        with Path(path).open(encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        raise missing() from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise unreadable(exc.__class__.__name__) from None


def jsonl_lines(text: str) -> Iterator[tuple[str, Any]]:
    """``(line, value)`` for each non-blank line of a JSON-lines text; ``value`` is None for a
    line that is not JSON (one cut short by a kill)."""
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            yield line, json.loads(line)
        except ValueError:
            yield line, None
