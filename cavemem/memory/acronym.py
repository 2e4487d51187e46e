"""Initialisms a question spells out: "mean absolute percentage error" may be stored as ``MAPE``,
"entity component system" as ``bevy_ecs``, "over-the-air updates" as ``OTA updates``.

The ranker asks the store about the initials of each maximal run of :data:`MIN_WORDS`-:data:`MAX_WORDS`
content words of the query (no stopword inside; "mean absolute percentage error", not "what is the
mean") and of each hyphenated word of three or more parts ("over-the-air", stopwords included), and
adds those the store knows as query terms; an initialism no memory holds is dropped before it can
weigh on the refusal gate. A memory holding one covers the words it stands for (a question spelling
out "MAPE" is covered by the memory that says MAPE), while the initialism itself adds nothing to
the query's coverage mass. Only whole runs count: the initials of a part of one ("map" of "mean
absolute percentage") would be a common word as often as an abbreviation.
"""

from __future__ import annotations

import re

from . import analyze

MIN_WORDS = 3  # two-letter initials ("CI", "PR") are too ambiguous to guess from two words
MAX_WORDS = 5
_WORD = re.compile(r"[A-Za-z]+")


def initialisms(query: str) -> dict[str, tuple[str, ...]]:
    """Analyzed terms of the initials of the query's content-word runs and long hyphenated words,
    first seen first, each with the analyzed terms of the words it stands for."""
    out: dict[str, tuple[str, ...]] = {}
    run: list[str] = []

    def spell(words: list[str]) -> None:
        for term in analyze.analyze("".join(w[0] for w in words)):
            out.setdefault(term, tuple(analyze.analyze(" ".join(words))))

    for token in [*query.lower().split(), ""]:
        parts = _WORD.findall(token)
        if len(parts) >= MIN_WORDS and "-" in token:
            spell(parts)
        content = [w for w in parts if w not in analyze.STOPWORDS]
        if parts and len(content) == len(parts):
            run.extend(parts)
            continue
        if MIN_WORDS <= len(run) <= MAX_WORDS:
            spell(run)
        run = []
    return out
