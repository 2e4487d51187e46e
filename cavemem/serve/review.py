"""What a weekly review looks at: clusters of near-duplicate memories and memories never seen
again since they were written — computed from ``Memory.list`` only.

Near duplicates use word 3-gram shingles and Jaccard similarity; an inverted index over the
shingles means only memories sharing a shingle are compared, so a few thousand stay fast.
"""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import JSONResponse

from .api import _qint, handler

_WORD = re.compile(r"\w+", re.UNICODE)
SCAN_LIMIT = 2000
THRESHOLD = 0.5


def shingles(text: str) -> set:
    words = _WORD.findall(text.lower())
    if len(words) < 3:
        return {tuple(words)} if words else set()
    return {tuple(words[i:i + 3]) for i in range(len(words) - 2)}


def clusters(records, threshold: float = THRESHOLD) -> list[list]:
    """Groups (size ≥ 2) of records whose shingle sets overlap by ≥ ``threshold`` (Jaccard),
    joined transitively; biggest group first."""
    sets = [shingles(r.text) for r in records]
    index: dict = {}
    parent = list(range(len(records)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, s in enumerate(sets):
        seen = set()
        for sh in s:
            for j in index.get(sh, ()):
                if j in seen:
                    continue
                seen.add(j)
                inter = len(s & sets[j])
                if inter and inter / len(s | sets[j]) >= threshold:
                    parent[find(i)] = find(j)
            index.setdefault(sh, []).append(i)
    groups: dict = {}
    for i in range(len(records)):
        groups.setdefault(find(i), []).append(records[i])
    return sorted((g for g in groups.values() if len(g) > 1), key=lambda g: (-len(g), g[0].ts))


@handler
async def review(request: Request, svc):
    """Duplicate clusters and never-reseen memories among the newest ?scan current memories."""
    project = request.query_params.get("project") or "*"
    scan = _qint(request, "scan", SCAN_LIMIT, 20000)
    records = await svc.read(lambda m: m.list(project=project, limit=scan))
    dup = [[r.to_dict(with_extra=False) for r in g] for g in clusters(records)]
    once = sorted((r for r in records if r.seen_count <= 1 and not r.supersedes), key=lambda r: r.ts)[:50]
    return JSONResponse({"scanned": len(records), "duplicate_clusters": dup,
                         "seen_once": [r.to_dict(with_extra=False) for r in once]})
