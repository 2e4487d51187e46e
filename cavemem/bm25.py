"""Okapi BM25 shared by query narrowing, query-aware compressors and context packing
(spec engine-core §6.2, engine-compressors §2.2).

Tokens are maximal runs of letters (L*), decimal digits (Nd) and ``_`` after per-character
lowercasing; a token is kept when it is at least 2 UTF-8 bytes long and not a stopword.
k1 = 1.5, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5)).
"""

from __future__ import annotations

import math
import re
from collections import Counter

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
    from .gocompat import go_lower

    return go_lower(text)


def tokenize(text: str) -> list[str]:
    """The kept BM25 tokens of ``text``, in order (duplicates included)."""
    low = _lower(text)
    out: list[str] = []
    for run in _WORD.findall(low):
        if run.isascii():
            pieces = [run]
        else:
            pieces, cur = [], []
            for c in run:
                if _is_token_char(c):
                    cur.append(c)
                elif cur:
                    pieces.append("".join(cur))
                    cur = []
            if cur:
                pieces.append("".join(cur))
        for tok in pieces:
            if (len(tok) >= 2 or not tok.isascii()) and tok not in STOPWORDS:
                out.append(tok)
    return out


def query_terms(query: str) -> set[str]:
    return set(tokenize(query))


def scores(query: str, docs: list[str]) -> list[float]:
    """BM25 score of each doc against ``query`` (all zero when the query has no terms)."""
    terms = query_terms(query)
    n = len(docs)
    if not terms or n == 0:
        return [0.0] * n
    tfs = [Counter(tokenize(d)) for d in docs]
    return score_counted(terms, tfs)


def score_counted(terms, tfs: list[Counter]) -> list[float]:
    """BM25 over pre-tokenised docs (``Counter`` of tokens per doc)."""
    n = len(tfs)
    if not terms or n == 0:
        return [0.0] * n
    terms = sorted(terms)  # fixed summation order: scores must not depend on hash seeds
    lengths = [sum(tf.values()) for tf in tfs]
    total = sum(lengths)
    avgdl = total / n if total else 1.0
    df = {t: sum(1 for tf in tfs if t in tf) for t in terms}
    idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in terms}
    out = []
    for tf, dl in zip(tfs, lengths):
        s = 0.0
        norm = K1 * (1 - B + B * dl / avgdl)
        for t in terms:
            f = tf.get(t, 0)
            if f:
                s += idf[t] * f * (K1 + 1) / (f + norm)
        out.append(s)
    return out
