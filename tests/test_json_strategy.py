"""The best-of JSON strategy (spec engine-compressors §2.7): TOON vs JSON elision, fewest
tokens wins, TOON on ties; wired in by ``CAVE_ENGINE_TOON=best-of``."""

from __future__ import annotations

import json
import time

import pytest

from cavemem.compressors.base import Metadata
from cavemem.compressors.json_strategy import JSONStrategy
from cavemem.toon import codec

SMALL_TABLE = json.dumps({"hikes": [{"id": i, "name": f"hike {i}", "km": i * 1.5} for i in range(5)]}).encode()
BIG_TABLE = json.dumps({"items": [{"id": i, "status": "ok", "name": f"item-{i}", "score": round(0.5 + i / 1000, 3)} for i in range(300)]}).encode()
NESTED_ROWS = json.dumps({"results": [{"id": i, "meta": {"tags": ["a", "b"], "ok": True}, "msg": "fine"} for i in range(50)]}).encode()


def test_toon_wins_when_elision_has_nothing_to_collapse():
    out, meta = JSONStrategy().compress_with_metadata(SMALL_TABLE, "")
    assert (meta.method, meta.lossless_to_model) == ("toon", True)
    assert out.startswith(b"hikes[5]{id,name,km}:") and codec.round_trips(SMALL_TABLE, out)


def test_elision_wins_when_it_is_strictly_fewer_tokens():
    from cavemem.tokens import count_tokens

    out, meta = JSONStrategy().compress_with_metadata(BIG_TABLE, "")
    assert (meta.method, meta.lossless_to_model) == ("elision", False)
    assert b"__caveman_elided__" in out
    assert count_tokens(out) < count_tokens(codec.encode_json(BIG_TABLE))


def test_elision_alone_when_toon_cannot_encode():
    out, meta = JSONStrategy().compress_with_metadata(NESTED_ROWS, "")
    assert meta.method == "elision" and b"__caveman_elided__" in out


@pytest.mark.parametrize("raw", [b'{"a":{"b":[1,[2]]}}', b"{not json", b"", b"\xff\xfe", b"[" * 50_000 + b"]" * 50_000])
def test_neither_qualifies(raw):
    assert JSONStrategy().compress_with_metadata(raw, "") is None
    assert JSONStrategy().compress(raw) is None


class _Counter:
    """Counts bytes, so tests can stage exact ties."""

    name = "bytes"

    def count(self, data) -> int:
        return len(data)


class _FakeElision:
    content_type = "json"
    accepts_query = True
    reports_metadata = True

    def __init__(self, out: bytes | None):
        self.out, self.queries = out, []

    def compress_with_metadata(self, data, query):
        self.queries.append(query)
        return None if self.out is None else (self.out, Metadata(method="elision", lossless_to_model=False, recovery_metadata=b"m"))


def test_tie_keeps_toon_and_query_reaches_only_elision():
    toon = codec.encode_json(SMALL_TABLE).encode()
    fake = _FakeElision(b"x" * len(toon))
    out, meta = JSONStrategy(counter=_Counter(), elision=fake).compress_with_metadata(SMALL_TABLE, "hike 3")
    assert (out, meta.method) == (toon, "toon")
    assert fake.queries == ["hike 3"]
    fake.out = b"x" * (len(toon) - 1)
    out, meta = JSONStrategy(counter=_Counter(), elision=fake).compress_with_metadata(SMALL_TABLE, "")
    assert (out, meta.method, meta.recovery_metadata) == (fake.out, "elision", b"m")


def test_a_candidate_must_be_smaller_than_the_input():
    fake = _FakeElision(b"y" * 10_000)
    assert JSONStrategy(counter=_Counter(), elision=fake).compress_with_metadata(b'{"a":{"b":[1,[2]]}}', "") is None


def test_compress_and_compress_query_agree_with_metadata_form():
    s = JSONStrategy()
    assert s.compress(SMALL_TABLE) == s.compress_with_metadata(SMALL_TABLE, "")[0]
    assert s.compress_query(BIG_TABLE, "item-150") == s.compress_with_metadata(BIG_TABLE, "item-150")[0]


@pytest.mark.parametrize("env", ["best-of", "BEST-OF", "Best-Of"])
def test_engine_uses_the_strategy_only_with_the_env_switch(monkeypatch, env):
    from cavemem.engine.core import Engine

    monkeypatch.setenv("CAVE_ENGINE_TOON", env)
    res = Engine().compress(SMALL_TABLE)
    assert (res.content_type, res.method, res.lossless_to_model) == ("json", "toon", True)
    assert Engine().retrieve(res.recovery_handle) == SMALL_TABLE
    monkeypatch.setenv("CAVE_ENGINE_TOON", "toon")
    assert Engine().compress(SMALL_TABLE).method != "toon"


def test_cli_compress_reports_toon_and_registry_is_unchanged(run_cli):
    r = run_cli("caveman-engine", "compress", input=SMALL_TABLE, env={"CAVE_ENGINE_TOON": "best-of"})
    assert r.rc == 0 and r.stdout.startswith(b"hikes[5]")
    assert r.report["method"] == "toon" and r.report["lossless_to_model"] is True
    plain = run_cli("caveman-engine", "registry")
    switched = run_cli("caveman-engine", "registry", env={"CAVE_ENGINE_TOON": "best-of"})
    assert plain.stdout == switched.stdout


def test_large_json_stays_within_seconds():
    raw = json.dumps({"rows": [{"id": i, "name": f"row {i}", "v": i % 7} for i in range(50_000)]}).encode()
    t0 = time.perf_counter()
    out, meta = JSONStrategy().compress_with_metadata(raw, "")
    assert meta.method in ("toon", "elision") and len(out) < len(raw)
    assert time.perf_counter() - t0 < 30
