"""The vector indexes' part of ``cavemem migrate`` (issue 13): MiniLM's (``.vectors``) and the
static table's (``.static-vectors``), SQLite sidecar ⇄ pgvector.

Every (id, vector) is copied as float32 and checked by count and a sha256 over each vector's
bytes; the target's index is then marked in step with its store (its fingerprint), so the target
needs no re-embedding. Vectors of ids already in the target are not copied again (resumable).
Without numpy no index can exist, and nothing is copied.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os

from ..memory.migrate import BATCH, _digest
from ..store.backend import is_postgres


def _kinds() -> list[tuple[str, str, int]]:
    """(sidecar suffix, model, dim) of each vector index a store can have."""
    from . import DIM, INDEX_MODEL
    from .distill import DIM as STATIC_DIM
    from .static import INDEX_MODEL as STATIC_MODEL

    return [(".vectors", INDEX_MODEL, DIM), (".static-vectors", STATIC_MODEL, STATIC_DIM)]


def vector_index(location: str, suffix: str, model: str, dim: int):
    """The index of ``model`` at a migrate location (a URL, or a home directory holding mem.db)."""
    from .vectors import VectorIndex

    return VectorIndex((location if is_postgres(location) else os.path.join(location, "mem.db")) + suffix, dim=dim, model=model)


def source_vectors(location: str) -> list:
    """The vector indexes present at ``location`` as (suffix, index)."""
    if importlib.util.find_spec("numpy") is None:
        return []
    found = []
    for suffix, model, dim in _kinds():
        idx = vector_index(location, suffix, model, dim)
        if idx.exists():
            found.append((suffix, idx))
    return found


def vector_digests(idx, ids: list[str] | None = None) -> dict[str, str]:
    """id → sha256 of its vector's float32 bytes (of ``ids`` that the index holds; all by default)."""
    present = idx.ids()
    if ids is not None:
        held = set(present)
        present = [m for m in ids if m in held]
    out: dict[str, str] = {}
    for i in range(0, len(present), BATCH):
        chunk = present[i : i + BATCH]
        for m, vec in zip(chunk, idx.vectors(chunk)):
            out[m] = hashlib.sha256(vec.astype("<f4").tobytes()).hexdigest()
    return out


def copy_vectors(src_idx, target: str, suffix: str, dst_mem) -> tuple[object, int]:
    """Every vector of ``src_idx`` not yet in the target's index of the same model."""
    from .scorer import store_fingerprint

    dst = vector_index(target, suffix, src_idx.model, src_idx.dim)
    ids = src_idx.ids()
    have = set(dst.ids()) if dst.exists() else set()
    todo = [m for m in ids if m not in have]
    copied = 0
    for i in range(0, len(todo), BATCH):
        chunk = todo[i : i + BATCH]
        copied += dst.add(chunk, src_idx.vectors(chunk))
    if not dst.exists():
        dst.create()
    dst.set_fingerprint(store_fingerprint(dst_mem) if len(dst) == len(ids) else None)
    return dst, copied


class VectorCopy:
    """An ``extras`` item of :func:`cavemem.memory.migrate.migrate`: the vector indexes."""

    name = "vectors"

    def __init__(self):
        self._found: dict[str, tuple[object, dict[str, str]]] = {}

    def summary(self, source: str) -> dict:
        self._found = {suffix: (idx, vector_digests(idx)) for suffix, idx in source_vectors(source)}
        return {idx.model: {"rows": len(d), "sha256": _digest(*sorted(d.values()))} for idx, d in self._found.values()}

    def copy(self, target: str, dst_mem) -> tuple[dict | None, dict, list[str]]:
        """(copied per model, verified per model, ids whose vector differs in the target)."""
        if not self._found:
            return None, {}, []
        copied, verified, bad = {}, {}, []
        for suffix, (idx, digests) in self._found.items():
            dst, n = copy_vectors(idx, target, suffix, dst_mem)
            got = vector_digests(dst, list(digests))
            copied[idx.model] = n
            verified[idx.model] = sum(got.get(m) == d for m, d in digests.items())
            bad += [f"vector:{m}" for m, d in digests.items() if got.get(m) != d]
        return copied, verified, bad
