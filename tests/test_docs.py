"""Every design note the code cites is in docs/, with the section it names."""

from __future__ import annotations

import re

from reverie import PROJECT_ROOT

CITE = re.compile(r"docs/([A-Z]+\.md)(?: §(\d+(?:\.\d+)?))?")


def _sources():
    for folder in ("reverie", "tests"):
        yield from (PROJECT_ROOT / folder).rglob("*.py")


def test_every_cited_note_and_section_exists():
    cited = 0
    for path in _sources():
        for name, section in CITE.findall(path.read_text(encoding="utf-8")):
            doc = PROJECT_ROOT / "docs" / name
            assert doc.is_file(), f"{path}: cites docs/{name}, which is missing"
            if section:
                heading = re.compile(rf"^#+ {re.escape(section)}\.? ", re.MULTILINE)
                assert heading.search(doc.read_text(encoding="utf-8")), f"{path}: docs/{name} has no §{section}"
            cited += 1
    assert cited >= 12


def test_no_bare_note_names_are_cited():
    """A note is cited with its folder, so the citation says where to find it."""
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(?<!docs/)\b(LOOP|SERVER|PROMPTS|FRONTEND)\.md\b", text), path
