"""Huge JSON documents are elided without their tree (json_stream) and give the same bytes.

The streamed path starts at ``json_elision.STREAM_MIN_BYTES`` (8 MiB). Each test lowers the
threshold (and the lazy/chunk sizes) so real corpus payloads and shaped documents run through
both paths, and the outputs must be equal byte for byte — either side of the threshold.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cavemem.compressors import json_elision, json_stream
from cavemem.compressors.json_elision import JSONCompressor
from cavemem.gocompat import go_text_preserving, json_valid

ROOT = Path(__file__).resolve().parents[1]
CORPUS_JSON = sorted((ROOT / "corpus" / "generated" / "json").glob("*")) + sorted((ROOT / "fixtures" / "json").glob("*"))


def _records(n: int, seed: int = 3) -> bytes:
    rnd = random.Random(seed)
    rows = [
        {
            "id": i,
            "name": f"item-{i}",
            "status": "error" if rnd.random() < 0.02 else "ok",
            "latency_ms": rnd.randint(5, 120) if rnd.random() > 0.01 else 9999,
            "region": rnd.choice(["eu-west-1", "us-east-1"]),
            "tags": rnd.sample(["alpha", "beta", "prod", "canary"], 2),
            "meta": {"build": rnd.randint(1, 3), "note": rnd.choice(["a < b", "x & y", "plain"])},
        }
        for i in range(n)
    ]
    return json.dumps({"results": rows, "count": n, "pages": [{"items": rows[:40]}, {"items": []}]}).encode()


def _both(data: bytes, query: str = "") -> tuple[bytes | None, bytes | None]:
    saved = json_elision.STREAM_MIN_BYTES
    try:
        json_elision.STREAM_MIN_BYTES = 1 << 62
        whole = JSONCompressor._elide(data, query)
        json_elision.STREAM_MIN_BYTES = 0
        streamed = JSONCompressor._elide(data, query)
    finally:
        json_elision.STREAM_MIN_BYTES = saved
    return whole, streamed


@pytest.fixture(params=[(1 << 20, 4096, 1 << 20), (64, 7, 1 << 20), (16, 3, 300)], ids=["default", "small-lazy", "tiny-chunks"])
def sizes(request, monkeypatch):
    lazy, items, chars = request.param
    monkeypatch.setattr(json_stream, "LAZY_MIN_CHARS", lazy)
    monkeypatch.setattr(json_stream, "CHUNK_ITEMS", items)
    monkeypatch.setattr(json_stream, "CHUNK_CHARS", chars)
    return request.param


@pytest.mark.parametrize("path", CORPUS_JSON, ids=lambda p: p.name)
def test_corpus_json_streamed_equals_whole(path, monkeypatch):
    """Every real JSON payload, its containers over 64 characters left lazy, chunks of 7."""
    monkeypatch.setattr(json_stream, "LAZY_MIN_CHARS", 64)
    monkeypatch.setattr(json_stream, "CHUNK_ITEMS", 7)
    data = path.read_bytes()
    for query in ("", "error version"):
        whole, streamed = _both(data, query)
        assert streamed == whole


def test_record_array_elides_the_same(sizes):
    data = _records(3000)
    whole, streamed = _both(data)
    assert whole is not None and b"__caveman_elided__" in whole
    assert streamed == whole
    whole_q, streamed_q = _both(data, "item-1234 timeout")
    assert whole_q is not None
    assert streamed_q == whole_q


@pytest.mark.parametrize(
    "doc",
    [
        b"[1, 2",  # invalid
        b'{"a": [1,2,3]} {"b": 1}',  # two values
        b'[{"id": 1}, {"id": 2}]]',  # trailing ] tolerated (G13)
        b'{"a": NaN}',
        b'{"k": "\\ud800", "rows": [' + b",".join(b'{"id": %d, "v": "x"}' % i for i in range(40)) + b"]}",  # U+FFFD rule
        b'{"rows": [' + b",".join(b'{"id": %d}' % i for i in range(30)) + b'], "rows": [' + b",".join(b'{"id": %d, "s": "ok"}' % i for i in range(30)) + b"]}",
        b'[{"__caveman_elided__": 3}, ' + b",".join(b'{"id": %d}' % i for i in range(30)) + b"]",  # second pass: left alone
        b'{"errors": [' + b",".join(b'{"id": %d}' % i for i in range(30)) + b"]}",  # preserved subtree
        b"[" * 3000 + b"]" * 3000,  # deeper than Python follows
        b"[[1,2],[3,4]," + b",".join(b"[%d, %d]" % (i, i % 7) for i in range(60)) + b"]",
    ],
    ids=["invalid", "two-values", "trailing-bracket", "nan", "surrogate", "duplicate-key", "marker", "preserved", "deep", "arrays"],
)
def test_edge_documents_agree(doc, monkeypatch):
    monkeypatch.setattr(json_stream, "LAZY_MIN_CHARS", 8)
    monkeypatch.setattr(json_stream, "CHUNK_ITEMS", 5)
    whole, streamed = _both(doc)
    assert streamed == whole


def test_threshold_sides_take_each_path(monkeypatch):
    """Below the threshold the tree is decoded whole; at it, the streamed walk runs. Same bytes."""
    data = _records(400)
    calls = []
    real = json_stream.elide_document_streamed
    monkeypatch.setattr(json_stream, "elide_document_streamed", lambda d, q: calls.append(len(d)) or real(d, q))
    monkeypatch.setattr(json_elision, "STREAM_MIN_BYTES", len(data) + 1)
    below = JSONCompressor._elide(data, "")
    assert calls == []
    monkeypatch.setattr(json_elision, "STREAM_MIN_BYTES", len(data))
    at = JSONCompressor._elide(data, "")
    assert calls == [len(data)]
    assert below is not None and at == below


@pytest.mark.parametrize(
    "doc",
    [b"{}", b"[]", b'{"a":[1,{"b":2.5e3}]}', b"[1,2", b'{"a":NaN}', b"1e999", b' "x" ', b"[1,]", b'{"a" 1}', b'"\\ud800"', b"-", b"01", b'["\xff"]', b'{"a":1}x', b"[" * 3000 + b"]" * 3000],
)
def test_json_valid_matches_a_full_parse(doc):
    """The validity check that keeps no tree accepts exactly what a full parse accepts."""
    try:
        json.loads(go_text_preserving(doc), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
        expected = True
    except (ValueError, RecursionError):
        expected = False
    assert json_valid(doc) is expected
