"""Speed paths of semantic recall that must not change a result: the per-process memo of query
vectors, and cosines that are the same to the last bit wherever a row is scored."""

from __future__ import annotations

import numpy as np
import pytest

import cavemem.embed.embedder as embedder_mod
from cavemem.embed.embedder import Embedder
from cavemem.embed.vectors import VectorIndex


@pytest.fixture(scope="module")
def optimised() -> Embedder:
    return Embedder(quick_runs=0).load()


def test_memo_gives_the_models_own_vector_without_running_it(optimised, monkeypatch):
    monkeypatch.setattr(embedder_mod, "MEMO_SIZE", 3)
    text = "where does the deploy key live"
    first = optimised.embed_one(text)
    runs = optimised.query_runs
    again = optimised.embed_one(text)
    assert optimised.query_runs == runs and np.array_equal(again, first)
    query = optimised._ready_query()  # exactly what the (prepacked) query session gives now
    assert optimised.query_prepacked and np.array_equal(first, optimised._embed_batch([optimised._tokenizer.encode(text, 256)], query)[0])
    again[:] = 0  # a caller changing its copy leaves the memo alone
    assert np.array_equal(optimised.embed_one(text), first)
    for other in ("kafka consumer lag", "postgres pool size", "redis eviction policy"):
        optimised.embed_one(other)
    runs = optimised.query_runs
    assert np.array_equal(optimised.embed_one(text), first) and optimised.query_runs == runs + 1  # evicted: bounded


def test_quick_session_vectors_are_not_memoised(monkeypatch):
    from cavemem.embed import graph_cache

    monkeypatch.setattr(graph_cache, "cached_graph", lambda *a: None)
    monkeypatch.setattr(graph_cache, "writable", lambda: False)  # no optimised graph to open: the quick session
    quick = Embedder(quick_runs=10**9)
    quick.embed_one("the staging host is stage-2")
    runs = quick.runs
    quick.embed_one("the staging host is stage-2")
    assert quick.runs == runs + 1 and not quick.optimised


def test_a_rows_cosine_is_the_same_in_a_full_scan_and_alone(tmp_path):
    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((1203, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    ids = [f"mem_{i:016x}" for i in range(len(vectors))]
    index = VectorIndex(str(tmp_path / "mem.db.vectors"))
    index.add(ids, vectors)
    for trial in range(40):
        q = vectors[trial] + 0.3 * vectors[trial + 100]
        q = (q / np.linalg.norm(q)).astype(np.float32)
        full = dict(index.search(q, len(ids)))
        pick = [ids[i] for i in rng.choice(len(ids), int(rng.integers(1, 9)), replace=False)]
        assert index.scores_for(q, pick) == {m: full[m] for m in pick}
        top = index.search(q, 40)
        assert [m for m, _ in top] == sorted(full, key=lambda m: (-full[m], m))[:40]
