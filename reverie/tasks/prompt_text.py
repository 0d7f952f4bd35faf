"""Readers of the texts a task's inputs hold. A task's checks and fail-safes see only its inputs,
as the prompt shows them (a transcript written by ``common.transcript``, an identity written by
the scratch) or as a fixture file holds them; this is the one place those texts are read back."""

from __future__ import annotations


def transcript_rows(text: str) -> list[tuple[str, str]]:
    """A ``Speaker: line`` transcript -> ``[(speaker, line), ...]`` as written (unstripped); a row
    without a colon is no line."""
    return [(speaker, said) for speaker, colon, said in (row.partition(":") for row in text.splitlines()) if colon]


def labelled_value(text: str, label: str) -> str:
    """The value of the first ``Label: value`` line of ``text`` (the label in any case); "" if none."""
    for row in text.splitlines():
        if row.lower().startswith(label.lower() + ":"):
            return row.split(":", 1)[1].strip()
    return ""
