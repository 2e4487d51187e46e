"""The cached optimised graph of the embedding model: built once, reused by later processes with the
same vectors, rejected when its files change, and never needed (the shipped model still serves)."""

from __future__ import annotations

import json
import os

import numpy as np
import onnxruntime as ort
import pytest

import cavemem.embed as embed
from cavemem.embed import graph_cache
from cavemem.embed.embedder import Embedder

TEXTS = ["the deploy key lives in vault", "which database do we run", "kafka consumer lag after the upgrade",
         "a somewhat longer sentence about database migrations, their indexes and the rollback plan"]


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CAVEMAN_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / graph_cache.key(embed.MODEL_SHA256, ort.__version__)


def test_first_load_saves_the_graph_and_later_loads_use_it_with_the_same_vectors(cache):
    first = Embedder().load()
    assert first.optimised and (cache / graph_cache.MANIFEST).is_file()
    assert oct((cache / graph_cache.DATA).stat().st_mode & 0o777) == "0o600"
    manifest = json.loads((cache / graph_cache.MANIFEST).read_text())
    assert manifest["model_sha256"] == embed.MODEL_SHA256 and manifest["ort"] == ort.__version__
    built = first.embed(TEXTS)

    later = Embedder().load()
    assert later._cached == cache / graph_cache.GRAPH and not later.optimised  # no prepacking for a few runs
    quick = later.embed(TEXTS)
    assert np.allclose(quick, built, atol=1e-6)
    for _ in range(later.quick_runs):
        later.embed(["warm up"])
    prepacked = later.embed(TEXTS)
    assert later.optimised
    assert np.array_equal(prepacked, built)  # the prepacked session on the saved graph is the optimised one


def test_a_changed_file_is_not_used_and_is_rebuilt(cache):
    reference = Embedder().load().embed(TEXTS)
    data = cache / graph_cache.DATA
    with open(data, "r+b") as fh:  # same size, new bytes: the mtime gives it away
        fh.seek(4096)
        fh.write(b"\x7f" * 4096)
    os.utime(data, ns=(1, 1))
    assert graph_cache.cached_graph(embed.MODEL_SHA256, ort.__version__) is None
    again = Embedder().load()
    assert again.optimised  # rebuilt, not read
    assert graph_cache.cached_graph(embed.MODEL_SHA256, ort.__version__) is not None
    assert np.array_equal(again.embed(TEXTS), reference)


def test_without_a_writable_cache_the_shipped_model_serves(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    blocker.chmod(0o600)
    monkeypatch.setenv("CAVEMAN_CACHE_DIR", str(blocker / "cache"))
    assert not graph_cache.writable()
    quick = Embedder().load()
    assert quick._cached is None and not quick.optimised  # the quick unoptimised session, as before
    monkeypatch.setenv("CAVEMAN_CACHE_DIR", str(tmp_path / "cache"))
    assert np.allclose(quick.embed(TEXTS), Embedder().load().embed(TEXTS), atol=1e-6)


def test_graphs_of_other_versions_go_only_when_unused_for_a_month(cache):
    root = cache.parent
    for name, age in (("embed-graph-0000000000000000-ort0.1-ext1", 40), ("embed-graph-0000000000000000-ort0.2-ext1", 2)):
        (root / name).mkdir(parents=True)
        (root / name / graph_cache.MANIFEST).write_text("{}")
        old = graph_cache._now() - age * 86_400
        os.utime(root / name / graph_cache.MANIFEST, (old, old))
    Embedder().load()
    left = sorted(p.name for p in root.glob(graph_cache.PREFIX + "*"))
    assert left == sorted([cache.name, "embed-graph-0000000000000000-ort0.2-ext1"])


def test_a_second_builder_keeps_the_graph_already_published(cache):
    Embedder().load()
    manifest = (cache / graph_cache.MANIFEST).read_bytes()
    before = (cache / graph_cache.DATA).stat().st_ino
    options = ort.SessionOptions()
    from cavemem.embed.embedder import model_file

    graph_cache.build(ort, options, model_file(), embed.MODEL_SHA256)  # as a process that raced the first one
    assert (cache / graph_cache.DATA).stat().st_ino == before and (cache / graph_cache.MANIFEST).read_bytes() == manifest
    assert not list(cache.parent.glob(".*.tmp"))  # its own copy is gone


def test_the_query_graph_is_built_once_and_read_by_later_processes(cache):
    """The int8 query graph is derived from the cached float graph by the first question and
    opened (not rebuilt) by later processes, quick then prepacked, with the same vectors."""
    first = Embedder()
    built = np.vstack([first.embed_one(t) for t in TEXTS])
    folder = cache.with_name(graph_cache.key(embed.MODEL_SHA256, ort.__version__, graph_cache.QUERY_RECIPE))
    assert json.loads((folder / graph_cache.MANIFEST).read_text())["recipe"] == graph_cache.QUERY_RECIPE
    assert oct((folder / graph_cache.DATA).stat().st_mode & 0o777) == "0o600"
    assert not list(cache.glob(".query.*"))  # the rewritten source is gone
    stamp = (folder / graph_cache.GRAPH).stat().st_mtime_ns
    later = Embedder()
    quick = np.vstack([later.embed_one(t) for t in TEXTS])
    assert later.query_runs == len(TEXTS) and np.array_equal(quick, built)
    for _ in range(later.quick_runs):
        later.embed_one("warm up")
    assert later.query_prepacked
    assert np.array_equal(np.vstack([later._embed_batch([later._tokenizer.encode(t, 256)], later._query)[0] for t in TEXTS]), built)
    assert (folder / graph_cache.GRAPH).stat().st_mtime_ns == stamp  # read, not rebuilt
    pinned = Embedder(quick_runs=10**9)  # the warm recall process: float session quick, questions prepacked
    pinned.prepack_queries()
    assert pinned.query_prepacked and not pinned.optimised
    assert np.array_equal(np.vstack([pinned.embed_one(t) for t in TEXTS]), quick) and pinned.query_prepacked


def test_a_query_graph_that_cannot_be_built_leaves_questions_to_the_float_session(cache, monkeypatch):
    from cavemem.embed import quantize

    def refuse(*args):
        raise ValueError("no weight matrix product to quantize in this graph")

    monkeypatch.setattr(quantize, "query_graph", refuse)
    e = Embedder(quick_runs=0)
    assert np.array_equal(e.embed_one(TEXTS[1]), e.embed([TEXTS[1]])[0]) and e._query is False
    assert graph_cache.cached_graph(embed.MODEL_SHA256, ort.__version__, graph_cache.QUERY_RECIPE) is None
