"""Implicit updates at recall time: a newer memory that restates a changed fact ranks above the
older one it replaces.

"The Celery worker moved to worker-c" after "the worker runs on worker-b" is an update nobody
marked with ``supersede``. Deciding that at ``remember`` time needs meaning (the hot path loads no
model) and a wrong guess would hide a memory for good; a word-overlap classifier tried before
superseded ten distinct "which file does X" notes. So nothing is hidden: among the hits, a newer
memory goes right before an older one when

- an extra scorer (semantic vectors) says the two are about the same subject
  (cosine ≥ :data:`SAME_SUBJECT`),
- the newer text states a change (:data:`CUE`: "now", "moved", "instead of", "raised", …), and
- both name the same environments (prod vs staging pairs are distinct facts, never updates).

On the coding-agent dev set this catches 8 of 10 implicit updates; over every other same-project
pair it fires once (a bug note that says "now compared in local time" after a file note).
"""

from __future__ import annotations

import re

SAME_SUBJECT = 0.6
CUE = re.compile(
    r"\b(?:now|moved|moves|instead|raised|lowered|switched|replaced|replaces|migrated|upgraded|downgraded|"
    r"changed|bumped|retired|no longer|not anymore|anymore|from now on|these days|nowadays|"
    r"updated|increased|decreased|reduced|extended|shortened|renamed|resized|repartitioned|rescaled|"
    r"rewrote|rewritten|swapped|ported|dropped|deprecated|reverted|rolled back)\b",
    re.IGNORECASE,
)


def states_change(text: str) -> bool:
    return CUE.search(text) is not None


def _envs(text: str) -> frozenset:
    from .dedup import _parts

    return frozenset(_parts(text)[3])


def newer_first(order: list[int], texts: dict[int, str], ts: dict[int, int], similarity) -> list[int]:
    """``order`` (seqs, best first) with each update moved right before the first older hit it
    replaces. ``similarity(seqs) -> {(a, b): cosine}`` for pairs of those seqs (either order)."""
    changers = [s for s in order if states_change(texts.get(s, ""))]
    if not changers or len(order) < 2:
        return order
    sims = similarity(order)
    out = list(order)
    for new in changers:
        pos = out.index(new)
        for i, old in enumerate(out[:pos]):
            cos = sims.get((old, new), sims.get((new, old), 0.0))
            if ts.get(old, 0) < ts.get(new, 0) and cos >= SAME_SUBJECT and _envs(texts[old]) == _envs(texts[new]):
                out.insert(i, out.pop(pos))
                break
    return out
