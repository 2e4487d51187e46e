"""The sidecar vector index (cavemem/embed/vectors.py): exact search, append/remove, crash
leftovers, other-process writers, corrupt files."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from cavemem.embed.vectors import ID_BYTES, VectorIndex


def mid(i: int) -> str:
    return f"mem_{i:016x}"


def unit_rows(n: int, dim: int = 384, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    m = rng.standard_normal((n, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


@pytest.fixture
def index(tmp_path, db_backend) -> VectorIndex:
    """The sidecar files, and (db_backend's postgres run) the same index in pgvector."""
    return VectorIndex((db_backend or str(tmp_path / "mem.db")) + ".vectors")


def test_empty_index_searches_to_nothing(index):
    assert not index.exists()
    assert index.search(unit_rows(1)[0], 10) == []
    index.create()
    assert index.exists() and len(index) == 0
    assert index.search(unit_rows(1)[0], 10) == []


def test_search_matches_exact_brute_force(index):
    m = unit_rows(500)
    ids = [mid(i) for i in range(500)]
    assert index.add(ids, m) == 500
    q = unit_rows(1, seed=7)[0]
    hits = index.search(q, 10)
    expected = np.argsort(-(m @ q))[:10]
    assert [h[0] for h in hits] == [ids[i] for i in expected]
    assert hits[0][1] == pytest.approx(float(m[expected[0]] @ q), rel=1e-6)
    assert [h[1] for h in hits] == sorted((h[1] for h in hits), reverse=True)
    # a stored vector is its own nearest neighbour with cosine 1
    top = index.search(m[42], 1)
    assert top[0][0] == mid(42) and top[0][1] == pytest.approx(1.0, abs=1e-5)


def test_add_is_idempotent_and_appends(index):
    m = unit_rows(20)
    assert index.add([mid(i) for i in range(10)], m[:10]) == 10
    assert index.add([mid(i) for i in range(5, 20)], m[5:20]) == 10  # 5..9 already there
    assert index.add([mid(3), mid(3)], m[:2]) == 0
    assert len(index) == 20
    assert index.ids() == [mid(i) for i in range(20)]
    got = index.scores_for(m[7], [mid(7), mid(8), "mem_ffffffffffffffff"])
    assert set(got) == {mid(7), mid(8)}
    assert got[mid(7)] == pytest.approx(1.0, abs=1e-5)


@pytest.mark.sqlite_only
def test_remove_compacts_and_persists(index, tmp_path):
    m = unit_rows(30)
    index.add([mid(i) for i in range(30)], m)
    assert index.remove([mid(1), mid(2), "mem_0000000000009999"]) == 2
    assert mid(1) not in index and mid(3) in index and len(index) == 28
    # a fresh reader (another process would do the same) sees the committed state
    other = VectorIndex(index.dir)
    assert len(other) == 28
    assert other.search(m[3], 1)[0][0] == mid(3)
    # only the current generation's files remain
    names = sorted(n for n in os.listdir(index.dir) if n.endswith((".f32", ".bin")))
    assert len(names) == 2
    assert index.remove([]) == 0


@pytest.mark.sqlite_only
def test_files_are_private(index):
    index.add([mid(1)], unit_rows(1))
    assert os.stat(index.dir).st_mode & 0o777 == 0o700
    for name in os.listdir(index.dir):
        assert os.stat(os.path.join(index.dir, name)).st_mode & 0o077 == 0, name


@pytest.mark.sqlite_only
def test_uncommitted_append_is_invisible_then_truncated(index):
    m = unit_rows(6)
    index.add([mid(i) for i in range(3)], m[:3])
    manifest = index.manifest
    mpath = os.path.join(index.dir, f"matrix.{manifest['generation']}.f32")
    ipath = os.path.join(index.dir, f"ids.{manifest['generation']}.bin")
    # a writer died after writing bytes but before publishing the manifest
    with open(mpath, "ab") as fh:
        fh.write(b"\x01" * 1000)
    with open(ipath, "ab") as fh:
        fh.write(b"garbage")
    fresh = VectorIndex(index.dir)
    assert len(fresh) == 3
    fresh.add([mid(3), mid(4)], m[3:5])
    assert fresh.ids() == [mid(i) for i in range(5)]
    assert os.path.getsize(mpath) == 5 * 384 * 4
    assert os.path.getsize(ipath) == 5 * ID_BYTES
    assert fresh.search(m[4], 1)[0][0] == mid(4)


@pytest.mark.sqlite_only
def test_corrupt_manifest_is_rebuilt_by_the_next_writer(index):
    index.add([mid(1)], unit_rows(1))
    with open(os.path.join(index.dir, "manifest.json"), "w") as fh:
        fh.write("{not json")
    reader = VectorIndex(index.dir)
    with pytest.raises(Exception) as err:
        len(reader)
    assert "manifest" in str(err.value)
    assert reader.add([mid(2)], unit_rows(1, seed=3)) == 1  # a writer starts a fresh generation
    assert VectorIndex(index.dir).ids() == [mid(2)]


@pytest.mark.sqlite_only
def test_truncated_matrix_is_reported_not_misread(index):
    index.add([mid(i) for i in range(4)], unit_rows(4))
    gen = index.manifest["generation"]
    with open(os.path.join(index.dir, f"matrix.{gen}.f32"), "r+b") as fh:
        fh.truncate(100)
    with pytest.raises(Exception) as err:
        VectorIndex(index.dir).search(unit_rows(1)[0], 3)
    assert "shorter" in str(err.value)


def test_other_model_or_dim_is_not_mixed_in(index):
    index.add([mid(1)], unit_rows(1))
    other = VectorIndex(index.dir, model="another-model")
    assert len(other) == 0  # incompatible vectors are never searched
    other.add([mid(2)], unit_rows(1, seed=2))
    assert VectorIndex(index.dir, model="another-model").ids() == [mid(2)]
    assert len(VectorIndex(index.dir)) == 0


def test_bad_ids_and_shapes_are_refused(index):
    with pytest.raises(ValueError):
        index.add(["short"], unit_rows(1))
    with pytest.raises(ValueError):
        index.add([mid(1), mid(2)], unit_rows(1))


def test_concurrent_writer_processes_lose_nothing(index):
    code = (
        "import sys, numpy as np\n"
        "from cavemem.embed.vectors import VectorIndex\n"
        "w = int(sys.argv[2]); ix = VectorIndex(sys.argv[1])\n"
        "rng = np.random.default_rng(w)\n"
        "for b in range(5):\n"
        "    ids = [f'mem_{w:04x}{b:04x}{j:08x}' for j in range(10)]\n"
        "    ix.add(ids, rng.standard_normal((10, 384)).astype('float32'))\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code, index.dir, str(w)]) for w in range(6)]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    ids = VectorIndex(index.dir).ids()
    assert len(ids) == 6 * 5 * 10 == len(set(ids))


@pytest.mark.sqlite_only
def test_fingerprint_round_trips(index):
    index.create(fingerprint=[3, 9])
    assert index.manifest["fingerprint"] == [3, 9]
    index.add([mid(1)], unit_rows(1), fingerprint=[4, 10])
    assert index.manifest["fingerprint"] == [4, 10]
    index.set_fingerprint([5, 11])
    with open(os.path.join(index.dir, "manifest.json")) as fh:
        assert json.load(fh)["fingerprint"] == [5, 11]
    index.destroy()
    assert not index.exists() and len(index) == 0


@pytest.mark.sqlite_only
def test_lookups_by_id_find_every_row_after_appends_and_removals(tmp_path):
    """locate / vectors / scores_for answer from a sorted key array; it must follow new generations."""
    index = VectorIndex(str(tmp_path / "mem.db") + ".vectors")
    rng = np.random.default_rng(3)
    idents = [f"mem_{v:016x}" for v in rng.integers(0, 2**63, size=300, dtype=np.int64)]
    m = unit_rows(300, seed=3)
    index.add(idents[:200], m[:200])
    asked = [idents[150], "mem_0000000000000000", idents[3], idents[250], idents[3]]
    assert index.rows_for(asked) == [150, 3, 3]  # absent ids skipped, order and repeats kept
    assert np.array_equal(index.vectors(asked), m[[150, 3, 3]])
    index.add(idents[200:], m[200:])  # a new committed row count: the key array is rebuilt
    assert index.locate([idents[250], idents[0]]) == {idents[250]: 250, idents[0]: 0}
    index.remove(idents[:100])  # a compacted generation: rows move
    assert index.locate([idents[0], idents[150]]) == {idents[150]: 50}
    got = index.scores_for(m[150], [idents[150], idents[299], idents[5]])
    assert set(got) == {idents[150], idents[299]}
    assert got[idents[150]] == pytest.approx(1.0, abs=1e-5)
    assert got[idents[299]] == pytest.approx(float(m[299] @ m[150]), abs=1e-6)


@pytest.mark.sqlite_only
def test_lookups_still_work_for_ids_that_are_not_hex(tmp_path):
    index = VectorIndex(str(tmp_path / "mem.db") + ".vectors")
    odd = ["mem_ZZZZZZZZZZZZZZZZ", "legacy-id-0000000001", mid(5)]
    index.add(odd, unit_rows(3))
    assert index.rows_for([mid(5), odd[0], "mem_ffffffffffffffff"]) == [2, 0]
    assert set(index.scores_for(unit_rows(3)[1], [odd[1], mid(9)])) == {odd[1]}


def test_a_search_near_the_last_one_gives_the_full_scan_answer(tmp_path, monkeypatch):
    """The second search of a recall (its query moved toward its own best hits) rescans only the
    rows that can reach its top k; its hits, cosines included, equal a full scan's, for nearby and
    far queries, and after an append (the new row must be found)."""
    import cavemem.embed.prefilter as prefilter
    import cavemem.embed.vectors as vectors

    monkeypatch.setattr(vectors, "PRUNE_MIN_ROWS", 1000)
    monkeypatch.setattr(prefilter, "MIN_ROWS", 10**9)  # the int8 copy would take over the full scans (test_embed_prefilter)
    rng = np.random.default_rng(3)
    centres = unit_rows(40, seed=4)
    rows = centres[rng.integers(0, 40, 6000)] + 0.35 * rng.standard_normal((6000, 384)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    index = VectorIndex(str(tmp_path / "mem.db.vectors"))
    index.add([mid(i) for i in range(len(rows))], rows)
    near_last, rescanned = index._near_last, []
    index._near_last = lambda q, k: rescanned.append(near_last(q, k)) or rescanned[-1]
    fresh = lambda q, k: VectorIndex(index.dir).search(q, k)  # noqa: E731 - no previous scan: a full one
    for trial in range(30):
        q = rows[trial * 97] + 0.2 * rng.standard_normal(384).astype(np.float32)
        q /= np.linalg.norm(q)
        assert index.search(q, 160) == fresh(q, 160)
        best = [int(h[0][4:], 16) for h in index.search(q, 3)]
        moved = q + 0.3 * rows[best].mean(axis=0)
        moved /= np.linalg.norm(moved)
        for k in (1, 10, 160):
            assert index.search(moved, k) == fresh(moved, k)
        far = unit_rows(1, seed=100 + trial)[0]
        assert index.search(far, 10) == fresh(far, 10)
    few = [r for r in rescanned if r is not None and len(r[0]) < len(rows) // 4]
    assert len(few) >= 30  # the short cut was taken, on a small share of the rows
    q = rows[5] + rows[6]
    q /= np.linalg.norm(q)
    index.search(q, 10)
    index.add([mid(10_000)], q[None, :])  # the query itself, appended after the scan
    assert index.search(q * 0.99 + 0.01 * rows[7], 1)[0][0] == mid(10_000)
