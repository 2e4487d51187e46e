"""Query-aware retention (spec engine-compressors §2.2).

A query only ever *adds* keeps: units the BM25 scorer rates close to the best match survive
elision, nothing already kept is removed, and the redundancy gate still runs afterwards.

Every doc is scored, kept ones included, so kept units still shape the df/avgdl statistics.
"""

from __future__ import annotations

from .. import bm25

# Per-compressor (limit, threshold) from the spec table; json fills up to a total instead.
LOG_LIMIT = 16
SEARCH_RESULT_LIMIT = 24
TEXT_LIMIT = 12
TABULAR_LIMIT = 24
CONFIG_LIMIT = 16
RELEVANCE_THRESHOLD = 0.30


def ranked_candidates(keep: list[bool], docs: list[str], query: str, threshold: float = RELEVANCE_THRESHOLD) -> list[int]:
    """Indices of not-yet-kept docs whose ``score / max_score >= threshold``, best first (ties by
    index). Empty when the query is blank, there are no docs, or nothing scores above zero."""
    if not query or not docs:
        return []
    scores = bm25.scores(query, docs)
    best = max(scores)
    if best <= 0:
        return []
    cands = [i for i, s in enumerate(scores) if not keep[i] and s / best >= threshold]
    cands.sort(key=lambda i: (-scores[i], i))
    return cands


def keep_query_relevant(keep: list[bool], docs: list[str], query: str, limit: int, threshold: float = RELEVANCE_THRESHOLD) -> list[bool]:
    """Mark up to ``limit`` additional relevant docs as kept (in place; also returned).

    ``limit`` counts only the additions; force-keeps are never removed."""
    if limit <= 0:
        return keep
    for i in ranked_candidates(keep, docs, query, threshold)[:limit]:
        keep[i] = True
    return keep
