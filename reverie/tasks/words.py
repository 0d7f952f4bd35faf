"""Words of a text: the names it mentions, whether it addresses someone, the words it is about."""

from __future__ import annotations

import re

# Words too common to tell what a text is about.
_STOPWORDS = {
    "about",
    "after",
    "again",
    "also",
    "been",
    "before",
    "being",
    "could",
    "does",
    "doing",
    "each",
    "from",
    "have",
    "having",
    "here",
    "into",
    "just",
    "like",
    "more",
    "most",
    "much",
    "only",
    "other",
    "over",
    "really",
    "should",
    "some",
    "such",
    "than",
    "that",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "very",
    "want",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "will",
    "with",
    "would",
    "your",
    "yours",
    "conversing",
    "conversation",
    "talking",
    "talk",
    "chatting",
}


def content_words(text: str) -> set[str]:
    """Lower-cased words of four letters or more that carry meaning (for "is it about this?" checks)."""
    return {w for w in re.findall(r"[a-z][a-z']{3,}", text.lower()) if w not in _STOPWORDS}


def first_name(full_name: str) -> str:
    return full_name.split()[0] if full_name.split() else full_name


def names(text: str, person: str) -> bool:
    """True when ``text`` mentions ``person`` by full or first name (any case)."""
    lowered = text.lower()
    return person.lower() in lowered or first_name(person).lower() in lowered


def mentions_second_person(text: str) -> bool:
    """True when the text addresses someone as "you"/"your"."""
    return re.search(r"\b(you|your|yours|yourself)\b", text, flags=re.IGNORECASE) is not None
