"""The default ``json`` route: best of elision (lossy) and the lossless re-encodings TOON and
minify; fewest tokens wins, lossless on ties. ``CAVE_ENGINE_TOON=elision|off`` restores the
reference's elision-only route (the spec's best-of, TOON vs elision, is the case without minify)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem.compressors import json_lossless
from cavemem.compressors.base import Compressor, Metadata
from cavemem.compressors.json_strategy import LOSSLESS_MAX_BYTES, JSONStrategy
from cavemem.toon import codec

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

SMALL_TABLE = json.dumps({"hikes": [{"id": i, "name": f"hike {i}", "km": i * 1.5} for i in range(5)]}).encode()
BIG_TABLE = json.dumps({"items": [{"id": i, "status": "ok", "name": f"item-{i}", "score": round(0.5 + i / 1000, 3)} for i in range(300)]}).encode()
NESTED_ROWS = json.dumps({"results": [{"id": i, "meta": {"tags": ["a", "b"], "ok": True}, "msg": "fine"} for i in range(50)]}).encode()
# a package.json-like object: nested, no long array, not a flat table
PACKAGE = b"""{
  "version": "1.10",
  "name": "demo",
  "size": 1e3,
  "scripts": {"test": "node test.js && echo ok", "lint": "eslint ."},
  "engines": {"node": ">=18 <21"},
  "files": ["bin/", "lib/"],
  "repository": {"type": "git", "url": "git+https://example.invalid/demo.git"},
  "exports": {".": [{"default": "./index.js"}, "./index.js"]}
}
"""


def test_toon_wins_when_elision_has_nothing_to_collapse():
    out, meta = JSONStrategy().compress_with_metadata(SMALL_TABLE, "")
    assert (meta.method, meta.lossless_to_model) == ("toon", True)
    assert out.startswith(b"hikes[5]{id,name,km}:") and codec.round_trips(SMALL_TABLE, out)


def test_elision_wins_when_it_is_strictly_fewer_tokens():
    from cavemem.tokens import count_tokens

    out, meta = JSONStrategy().compress_with_metadata(BIG_TABLE, "")
    assert (meta.method, meta.lossless_to_model) == ("elision", False)
    assert b"__caveman_elided__" in out
    assert count_tokens(out) < min(count_tokens(codec.encode_json(BIG_TABLE)), count_tokens(json_lossless.minify(BIG_TABLE)))


def test_elision_beats_minify_when_toon_cannot_encode():
    out, meta = JSONStrategy().compress_with_metadata(NESTED_ROWS, "")
    assert meta.method == "elision" and b"__caveman_elided__" in out


def test_minify_wins_on_nested_json_without_arrays_to_elide():
    out, meta = JSONStrategy().compress_with_metadata(PACKAGE, "")
    assert (meta.method, meta.lossless_to_model) == ("minify", True)
    # key order, number literals and every value exactly as written; only whitespace is gone
    assert out == (
        b'{"version":"1.10","name":"demo","size":1e3,"scripts":{"test":"node test.js && echo ok","lint":"eslint ."},'
        b'"engines":{"node":">=18 <21"},"files":["bin/","lib/"],"repository":{"type":"git","url":"git+https://example.invalid/demo.git"},'
        b'"exports":{".":[{"default":"./index.js"},"./index.js"]}}'
    )
    assert json_lossless.toon(PACKAGE) is None  # a mixed array: outside the TOON dialect
    assert json.loads(out) == json.loads(PACKAGE)


def test_query_reaches_elision():
    out = JSONStrategy().compress_query(BIG_TABLE, "item-150")
    assert b'"item-150"' in out and b"__caveman_elided__" in out
    assert b'"item-150"' not in JSONStrategy().compress(BIG_TABLE)


@pytest.mark.parametrize(
    "raw",
    [b'{"a":{"b":[1,[2]]}}', b"{not json", b"", b"\xff\xfe", b"[" * 50_000 + b"]" * 50_000, b'{"a": 1} {"b": 2}', b'{"x": NaN}'],
)
def test_neither_qualifies(raw):
    assert JSONStrategy().compress_with_metadata(raw, "") is None
    assert JSONStrategy().compress(raw) is None


class _Counter:
    """Counts bytes, so tests can stage exact ties; remembers what it counted."""

    name = "bytes"

    def __init__(self):
        self.calls = 0

    def count(self, data) -> int:
        self.calls += 1
        return len(data)


class _FakeElision(Compressor):
    content_type = "json"

    def __init__(self, out: bytes | None):
        self.out, self.queries = out, []

    def compress_with_metadata(self, data, query):
        self.queries.append(query)
        return None if self.out is None else (self.out, Metadata(method="elision", lossless_to_model=False, recovery_metadata=b"m"))


def test_tie_keeps_toon_and_query_reaches_only_elision():
    toon = json_lossless.toon(SMALL_TABLE)
    assert len(toon) < len(json_lossless.minify(SMALL_TABLE))
    fake = _FakeElision(b"x" * len(toon))
    out, meta = JSONStrategy(counter=_Counter(), elision=fake).compress_with_metadata(SMALL_TABLE, "hike 3")
    assert (out, meta.method) == (toon, "toon")
    assert fake.queries == ["hike 3"]
    fake.out = b"x" * (len(toon) - 1)
    out, meta = JSONStrategy(counter=_Counter(), elision=fake).compress_with_metadata(SMALL_TABLE, "")
    assert (out, meta.method, meta.recovery_metadata) == (fake.out, "elision", b"m")


def test_tie_between_minify_and_elision_keeps_minify():
    mini = json_lossless.minify(PACKAGE)
    fake = _FakeElision(b"x" * len(mini))
    out, meta = JSONStrategy(counter=_Counter(), elision=fake).compress_with_metadata(PACKAGE, "")
    assert (out, meta.method, meta.lossless_to_model) == (mini, "minify", True)


def test_a_candidate_must_be_smaller_than_the_input():
    fake = _FakeElision(b"y" * 10_000)
    assert JSONStrategy(counter=_Counter(), elision=fake).compress_with_metadata(b'{"a":{"b":[1,[2]]}}', "") is None


def test_big_payloads_take_elision_without_counting_and_fall_back_to_minify():
    rows = json.dumps({"rows": [{"id": i, "name": f"row {i}"} for i in range(40_000)]}, indent=2).encode()
    assert len(rows) > LOSSLESS_MAX_BYTES
    counter = _Counter()
    out, meta = JSONStrategy(counter=counter).compress_with_metadata(rows, "")
    assert meta.method == "elision" and counter.calls == 0
    distinct = json.dumps({"k%d" % i: "value %d" % i for i in range(60_000)}, indent=1).encode()
    assert len(distinct) > LOSSLESS_MAX_BYTES
    out, meta = JSONStrategy(counter=counter).compress_with_metadata(distinct, "")
    assert meta.method == "minify" and json.loads(out) == json.loads(distinct) and counter.calls == 0


@pytest.mark.parametrize("raw", [SMALL_TABLE, BIG_TABLE, NESTED_ROWS, PACKAGE])
def test_a_second_pass_claims_nothing(raw):
    out, _ = JSONStrategy().compress_with_metadata(raw, "")
    assert JSONStrategy().compress_with_metadata(out, "") is None


def test_compress_and_compress_query_agree_with_metadata_form():
    s = JSONStrategy()
    assert s.compress(SMALL_TABLE) == s.compress_with_metadata(SMALL_TABLE, "")[0]
    assert s.compress_query(BIG_TABLE, "item-150") == s.compress_with_metadata(BIG_TABLE, "item-150")[0]


# -- the engine route and its switch -----------------------------------------------------------


@pytest.mark.parametrize("env", [None, "best-of", "BEST-OF", "Best-Of", "something-else"])
def test_engine_routes_json_to_the_strategy_by_default(monkeypatch, env):
    from cavemem.engine.core import Engine

    if env is not None:
        monkeypatch.setenv("CAVE_ENGINE_TOON", env)
    res = Engine().compress(SMALL_TABLE)
    assert (res.content_type, res.method, res.lossless_to_model) == ("json", "toon", True)
    assert Engine().retrieve(res.recovery_handle) == SMALL_TABLE
    res = Engine().compress(PACKAGE)
    assert (res.method, res.lossless_to_model) == ("minify", True) and res.tokens_after < res.tokens_before
    assert Engine().retrieve(res.recovery_handle) == PACKAGE


@pytest.mark.parametrize("env", ["elision", "ELISION", "off", "Off"])
def test_env_switch_restores_elision_only(monkeypatch, env):
    from cavemem.engine.core import Engine

    monkeypatch.setenv("CAVE_ENGINE_TOON", env)
    assert Engine().compress(SMALL_TABLE).output == SMALL_TABLE  # nothing to elide: pass-through
    assert Engine().compress(PACKAGE).output == PACKAGE
    res = Engine().compress(BIG_TABLE)
    assert (res.method, res.lossless_to_model) == ("elision", False)


def test_cli_compress_reports_the_method_and_registry_is_unchanged(run_cli):
    r = run_cli("caveman-engine", "compress", input=SMALL_TABLE)
    assert r.rc == 0 and r.stdout.startswith(b"hikes[5]")
    assert r.report["method"] == "toon" and r.report["lossless_to_model"] is True
    r = run_cli("cavemem", "compress", input=PACKAGE)
    assert r.rc == 0 and r.report["method"] == "minify" and json.loads(r.stdout) == json.loads(PACKAGE)
    r = run_cli("cavemem", "compress", input=PACKAGE, env={"CAVE_ENGINE_TOON": "off"})
    assert r.rc == 0 and r.stdout == PACKAGE
    plain = run_cli("caveman-engine", "registry")
    for env in ("best-of", "elision"):
        assert run_cli("caveman-engine", "registry", env={"CAVE_ENGINE_TOON": env}).stdout == plain.stdout


# -- HTML characters stay literal in what the model reads -----------------------------------------


def test_pip_download_report_keeps_the_requirement_specifier_literally():
    data = (FIXTURES / "json" / "pip-download-report.json").read_bytes()
    out, _ = JSONStrategy().compress_with_metadata(data, "")
    assert b"markdown-it-py (>=2.2.0)" in out and b"\\u003e" not in out


def test_toon_candidate_writes_html_characters_literally_and_round_trips():
    raw = b'{"x": "x: <y> & z", "rows": [{"a": "1 < 2", "b": "ok"}, {"a": "&amp;", "b": "no"}]}'
    out = json_lossless.toon(raw)
    assert out == b'rows[2]{a,b}:\n  "1 < 2",ok\n  &amp;,no\nx: "x: <y> & z"'
    assert codec.round_trips(raw, out)


def test_minify_turns_escapes_into_characters_only_where_they_are_escapes():
    raw = b'{ "a": "\\u003cb\\u003E \\u0026", "b": "\\\\u003c", "c": "\\\\\\u003c", "d": "\\u0041" }'
    out = json_lossless.minify(raw)
    assert out == b'{"a":"<b> &","b":"\\\\u003c","c":"\\\\<","d":"\\u0041"}'
    assert json.loads(out) == json.loads(raw)


def test_literal_html_is_linear_on_long_backslash_runs():
    text = "\\" * 400_000 + "u003c" + "\\" * 400_001 + "u003e"
    t0 = time.perf_counter()
    assert json_lossless.literal_html(text) == "\\" * 400_000 + "u003c" + "\\" * 400_000 + ">"
    assert time.perf_counter() - t0 < 2


# -- properties and bad input ------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=30,
)


@settings(max_examples=150, deadline=None)
@given(JSON_VALUES, st.sampled_from([None, 1, 2, "\t"]), st.booleans())
def test_minify_preserves_the_value(value, indent, ascii_only):
    raw = json.dumps(value, indent=indent, ensure_ascii=ascii_only).encode()
    out = json_lossless.minify(raw)
    if out is None:
        assert raw == json.dumps(value, separators=(",", ":"), ensure_ascii=ascii_only).encode()  # already compact
        return
    assert json.loads(out) == json.loads(raw) and len(out) < len(raw)
    assert json_lossless.minify(out) is None  # nothing left to remove


@settings(max_examples=150, deadline=None)
@given(JSON_VALUES)
def test_strategy_output_is_always_recoverable_to_the_same_value(value):
    raw = json.dumps(value, indent=2).encode()
    got = JSONStrategy().compress_with_metadata(raw, "")
    if got is None:
        return
    out, meta = got
    if meta.method == "minify":
        assert json.loads(out) == value
    elif meta.method == "toon":
        assert codec.round_trips(raw, out)
    else:
        assert meta.method == "elision" and b"__caveman_elided__" in out


@pytest.mark.parametrize(
    "raw",
    [
        b'{"s": "' + b"x" * 1_000_000 + b'"}',  # 1 MB single line
        b'{"s": "' + b"\\\\" * 300_000 + b'"}',
        b'{"a": [1, 2, "\xff\xfe"]}',  # invalid UTF-8 inside a string
        b'{"a": ' * 5000 + b"1" + b"}" * 5000,  # deep nesting
        b'{"a": 1, "a": 2}',
    ],
)
def test_bad_or_pathological_input_is_fast_and_safe(raw):
    t0 = time.perf_counter()
    got = JSONStrategy().compress_with_metadata(raw, "")
    assert time.perf_counter() - t0 < 10
    if got is not None:
        out, meta = got
        if meta.method == "elision":  # a long string cut to its excerpt: still the same keys
            assert b"chars elided (caveman)" in out and json.loads(out).keys() == json.loads(raw).keys()
            return
        assert meta.method in ("minify", "toon")
        assert json.loads(out) == json.loads(raw) if meta.method == "minify" else codec.round_trips(raw, out)


def test_large_json_stays_within_seconds():
    raw = json.dumps({"rows": [{"id": i, "name": f"row {i}", "v": i % 7} for i in range(50_000)]}).encode()
    t0 = time.perf_counter()
    out, meta = JSONStrategy().compress_with_metadata(raw, "")
    assert meta.method in ("toon", "elision") and len(out) < len(raw)
    assert time.perf_counter() - t0 < 30
