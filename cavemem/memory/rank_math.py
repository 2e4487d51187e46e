"""Small pure functions the ranker scores with: BM25's IDF, typo distance, date windows."""

from __future__ import annotations

import math

from . import ids

US_PER_DAY = 86_400 * 1_000_000


def bm25_idf(n: int, df: int) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def edit_distance(a: str, b: str, cap: int) -> int:
    """Edit distance with adjacent transpositions (optimal string alignment), giving up — returning
    cap + 1 — as soon as every alignment is over ``cap``."""
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    before: list[int] | None = None
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if before is not None and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], before[j - 2] + 1)
        if min(cur) > cap:
            return cap + 1
        before, prev = prev, cur
    return prev[-1]


def in_windows(ts_us: int, windows) -> float:
    """1 inside a mentioned window, halving with every window-length (at least a day) outside."""
    best = 0.0
    for w in windows:
        start, end = ids.to_micros(w.start), ids.to_micros(w.end)
        if start <= ts_us < end:
            return 1.0
        dist = start - ts_us if ts_us < start else ts_us - end
        scale = max(end - start, US_PER_DAY)
        best = max(best, 0.5 ** (dist / scale))
    return best
