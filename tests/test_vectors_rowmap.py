"""A long-lived index answers id lookups from a kept dict (embed.vector_ids.RowMap) once it has
been asked often; its answers must stay those of a fresh index (the sorted-key search) whatever
another writer does to the sidecar in between: appends, a compaction, a sidecar deleted and
rebuilt with other ids under the same generation number."""

from __future__ import annotations

import numpy as np
import pytest

from cavemem.embed.vector_ids import RowMap
from cavemem.embed.vectors import VectorIndex

pytestmark = pytest.mark.sqlite_only


def ids_and_rows(n: int, seed: int):
    rng = np.random.default_rng(seed)
    ids = [f"mem_{v:016x}" for v in rng.integers(0, 2**63, size=n, dtype=np.int64)]
    m = rng.standard_normal((n, 384)).astype(np.float32)
    return ids, m / np.linalg.norm(m, axis=1, keepdims=True)


def warmed(path: str) -> VectorIndex:
    """An index asked enough lookups to answer from its kept dict."""
    index = VectorIndex(path)
    for _ in range(RowMap.AFTER + 1):
        index.locate(["mem_0000000000000000"])
    return index


def same_as_fresh(kept: VectorIndex, path: str, asked: list[str]) -> None:
    fresh = VectorIndex(path)  # never asked before: the sorted-key search answers
    assert kept.locate(asked) == fresh.locate(asked)
    assert kept.rows_for(asked) == fresh.rows_for(asked)
    q = fresh.vectors(asked[:1])[0] if fresh.rows_for(asked[:1]) else np.ones(384, np.float32) / np.sqrt(384)
    assert kept.scores_for(q, asked) == fresh.scores_for(q, asked)
    assert np.array_equal(kept.vectors(asked), fresh.vectors(asked))


def test_kept_lookups_follow_another_writers_appends_and_compactions(tmp_path):
    path = str(tmp_path / "mem.db") + ".vectors"
    ids, m = ids_and_rows(400, seed=5)
    writer = VectorIndex(path)  # another process's index in a server's life
    writer.add(ids[:200], m[:200])
    kept = warmed(path)
    asked = [ids[150], "mem_0000000000000000", ids[3], ids[399], ids[3]]
    same_as_fresh(kept, path, asked)
    assert kept._rowmap is not None and kept._rowmap.rows == 200  # the dict answered
    writer.add(ids[200:], m[200:])  # appended to the same generation: the dict grows in place
    same_as_fresh(kept, path, asked + ids[390:])
    assert kept._rowmap.rows == 400
    writer.remove(ids[:100])  # a compacted generation: every row moves
    same_as_fresh(kept, path, asked + ids[95:105])
    assert kept.locate([ids[150]]) == {ids[150]: 50}


def test_kept_lookups_drop_a_sidecar_rebuilt_under_the_same_generation(tmp_path):
    """destroy + create starts again at generation 1: a dict kept by generation number would map
    the new rows by the old ones (here: the same ids and one more in another order, then other
    ids). (A rebuild whose manifest is byte-identical to the old one is not seen by a reader at
    all, dict or not: the open view is kept until the manifest changes.)"""
    path = str(tmp_path / "mem.db") + ".vectors"
    ids, m = ids_and_rows(121, seed=9)
    writer = VectorIndex(path)
    writer.add(ids[:120], m[:120])
    kept = warmed(path)
    same_as_fresh(kept, path, ids[:5])
    generation = kept.manifest["generation"]
    writer.destroy()
    writer = VectorIndex(path)
    writer.add(ids[::-1], m[::-1])  # the same ids and one more, reversed rows, the same generation number
    assert writer.manifest["generation"] == generation
    same_as_fresh(kept, path, ids[:5])
    assert kept.locate([ids[0]]) == {ids[0]: 120}
    others, m2 = ids_and_rows(130, seed=10)
    writer.destroy()
    VectorIndex(path).add(others, m2)
    same_as_fresh(kept, path, ids[:5] + others[:5] + others[125:])


def test_kept_lookups_of_an_emptied_or_deleted_sidecar(tmp_path):
    path = str(tmp_path / "mem.db") + ".vectors"
    ids, m = ids_and_rows(50, seed=2)
    writer = VectorIndex(path)
    writer.add(ids, m)
    kept = warmed(path)
    same_as_fresh(kept, path, ids[:3])
    writer.remove(ids)
    assert kept.locate(ids[:3]) == {} and kept.rows_for(ids) == []
    writer.add(ids[10:], m[10:])
    same_as_fresh(kept, path, ids[:15])
    writer.destroy()
    assert kept.locate(ids) == {}


def test_a_duplicated_id_maps_to_its_first_row_as_the_sorted_search_does():
    rowmap = RowMap()
    raw = np.array([b"mem_00000000000000aa", b"mem_00000000000000bb", b"mem_00000000000000aa"], dtype="S20")
    rowmap.extend(raw[:2])
    rowmap.extend(raw)
    assert rowmap.first == {"mem_00000000000000aa": 0, "mem_00000000000000bb": 1}
    assert rowmap.holds(raw) and not rowmap.holds(raw[:2]) and not rowmap.holds(raw[[1, 0, 2]]) and not rowmap.holds(None)
