"""The pgvector index's binary reads and its per-recall pin (cavemem/embed/pg_vectors.py, issue 13):
the same hits, scores and vectors as pgvector's text forms, fewer round trips inside a recall,
and another process's write seen by the next recall."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import psycopg
import pytest
from test_embed_vectors import mid, unit_rows  # ids and unit vectors as the sidecar's tests make them

from cavemem.embed import pg_vectors
from cavemem.embed.vectors import VectorIndex
from cavemem.store.pg import conn as pgconn


def _text_search(url: str, tab: str, q, k: int, indexed: bool) -> list[tuple[str, float]]:
    """The reference: the query as pgvector text, the statement the index ran before binary."""
    vec = pg_vectors._text(np, q)
    ef = max(40, min(1000, k + k // 4))
    with psycopg.connect(url) as conn:
        conn.execute(f"SET LOCAL hnsw.ef_search = {ef}" if indexed else "SET LOCAL enable_indexscan = off")
        rows = conn.execute(f"SELECT id, 1 - (embedding <=> %s::vector) FROM {tab} ORDER BY embedding <=> %s::vector"
                            f"{'' if indexed else ', id'} LIMIT %s", (vec, vec, k)).fetchall()
    return sorted(((i, float(c)) for i, c in rows), key=lambda h: (-h[1], h[0]))


@pytest.fixture
def filled(pg_url, monkeypatch, request):
    """300 vectors; ``hnsw``: past a lowered EXACT_ROWS, so searches go through the HNSW index."""
    if request.param == "hnsw":
        monkeypatch.setattr(pg_vectors, "EXACT_ROWS", 100)
    index = VectorIndex(pg_url + ".vectors")
    m = unit_rows(300)
    index.add([mid(i) for i in range(300)], m, fingerprint={"n": 300})
    return pg_url, index, m, request.param == "hnsw"


@pytest.mark.parametrize("filled", ["exact", "hnsw"], indirect=True)
def test_binary_reads_equal_the_text_path(filled):
    url, index, m, indexed = filled
    assert indexed == (pgconn.server(url).query(f"SELECT to_regclass('{index.tab}_hnsw') IS NOT NULL")[0][0])
    ids = [mid(i) for i in (5, 299, 0, 17, 123)]
    with psycopg.connect(url) as conn:
        text = dict(conn.execute(f"SELECT id, embedding::text FROM {index.tab} WHERE id = ANY(%s)", (ids,)).fetchall())
        for seed in range(6):
            q = unit_rows(1, seed=100 + seed)[0]
            want = _text_search(url, index.tab, q, 40, indexed)
            assert index.search(q, 40) == want  # same ids, same order, bit-equal scores
            with index.pinned():
                assert index.search(q, 40) == want
            ref = dict(conn.execute(f"SELECT id, 1 - (embedding <=> %s::vector) FROM {index.tab} WHERE id = ANY(%s)",
                                    (pg_vectors._text(np, q), ids)).fetchall())
            assert index.scores_for(q, ids) == {i: float(c) for i, c in ref.items()}
    expected = np.asarray([json.loads(text[i]) for i in ids], dtype=np.float32)
    assert np.array_equal(index.vectors(ids), expected)
    assert np.array_equal(index.vectors(ids), m[[5, 299, 0, 17, 123]])  # what was added, exactly
    with index.pinned():  # served from what a search brought along, or fetched: the same floats
        hits = [h[0] for h in index.search(m[17], 10)]
        assert np.array_equal(index.vectors(hits), m[[int(h[4:], 16) for h in hits]])
        assert np.array_equal(index.vectors(ids + ["mem_unknown"]), expected)
    assert set(index.locate(ids + ["mem_unknown"])) == set(ids)
    assert np.array_equal(index.vectors(ids), expected)


@pytest.mark.parametrize("filled", ["hnsw"], indirect=True)
def test_a_recall_pins_the_registry_and_the_vectors(filled, monkeypatch):
    """sync's manifest read serves the pin; inside it the length, a second search and the
    feedback pass's vectors cost no registry read and no extra round trip."""
    url, index, m, _ = filled
    trips = []
    read = pgconn.Server._read
    monkeypatch.setattr(pgconn.Server, "_read", lambda self, fn, action: trips.append(action) or read(self, fn, action))
    index.search(m[0], 5)  # this process has seen the HNSW index
    trips.clear()
    assert index.manifest["rows"] == 300  # the recall's sync
    with index.pinned():
        assert len(index) == 300
        hits = index.search(m[1], 20)
        index.vectors([h for h, _ in hits[:5]])
        index.search(m[2], 20)
        assert len(index) == 300
    assert len(trips) == 3  # manifest, two searches (was 6, each with the registry riding along)
    trips.clear()
    found = index.locate([mid(3), mid(4)])
    assert np.array_equal(index.vectors(list(found)), m[[3, 4]]) and len(trips) == 1  # locate brought them


@pytest.mark.parametrize("filled", ["exact", "hnsw"], indirect=True)
def test_another_process_write_is_seen_by_the_next_pin(filled):
    url, index, m, _ = filled
    extra = unit_rows(1, seed=999)[0]
    with index.pinned():
        assert len(index) == 300
        subprocess.run([sys.executable, "-c", (
            "import numpy as np; from cavemem.embed.vectors import VectorIndex; "
            f"VectorIndex({url + '.vectors'!r}).add(['{mid(1000)}'], np.array([{extra.tolist()!r}], dtype=np.float32)); "
            f"VectorIndex({url + '.vectors'!r}).remove(['{mid(7)}'])")], check=True)
        assert len(index) == 300  # one view for the block, as the sidecar's pin
        index.remove([mid(8)])  # a write through this index reopens the view
        assert len(index) == 299
    with index.pinned():
        assert len(index) == 299
        assert index.search(extra, 1)[0][0] == mid(1000)
        assert mid(7) not in dict(index.search(m[7], 5)) and not len(index.vectors([mid(7)]))


def test_a_dropped_table_inside_a_pin_reads_as_no_vectors(pg_url):
    index = VectorIndex(pg_url + ".vectors")
    index.add([mid(i) for i in range(10)], unit_rows(10))
    other = VectorIndex(pg_url + ".vectors")
    with index.pinned():
        assert len(index) == 10 and index.search(unit_rows(1)[0], 3)
        other.destroy()
        assert index.search(unit_rows(1)[0], 3) == [] and not len(index.vectors([mid(1)]))
    assert not index.exists()
