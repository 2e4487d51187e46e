"""Okapi BM25 shared by query narrowing, query-aware compressors and context packing
(spec engine-core §6.2, engine-compressors §2.2).

Tokens are maximal runs of letters (L*), decimal digits (Nd) and ``_`` after per-character
lowercasing; a token is kept when it is at least 2 UTF-8 bytes long and not a stopword.
k1 = 1.5, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5)).
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter
from itertools import accumulate

from .gocompat import char_runs, go_lower

K1 = 1.5
B = 0.75

STOPWORDS = frozenset(
    "a an and are as at be by for from how in is it of on or that the this to was what when where which who why with".split()
)

# Letters, Nd digits and underscore. ``\w`` in Python's unicode mode also admits other number
# categories (No, Nl) and some marks; we filter those out character by character only when the
# fast path sees non-ASCII.
_WORD = re.compile(r"[^\W]+")


def _is_token_char(c: str) -> bool:
    import unicodedata

    if c == "_":
        return True
    cat = unicodedata.category(c)
    return cat[0] == "L" or cat == "Nd"


def _lower(text: str) -> str:
    """Per-character simple lowercasing (Go strings.ToLower, G20): U+0130 becomes ``i``."""
    return go_lower(text)


def tokenize(text: str) -> list[str]:
    """The kept BM25 tokens of ``text``, in order (duplicates included)."""
    low = _lower(text)
    out: list[str] = []
    for run in _WORD.findall(low):
        pieces = [run] if run.isascii() else char_runs(run, _is_token_char)
        for tok in pieces:
            if (len(tok) >= 2 or not tok.isascii()) and tok not in STOPWORDS:
                out.append(tok)
    return out


def query_terms(query: str) -> set[str]:
    return set(tokenize(query))


def scores(query: str, docs: list[str]) -> list[float]:
    """BM25 score of each doc against ``query`` (all zero when the query has no terms)."""
    terms = sorted(query_terms(query))
    n = len(docs)
    if not terms or n == 0:
        return [0.0] * n
    total, lengths, hits = _doc_stats(terms, docs)
    return _score(terms, n, total, lengths, hits)


def score_counted(terms, tfs: list[Counter]) -> list[float]:
    """BM25 over pre-tokenised docs (``Counter`` of tokens per doc)."""
    terms = sorted(terms)  # fixed summation order: scores must not depend on hash seeds
    if not terms or not tfs:
        return [0.0] * len(tfs)
    lengths: dict[int, int] = {}
    hits: dict[int, dict[str, int]] = {}
    for i, tf in enumerate(tfs):
        got = {t: tf[t] for t in terms if tf.get(t)}
        if got:
            lengths[i] = sum(tf.values())
            hits[i] = got
    return _score(terms, len(tfs), sum(sum(tf.values()) for tf in tfs), lengths, hits)


_KEPT_ASCII_RUN = re.compile(r"[a-z0-9_]{2,}")  # maximal runs of >= 2 (a run of 1 never starts a match)
_IS_STOPWORD = STOPWORDS.__contains__


def _kept_token_total(low: str) -> int:
    """How many BM25 tokens the lowered text holds."""
    if low.isascii():
        runs = _KEPT_ASCII_RUN.findall(low)
        return len(runs) - sum(map(_IS_STOPWORD, runs))
    return len(tokenize(low))


def _doc_stats(terms: list[str], docs: list[str]) -> tuple[int, dict[int, int], dict[int, dict[str, int]]]:
    """(total kept tokens, lengths of the docs holding a term, their non-zero term frequencies).

    Only a doc containing a query term can score above zero, and a token of the lowered doc is
    always a substring of it, so docs are found with ``find`` sweeps over the joined lowered
    text and only those are tokenized; the rest contribute their token count in one bulk pass.
    Joining with ``\\n`` (not a token character) keeps tokens from spanning docs, and simple
    lowercasing keeps character offsets, so positions map back to docs through ``starts``."""
    low = _lower("\n".join(docs))
    total = _kept_token_total(low)
    starts = list(accumulate((len(d) + 1 for d in docs[:-1]), initial=0))
    candidates: set[int] = set()
    for t in terms:
        pos = low.find(t)
        while pos >= 0:
            i = bisect_right(starts, pos) - 1
            candidates.add(i)
            pos = low.find(t, starts[i] + len(docs[i]) + 1)
    lengths: dict[int, int] = {}
    hits: dict[int, dict[str, int]] = {}
    for i in sorted(candidates):
        counted = Counter(tokenize(docs[i]))
        tf = {t: counted[t] for t in terms if counted.get(t)}
        if tf:
            lengths[i] = sum(counted.values())
            hits[i] = tf
    return total, lengths, hits


def _score(terms: list[str], n: int, total: int, lengths: dict[int, int], hits: dict[int, dict[str, int]]) -> list[float]:
    avgdl = total / n if total else 1.0
    df = {t: sum(1 for tf in hits.values() if t in tf) for t in terms}
    idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in terms}
    out = [0.0] * n
    for i, tf in hits.items():
        s = 0.0
        norm = K1 * (1 - B + B * lengths[i] / avgdl)
        for t in terms:
            f = tf.get(t, 0)
            if f:
                s += idf[t] * f * (K1 + 1) / (f + norm)
        out[i] = s
    return out
