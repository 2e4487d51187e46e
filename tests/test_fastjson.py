"""cavemem.fastjson gives exactly the stdlib's answers (orjson only where it agrees)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem import fastjson

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids, max_size=4), max_leaves=20)


def same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return type(a) is type(b) and (a == b if not isinstance(a, (list, dict)) else json.dumps(a) == json.dumps(b))


@settings(max_examples=300, deadline=None)
@given(values)
def test_loads_equals_stdlib_on_any_json(value):
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False)):
        got, want = fastjson.loads(text), json.loads(text)
        assert same(got, want)
        assert same(fastjson.loads(text.encode("utf-8", "surrogatepass")), want)


finite = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids, max_size=4), max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(finite)
def test_dumps_compact_round_trips_to_the_same_value(value):
    for sort in (False, True):
        text = fastjson.dumps_compact(value, sort_keys=sort)
        assert same(json.loads(text), json.loads(json.dumps(value, sort_keys=sort)))


@pytest.mark.parametrize(
    "text",
    ['"\\ud800"', "[NaN, Infinity]", "123456789012345678901234567890", "[18446744073709551616]", "[1e400]", '{"a":1,"a":2}'],
)
def test_inputs_orjson_refuses_or_misreads_get_the_stdlib_answer(text):
    assert same(fastjson.loads(text), json.loads(text))


def test_errors_are_the_stdlib_errors():
    with pytest.raises(json.JSONDecodeError) as got:
        fastjson.loads('{"a": }')
    with pytest.raises(json.JSONDecodeError) as want:
        json.loads('{"a": }')
    assert str(got.value) == str(want.value)


def test_dumps_keeps_non_ascii_and_lone_surrogates():
    assert fastjson.dumps_compact({"b": "é", "a": [1, None]}, sort_keys=True) == '{"a":[1,null],"b":"é"}'
    assert fastjson.dumps_compact({"x": "\ud800", "n": 10**30}) == json.dumps({"x": "\ud800", "n": 10**30}, ensure_ascii=False, separators=(",", ":"))
