"""The fast json elision path equals the straightforward one (spec engine-compressors §2.4, §3.1).

The json compressor summarises thousands of elided runs per array from whole-array columns, sizes
its marker summaries by arithmetic, and finds outliers from sorted values. Here a plain
transcription of the definitions — per-unit field collection, ``Counter`` enums, integer dense
ranges, streaming numeric extrema, render-and-shed, a per-value robust z-score loop — is the
oracle, and hypothesis draws record arrays with scattered anomalies (error rows, latency
outliers, regime shifts, sparse and mixed-type keys, non-object elements).
"""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem.compressors import invariant_columns, invariants, json_elision, json_outliers
from cavemem.compressors.invariant_columns import ArrayRunSummaries
from cavemem.compressors.invariants import object_fields, summarize_elided, summary_budget
from cavemem.compressors.json_canonical import JSONNumber, decode_document
from cavemem.compressors.json_elision import JSONCompressor
from cavemem.gocompat import parse_float

# -- the oracle: the summary definition written plainly ----------------------------------------

_SENSITIVE = re.compile(r"secret|passw|token|api[_-]?key|authoriz|credential|cookie|session", re.I | re.ASCII)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_SHED = ("enumWeak", "range", "coverage", "constant", "coverageDense", "enum")


def _utf8_len(s: str) -> int:
    return len(s.encode("utf-8", "surrogatepass"))


def ref_value_usable(v: str) -> bool:
    if not v or _utf8_len(v) > 40 or "caveman" in v or "\u2026" in v or _CONTROL.search(v):
        return False
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def ref_enum_usable(v: str) -> bool:
    return ref_value_usable(v) and _utf8_len(v) <= 24 and " " not in v and "\t" not in v and v != "absent"


def ref_numeric_extrema(distinct: list[str]):
    lo = hi = None
    for s in distinct:
        x = parse_float(s)
        if x is None:
            return None
        if lo is None:
            lo = hi = (x, s)
        elif x < lo[0]:
            lo = (x, s)
        elif x > hi[0]:
            hi = (x, s)
    return lo[1], hi[1]


def ref_dense_range(distinct: list[str]):
    first = distinct[0]
    prefix = first.rstrip("0123456789")
    width = len(first) - len(prefix)
    if not 0 < width <= 18:
        return None
    nums = {}
    for v in distinct:
        digits = v[len(prefix) :]
        if len(v) != len(first) or not v.startswith(prefix) or not all(c in "0123456789" for c in digits):
            return None
        nums[int(digits)] = v
    if max(nums) - min(nums) + 1 != len(distinct):
        return None
    return nums[min(nums)], nums[max(nums)]


def ref_entries(units: list[dict]) -> list[list]:
    cols: dict[str, list[str]] = {}
    for fields in units:
        for name, value in fields.items():
            if name in cols or len(cols) < 48:
                cols.setdefault(name, []).append(value)
    n = len(units)
    entries, coverage = [], 0
    for name, values in cols.items():
        if not name or _utf8_len(name) > 32 or _SENSITIVE.search(name):
            continue
        distinct = list(dict.fromkeys(values))
        absent = n - len(values)
        if not absent and len(distinct) == 1:
            if ref_value_usable(distinct[0]):
                entries.append(["constant", f"{name}={distinct[0]}"])
            continue
        if not absent:
            ext = ref_numeric_extrema(distinct)
            if ext is not None and ext[0] != ext[1]:
                if ref_value_usable(ext[0]) and ref_value_usable(ext[1]):
                    entries.append(["range", f"{name}={ext[0]}..{ext[1]}"])
                continue
        entry = None
        if len(distinct) + (absent > 0) <= 5 and all(map(ref_enum_usable, distinct)):
            counts = Counter(values)
            buckets = sorted(((v, counts[v]) for v in distinct), key=lambda b: -b[1])
            if absent:
                buckets.append(("absent", absent))
            if any(c > 1 for _, c in buckets):
                kind = "enumWeak" if 2 * len(buckets) >= n else "enum"
                entry = [kind, name + ": " + " ".join(f"{v}\u00d7{c}" for v, c in buckets)]
        full_set_grew = len(distinct) == 4096 and values.index(distinct[-1]) < len(values) - 1
        if entry is None and coverage < 2 and len(distinct) <= 4096 and not full_set_grew and all(map(ref_enum_usable, distinct)):
            lo, hi = min(distinct), max(distinct)
            if len(distinct) >= 2 and lo != hi:
                dense = ref_dense_range(distinct) if not absent else None
                if dense:
                    entry = ["coverageDense", f"{name}: {dense[0]}..{dense[1]} all {len(distinct)} present"]
                else:
                    entry = ["coverage", f"{name}: {len(distinct)} distinct, {lo}..{hi}" + (f", absent\u00d7{absent}" if absent else "")]
                coverage += 1
        if entry is not None:
            entries.append(entry)
    return entries


def ref_render(entries: list[list]) -> str:
    parts = []
    consts = [t for k, t in entries if k == "constant"]
    if consts:
        parts.append("all " + " ".join(consts))
    parts += [t for k, t in entries if k not in ("constant", "range")]
    ranges = [t for k, t in entries if k == "range"]
    if ranges:
        parts.append("range " + " ".join(ranges))
    return "; ".join(parts)


def ref_summary(units: list[dict], elided_bytes: int) -> str:
    units = list(units)
    if len(units) < 2 or not all(units):
        return ""
    entries = ref_entries(units)
    budget = summary_budget(elided_bytes)
    while _utf8_len(ref_render(entries)) > budget:
        kind = next(k for k in _SHED if any(e[0] == k for e in entries))
        del entries[max(i for i, e in enumerate(entries) if e[0] == kind)]
    return ref_render(entries)


def ref_median_and_scale(values: list[float]) -> tuple[float, float]:
    def median(xs):
        s = sorted(xs)
        return s[len(s) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2

    med = median(values)
    mad = median([abs(x - med) for x in values])
    if mad != 0:
        return med, mad
    mean = 0.0
    for x in values:
        mean += x
    mean /= len(values)
    if len(values) < 2:
        return mean, 0.0
    ss = 0.0
    for x in values:
        ss += (x - mean) * (x - mean)
    std = math.sqrt(ss / (len(values) - 1))
    return mean, (std / 0.6745 if std != 0 else 0.0)


# -- strategies ----------------------------------------------------------------------------------

_TEXT = st.sampled_from(
    ["ok", "fail", "a b", "", "absent", "x" * 30, "x" * 45, "ord-001", "ord-002", "ord-010", "n-8", "n-10", "\u00e9", "caveman",
     "a\u2026", "tab\x01", "\ud800", "٣", "item-٣", "inf", "NaN", "0x1p4", "1_000", "team-3", "team-12", "<b>&", "1e400"]
)
_NUMBER = st.sampled_from(["0", "-0", "1", "1.0", "1.00", "2.50", "-3", "1e2", "9999", "120", "5", "12345678901234567890", "1e400", "-1e400", "0.5"])
_FIELD = st.one_of(_TEXT, _NUMBER, st.booleans())
_NAMES = st.sampled_from(["id", "state", "n.m", "token", "zz", "a", "region", "x" * 33, ""])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.dictionaries(_NAMES, _FIELD.map(lambda v: v if isinstance(v, str) else ("true" if v else "false")), max_size=5), max_size=14),
       st.sampled_from([10**6, 700, 300, 150, 60, 0]))
def test_summary_definition_equals_plain_oracle(units, elided):
    """summarize_elided (bulk predicates, size arithmetic, C-speed dense ranges) == the oracle."""
    assert summarize_elided(units, elided) == ref_summary(units, elided)


def test_oracle_reproduces_verified_spec_summaries():
    from test_compressor_helpers import BIG, SUMMARY_CASES

    for units, want in SUMMARY_CASES:
        assert ref_summary(units, BIG) == want


# -- whole arrays: ArrayRunSummaries and the compressor ------------------------------------------


def _record(r: random.Random, i: int, keys: list[str]):
    """One row of a tool-output array; a few are anomalies (error state, outlier, odd shape)."""
    row = {"id": i, "seq": f"s-{1000 + i}", "status": "error" if r.random() < 0.04 else "ok", "latency_ms": r.randint(5, 120)}
    if r.random() < 0.03:
        row["latency_ms"] = 99_999
    if i > 40 and r.random() < 0.5:
        row["latency_ms"] += 400  # a regime shift in the second part
    for key in keys:
        if r.random() < 0.85:
            row[key] = r.choice(
                [r.choice(["eu", "us", "ap"]), r.randint(0, 9), f"team-{r.randint(1, 12)}", True, None, 2.5, "", [1, 2], {"k": r.randint(0, 3)}, "a b", "1e3"]
            )
    odd = r.random()
    if odd < 0.01:
        return r.choice([[1, 2], "text", 7, None])
    if odd < 0.02:
        return {f"k{j}": j for j in range(30)}  # wider than 24 members
    return row


def _array_json(seed: int) -> bytes:
    r = random.Random(seed)
    width = r.choice([0, 2, 5, 70])
    keys = [f"{r.choice(['region', 'owner', 'n.m', 'msg', 'note', 'tag'])}{j if width > 5 else ''}" for j in range(width)]
    n = r.choice([9, 10, 30, 120, 400])
    rows = [_record(r, i, keys) for i in range(n)]
    if r.random() < 0.3:
        rows = [{"id": i, "v": r.choice(["x", "y"])} if r.random() < 0.5 else {"id": i} for i in range(n)]  # sparse keys
    doc = r.choice([rows, {"results": rows, "count": n}, {"data": {"items": rows}, "errors": rows[:12]}])
    return json.dumps(doc, ensure_ascii=r.random() < 0.5).encode()


def _the_array(value):
    while isinstance(value, dict):
        value = value.get("results") or value.get("data") or value.get("items")
    return value


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**9), st.data())
def test_array_run_summaries_equal_the_per_unit_definition(seed, data):
    arr = _the_array(decode_document(_array_json(seed))[1])
    columns: dict = {}
    series = json_outliers.leaf_series(arr, columns)
    fast = ArrayRunSummaries(arr, columns, json_outliers.complete_top_level(series, len(arr)))
    plain = ArrayRunSummaries(arr)  # no hints: builds its own columns
    for _ in range(25):
        i = data.draw(st.integers(0, len(arr) - 1))
        j = data.draw(st.integers(i, len(arr)))
        elided = data.draw(st.sampled_from([10**6, 2000, 300, 150]))
        want = summarize_elided(map(object_fields, arr[i:j]), elided)
        assert fast.summary(i, j, elided) == want
        assert plain.summary(i, j, elided) == want
        assert ref_summary(map(object_fields, arr[i:j]), elided) == want


def _plain_floats(idx, nums):
    pairs = [(i, float(n.literal)) for i, n in zip(idx, nums)]
    pairs = [(i, x) for i, x in pairs if not math.isinf(x)]  # out of range: skipped
    return [i for i, _ in pairs], [x for _, x in pairs]


def _straightforward(monkeypatch):
    """Swap every fast path of the json route for its plain definition."""
    monkeypatch.setattr(ArrayRunSummaries, "summary", lambda self, i, j, b: ref_summary(map(object_fields, self._arr[i:j]), b))
    monkeypatch.setattr(json_outliers, "median_and_scale", lambda values, ordered=None: ref_median_and_scale(values))
    monkeypatch.setattr(
        json_outliers,
        "_outside",
        lambda idx, vals, med, scale, ordered: [i for i, v in zip(idx, vals) if abs(0.6745 * (v - med) / scale) >= 2.0],
    )
    monkeypatch.setattr(JSONNumber, "literals", staticmethod(lambda nums: [n.literal for n in nums]))
    monkeypatch.setattr(JSONNumber, "floats", staticmethod(lambda nums: [float(n.literal) for n in nums]))
    monkeypatch.setattr(json_outliers, "_floats", _plain_floats)
    monkeypatch.setattr(json_elision, "_holds_marker", lambda arr: any(isinstance(e, dict) and json_elision.ELIDED_KEY in e for e in arr))
    monkeypatch.setattr(json_elision, "_byte_lengths", lambda docs: [len(d.encode("utf-8")) for d in docs])
    monkeypatch.setattr(invariant_columns, "_decimal_floats", lambda text, known: None)


@pytest.mark.parametrize("query", ["", "error team-3"])
def test_compressor_equals_the_straightforward_path_on_random_arrays(monkeypatch, query):
    seeds = range(60)
    fast = [JSONCompressor().compress_query(_array_json(s), query) for s in seeds]
    with monkeypatch.context() as m:
        _straightforward(m)
        plain = [JSONCompressor().compress_query(_array_json(s), query) for s in seeds]
    assert fast == plain
    assert sum(out is not None for out in fast) >= 20  # the arrays really were elided


def _bench_engine():
    """``scripts/bench_engine.py`` as a module: the test uses the benchmark's own generator."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "scripts" / "bench_engine.py"
    spec = importlib.util.spec_from_file_location("bench_engine", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_shaped_array_equals_the_straightforward_path(monkeypatch):
    """1 MB of the benchmark's JSON array: ~1 % error rows and 0.5 % latency outliers scattered,
    so hundreds of short elided runs, each with its own marker summary."""
    data = _bench_engine().make_json(1 << 20)
    fast = JSONCompressor().compress(data)
    with monkeypatch.context() as m:
        _straightforward(m)
        plain = JSONCompressor().compress(data)
    assert fast == plain
    assert fast.count(b"__caveman_elided__") > 200


# -- the outlier helpers --------------------------------------------------------------------------

_FLOATS = st.lists(st.one_of(st.integers(-50, 50).map(float), st.sampled_from([0.0, -0.0, 1e300, -1e300, 1e-300, 9999.0, 2.5])), min_size=1, max_size=60)


@settings(max_examples=400, deadline=None)
@given(_FLOATS)
def test_median_and_scale_from_sorted_values_equals_the_definition(values):
    assert json_outliers.median_and_scale(values) == ref_median_and_scale(values)
    assert json_outliers.median_and_scale(values, sorted(values)) == ref_median_and_scale(values)


@settings(max_examples=400, deadline=None)
@given(_FLOATS, st.one_of(st.just(None), st.floats(allow_nan=False, min_value=-1e300, max_value=1e300)))
def test_anomaly_cuts_flag_exactly_the_per_value_test(values, centre):
    med, scale = json_outliers.median_and_scale(values)
    if centre is not None:
        med = centre
    if scale <= 0:
        scale = 1.0
    idx = list(range(len(values)))
    want = {i for i, v in zip(idx, values) if abs(0.6745 * (v - med) / scale) >= 2.0}
    assert set(json_outliers._outside(idx, values, med, scale, sorted(values))) == want


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.integers(-3, 3).map(float), st.sampled_from([1e300, -1e300, 1e308, 0.1, 1e-10])), max_size=40), st.booleans())
def test_constant_slope_equals_the_per_step_test(steps, line):
    """A series is a straight line when every step is within 1e-9 of the first."""
    y, x = [], 0.0
    for d in steps:
        x = x + (1.0 if line else d)
        y.append(x)
    y += [v * 7.5 for v in y[: len(y) // 3]] if not line else []
    want = len(y) < 3 or all(abs((y[i + 1] - y[i]) - (y[1] - y[0])) <= 1e-9 for i in range(1, len(y) - 1))
    assert json_outliers._constant_slope(y) == want
    assert json_outliers._constant_slope(list(range(100))) is True
    assert json_outliers._constant_slope([float(i) for i in range(100)] + [1e308]) is False


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["0", "-0", "7", "-12", "3.25", "1e5", "-2E-3", "12345678901234567890", "9" * 400, "0.0"]), max_size=30))
def test_number_literals_and_floats_in_bulk(literals):
    doc = decode_document(("[" + ",".join(literals) + "]").encode())
    assert doc is not None
    numbers = doc[1]
    assert JSONNumber.literals(numbers) == [n.literal for n in numbers] == literals
    got, want = JSONNumber.floats(numbers), [float(n.literal) for n in numbers]
    assert got == want and [math.copysign(1, x) for x in got] == [math.copysign(1, x) for x in want]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["id-01", "id-02", "id-03", "id-10", "id-1", "id-٣", "x9", "x10", "9", "10", "a\n1", "ab", "007", "008"]), min_size=2, max_size=8, unique=True))
def test_dense_range_equals_integer_definition(distinct):
    lo, hi = min(distinct), max(distinct)
    want = ref_dense_range(distinct)
    assert invariants._dense_range(distinct, lo, hi) == (want is not None)
    if want is not None:
        assert want == (lo, hi)
