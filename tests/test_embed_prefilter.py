"""The int8 prefilter of the vector index (cavemem/embed/prefilter.py) and the pinned view of a
recall: a search narrowed by the int8 copy returns exactly a full float scan's hits and cosines,
rows appended or removed by another process are found or dropped, and the bound is needed."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import cavemem.embed.prefilter as prefilter
from cavemem.embed.vectors import VectorIndex, _dots


def mid(i: int) -> str:
    return f"mem_{i:016x}"


def clustered(n: int, seed: int, spread: float = 0.35) -> np.ndarray:
    """Unit rows around 40 centres (like sentence vectors: many rows close to a query), with
    exact duplicates, so ties by id are exercised too."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((40, 384)).astype(np.float32)
    rows = centres[rng.integers(0, 40, n)] + spread * np.linalg.norm(centres[0]) * rng.standard_normal((n, 384)).astype(np.float32) / 20
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    rows[n // 2: n // 2 + 50] = rows[:50]  # duplicates: equal cosines, ordered by id
    return rows


def full_scan(index: VectorIndex, q, k: int) -> list[tuple[str, float]]:
    """Every row scored by the float product, best first, ties by id: what search must return."""
    index.refresh()
    scores = _dots(np, index._matrix, q).tolist()
    ids = [m.decode("ascii") for m in index._ids.tolist()]
    return sorted(zip(ids, scores), key=lambda h: (-h[1], h[0]))[:k]


def queries(rows: np.ndarray, seed: int, n: int = 25):
    rng = np.random.default_rng(seed)
    for i in range(n):
        q = rows[(i * 131) % len(rows)] + 0.3 * rng.standard_normal(384).astype(np.float32) / 20
        yield q / np.linalg.norm(q)
    yield rng.standard_normal(384).astype(np.float32) / 20  # off every cluster, not unit length


@pytest.fixture
def quick(monkeypatch):
    """The prefilter from 1,000 rows and from the second scan (a test cannot scan 12 times each)."""
    monkeypatch.setattr(prefilter, "MIN_ROWS", 1000)
    monkeypatch.setattr(prefilter, "AFTER_SCANS", 2)
    prefilter._BUILT.clear()
    prefilter._SCANS.clear()
    yield
    prefilter._BUILT.clear()
    prefilter._SCANS.clear()


def spy(monkeypatch) -> list:
    """Candidate counts of every prefiltered search."""
    seen: list = []
    real = prefilter.Prefilter.candidates

    def candidates(self, query, k):
        got = real(self, query, k)
        seen.append(None if got is None else len(got))
        return got

    monkeypatch.setattr(prefilter.Prefilter, "candidates", candidates)
    return seen


def test_a_prefiltered_search_gives_the_full_scan_answer(tmp_path, quick, monkeypatch):
    rows = clustered(6000, seed=1)
    index = VectorIndex(str(tmp_path / "mem.db.vectors"))
    index.add([mid(i) for i in range(len(rows))], rows)
    counts = spy(monkeypatch)
    for q in queries(rows, seed=2):
        for k in (1, 21, 160):
            assert index.search(q, k) == full_scan(index, q, k)
    narrowed = [c for c in counts if c is not None]
    assert len(narrowed) >= 60 and max(narrowed) < len(rows) // 4  # the int8 copy did the choosing


def test_a_tighter_bound_loses_hits(tmp_path, quick):
    """The bound is what makes it exact: without it the int8 cosines alone drop true top-k rows."""
    rows = clustered(6000, seed=3)
    index = VectorIndex(str(tmp_path / "mem.db.vectors"))
    index.add([mid(i) for i in range(len(rows))], rows)
    for q in list(queries(rows, seed=4))[:3]:
        index.search(q, 160)  # builds the copy
    built = next(iter(prefilter._BUILT.values()))
    built.slack *= 0
    built.size *= 0
    differ = sum(index.search(q, k) != full_scan(index, q, k) for q in queries(rows, seed=5) for k in (5, 21, 160))
    assert differ > 0


def _other_process(code: str) -> None:
    subprocess.run([sys.executable, "-c", code], check=True)


def test_rows_another_process_appends_or_removes_are_searched_exactly(tmp_path, quick):
    rows = clustered(5000, seed=6)
    path = str(tmp_path / "mem.db.vectors")
    index = VectorIndex(path)
    index.add([mid(i) for i in range(len(rows))], rows)
    probe = list(queries(rows, seed=7))
    for q in probe[:3]:
        index.search(q, 40)
    assert prefilter._BUILT  # built for this generation
    np.save(tmp_path / "new.npy", probe[0][None, :])
    _other_process(f"import numpy as np; from cavemem.embed.vectors import VectorIndex; "
                   f"VectorIndex({path!r}).add(['{mid(99_999)}'], np.load({str(tmp_path / 'new.npy')!r}))")
    assert index.search(probe[0], 5)[0][0] == mid(99_999)  # the appended row (the query itself) is found
    for q in probe:
        assert index.search(q, 160) == full_scan(index, q, 160)
    _other_process(f"from cavemem.embed.vectors import VectorIndex; VectorIndex({path!r}).remove(['{mid(99_999)}', '{mid(7)}'])")
    for q in probe:  # a new generation: its own copy, built again from its own rows
        hits = index.search(q, 160)
        assert hits == full_scan(index, q, 160) and mid(99_999) not in dict(hits) and mid(7) not in dict(hits)


def test_a_pinned_view_reads_the_manifest_once_and_sees_its_own_writes(tmp_path):
    """Inside pinned() another process's append waits for the next block; this index's own
    write is seen at once."""
    path = str(tmp_path / "mem.db.vectors")
    rows = np.random.default_rng(8).standard_normal((200, 384)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    index = VectorIndex(path)
    index.add([mid(i) for i in range(100)], rows[:100])
    np.save(tmp_path / "more.npy", rows[100:150])
    with index.pinned():
        assert len(index) == 100
        _other_process(f"import numpy as np; from cavemem.embed.vectors import VectorIndex; "
                       f"VectorIndex({path!r}).add(['mem_%016x' % i for i in range(100, 150)], np.load({str(tmp_path / 'more.npy')!r}))")
        assert len(index) == 100 and mid(120) not in dict(index.search(rows[120], 1))
        index.add([mid(500)], rows[150:151])  # a write here reopens the view: the other rows too
        assert len(index) == 151 and index.search(rows[150], 1)[0][0] == mid(500)
    with index.pinned():
        assert index.search(rows[120], 1)[0][0] == mid(120)
