"""What a weekly review looks at: low-confidence captured memories (accept / edit / reject),
memories injected into prompts but never used by a reply, clusters of near-duplicate memories and
memories never seen again since they were written.

Near duplicates use word 3-gram shingles and Jaccard similarity; an inverted index over the
shingles means only memories sharing a shingle are compared, so a few thousand stay fast.
"""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.routing import Route

from .api import JSONResponse, _qint, body_text, handler, read_json

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


LOW_CONFIDENCE = 1.0  # default ?below: every unconfirmed capture (as `cavemem review` lists them)


def _low_confidence(m, project, below: float, limit: int = 50) -> list[dict]:
    """Captured, unconfirmed memories under ``below``, newest first, with the line they came from."""
    scope = None if project == "*" else m.project(project)
    return [p for p in m.capture.pending(project=scope, limit=limit * 4) if p["confidence"] < below][:limit]


def _never_used(m, project) -> list[dict]:
    """Current memories hooks injected into a prompt that no reply has used (hit-rate feedback)."""
    from ..memory.capture.feedback import usage

    never = usage(m, None if project == "*" else m.project(project))["never_used"]
    return [{**rec.to_dict(with_extra=False), "injected": n["injected"]} for n in never[:50]
            if (rec := m.store.get(n["id"])) is not None]


@handler
async def review(request: Request, svc):
    """Review queues: low-confidence captures (?below, default 1: all unconfirmed), injected-never-used memories,
    duplicate clusters and never-reseen memories among the newest ?scan current memories."""
    from ..memory.capture.review import check_confidence

    project = request.query_params.get("project") or "*"
    scan = _qint(request, "scan", SCAN_LIMIT, 20000)
    below = check_confidence(request.query_params.get("below") or LOW_CONFIDENCE)

    def run(m):
        return m.list(project=project, limit=scan), _low_confidence(m, project, below), _never_used(m, project)

    records, low, never = await svc.read(run)
    dup = [[r.to_dict(with_extra=False) for r in g] for g in clusters(records)]
    once = sorted((r for r in records if r.seen_count <= 1 and not r.supersedes), key=lambda r: r.ts)[:50]
    return JSONResponse({"scanned": len(records), "low_confidence": low, "never_used": never, "duplicate_clusters": dup,
                         "seen_once": [r.to_dict(with_extra=False) for r in once]})


@handler
async def accept(request: Request, svc):
    """Confirm a captured memory (confidence 1): it leaves the review queue."""
    return JSONResponse(await svc.call(svc.memory.capture.accept, request.path_params["mem_id"]))


@handler
async def edit(request: Request, svc):
    """Correct a captured memory with {"text"}: supersedes it with the confirmed text."""
    body = await read_json(request)
    text = body_text(body, "edit")
    out = await svc.call(svc.memory.capture.edit, request.path_params["mem_id"], text)
    return JSONResponse(out, status_code=201)


@handler
async def reject(request: Request, svc):
    """Forget a captured memory; a fact it had superseded becomes current again."""
    return JSONResponse(await svc.call(svc.memory.capture.reject, request.path_params["mem_id"]))


ROUTES = [
    Route("/api/v1/review", review, methods=["GET"]),
    Route("/api/v1/review/{mem_id}/accept", accept, methods=["POST"]),
    Route("/api/v1/review/{mem_id}/edit", edit, methods=["POST"]),
    Route("/api/v1/review/{mem_id}/reject", reject, methods=["POST"]),
]
