"""Near-duplicate detection for ``remember``.

Exact repeats are already free (ids are content-addressed). This module catches the *near* ones —
the same sentence re-captured with different case, punctuation or a word added or dropped — so
the store does not fill with rephrasings of one fact (the classic memory-bloat complaint).

Similarity is the Jaccard index over word unigrams *and* bigrams of the lower-cased text
(stopwords kept, nothing stemmed), so word order and small function words count: "alice reports
to bob" and "bob reports to alice" are not duplicates, nor are "port is 8080" and "port is 8081".
Texts of three words or fewer must match exactly after normalisation.

A second rule catches rewordings that share few exact bigrams: the same content words (Jaccard
≥ :data:`REWORD_THRESHOLD` over stopword-free, hyphen-split, Porter-stemmed words — "pagination"
and "paginate" are one — both texts having at least :data:`REWORD_MIN_WORDS` of them) **and**
exactly the same numbers, identifiers (anything with a digit, ``.``, ``/``, ``:``, ``@`` or ``_`` —
hosts, paths, versions; not two names joined by a slash, "Keychain/Keystore") and environment words
(prod, staging, ios, …; not those as often prose: "notebooks *live* in", "*local* UI state"). A
changed value or another environment is never a rewording: "ledger-prod-3 … production" and
"ledger-stg-1 … staging" stay two memories. On the coding-agent dev set
(``scripts/bench_memory_devset.py``, 29 rewordings), over every same-project pair: rewordings
merged tune 9/15 -> 13/15, check 10/14 -> 12/14 (plural folding, threshold 0.6 -> stemming, 0.5;
0.45-0.6 tried on tune, 0.45 merged a file note into a decision); merged look-alike pairs 0/11,
0/7, implicit updates 0/21, 0/29, other pairs 0/9632, 0/8468. The misses are paraphrases with
other words ("datetimes are stored" / "timestamps are saved"), which need meaning.

Only current memories of the same project are considered, found through the FTS5 index by the
new text's most specific (longest) terms. When a duplicate is found the caller stores the new
text as the next version of the old one (change ``"merge"``), so the newest wording is current
and the merge is visible in ``history``.
"""

from __future__ import annotations

import re
import sqlite3

from .model import SELECT_ROWS, Filter, MemoryRecord, record_from_row
from .store import fts_rows

THRESHOLD = 0.85
MAX_TEXT_CHARS = 32 * 1024  # longer texts are deduplicated by exact id only
_WORDS = re.compile(r"[^\W_]+")
_PROBE_TERMS = 8
_CANDIDATES = 20


def _shingles(text: str) -> tuple[tuple[str, ...], set]:
    words = tuple(w.lower() for w in _WORDS.findall(text))
    grams: set = set(words)
    grams.update(zip(words, words[1:]))
    return words, grams


REWORD_THRESHOLD = 0.5
REWORD_MIN_WORDS = 6
_TOKENS = re.compile(r"[^\W_](?:[\w.\-/:@%]*[^\W_])?")
_NUMBERS = re.compile(r"\d+(?:\.\d+)*")
_ENV = frozenset("prod production staging stg stage dev development test qa preview local sandbox live ios android "
                 "web primary replica".split())


def _parts(text: str):
    """(content words, identifiers, numbers, environment words) of ``text``."""
    from .analyze import STOPWORDS

    words, idents, env = set(), set(), set()
    for w in _TOKENS.findall(text.lower()):
        if w in _ENV:
            env.add(w)
        elif any(c.isdigit() for c in w) or any(c in w for c in "./:@_%"):
            idents.add(w)
        elif w not in STOPWORDS and len(w) > 1:
            for p in w.split("-"):
                if p and p not in STOPWORDS:
                    words.add(p[:-1] if p.endswith("s") and len(p) > 3 else p)
    return words, idents, set(_NUMBERS.findall(text)), env


# environment words that are as often plain prose ("notebooks live in …", "local UI state", "web
# dashboard", "with tests"): a difference in these alone does not make two facts
_PROSE_ENV = frozenset("live local web test primary preview".split())


def _reword_parts(text: str):
    """(stemmed content words, identifiers, numbers, environment words) for :func:`is_rewording`:
    "pagination" and "paginate" are one word, and a pair of names joined by a slash
    ("Keychain/Keystore") is two words, not an identifier."""
    from .stem import stem

    words, idents, nums, env = _parts(text)
    for i in [i for i in idents if "/" in i and i.replace("/", "").isalpha() and not i.startswith("/") and not i.endswith("/")]:
        idents.discard(i)
        words.update(p for p in i.split("/") if len(p) > 1)
    return {stem(w) for w in words}, idents, nums, env - _PROSE_ENV


def is_rewording(a: str, b: str) -> bool:
    """Same content words, same values: see the module docstring."""
    wa, ia, na, ea = _reword_parts(a)
    wb, ib, nb, eb = _reword_parts(b)
    if ea != eb or na != nb or ia != ib or min(len(wa), len(wb)) < REWORD_MIN_WORDS:
        return False
    return len(wa & wb) / len(wa | wb) >= REWORD_THRESHOLD


def similarity(a: str, b: str) -> float:
    wa, ga = _shingles(a)
    wb, gb = _shingles(b)
    if not wa or not wb:
        return 1.0 if wa == wb else 0.0
    if len(wa) <= 3 or len(wb) <= 3:
        return 1.0 if wa == wb else 0.0
    return len(ga & gb) / len(ga | gb)


def find_near_duplicate(conn: sqlite3.Connection, rec: MemoryRecord, terms: list[str]) -> MemoryRecord | None:
    """The most similar current memory of ``rec.project`` at or above :data:`THRESHOLD`, if any."""
    if len(rec.text) > MAX_TEXT_CHARS or not terms:
        return None
    probe = sorted(set(terms), key=lambda t: (-len(t), t))[:_PROBE_TERMS]
    rows = fts_rows(conn, probe, Filter(projects=(rec.project,)), _CANDIDATES)
    best: tuple[float, MemoryRecord] | None = None
    for seq, _ in rows:
        row = conn.execute(SELECT_ROWS + " WHERE seq = ?", (seq,)).fetchone()
        if row is None:
            continue
        cand = record_from_row(row)
        if cand.id == rec.id or len(cand.text) > MAX_TEXT_CHARS:
            continue
        score = similarity(rec.text, cand.text)
        if score < THRESHOLD and is_rewording(rec.text, cand.text):
            score = THRESHOLD
        if score >= THRESHOLD and (best is None or score > best[0]):
            best = (score, cand)
    return best[1] if best else None
