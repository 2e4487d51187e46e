"""The TOON codec: spec engine-compressors §4 and §7.13 cases, the runtime round-trip proof,
decoder strictness (every kind of malformed line), the python-toon cross-check, bad input, and
the caveman eval fixtures through the engine."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cavemem.gocompat import Number
from cavemem.toon import codec, dialect, standard
from cavemem.toon.jsonvalue import JSONValueError, parse_json, same_value

from conftest import CAVEMAN_EVALS, eval_fixture

HIKES = {
    "hikes": [
        {"id": 1, "name": "Blue Lake", "distanceKm": 7.5, "sunny": True},
        {"id": 2, "name": "Ridge", "distanceKm": 9.2, "sunny": False},
        {"id": 3, "name": "Loop", "distanceKm": 5.1, "sunny": True},
    ],
    "friends": ["ana", "luis", "sam"],
    "meta": {"season": "spring_2025"},
}


def enc(obj) -> str:
    return codec.encode_json(json.dumps(obj).encode() if not isinstance(obj, bytes) else obj)


# -- spec §7.13: exact encoder outputs ---------------------------------------------------------


def test_hikes_exact_output_smaller_and_round_trips():
    raw = json.dumps(HIKES, separators=(",", ":")).encode()
    out = enc(raw)
    assert out == (
        "friends[3]: ana,luis,sam\n"
        "hikes[3]{id,name,distanceKm,sunny}:\n"
        "  1,Blue Lake,7.5,true\n"
        "  2,Ridge,9.2,false\n"
        "  3,Loop,5.1,true\n"
        "meta:\n"
        "  season: spring_2025"
    )
    assert len(out) < len(raw)
    assert codec.round_trips(raw, out)


def test_quoted_strings_in_rows_round_trip():
    rows = [{"id": i, "value": v} for i, v in enumerate(["a,b", "true", "123", "", " leading", "line\nbreak", 'a"b'], 1)]
    raw = json.dumps({"rows": rows}).encode()
    out = enc(raw)
    assert out.splitlines()[0] == "rows[7]{id,value}:"
    for cell in ['"a,b"', '"true"', '"123"', '""', '" leading"', '"line\\nbreak"', '"a\\"b"']:
        assert cell in out
    assert codec.round_trips(raw, out)


def test_numbers_keep_their_literal_text():
    raw = b'{"n":[7.50,1e9,123456789012345678901234567890],"x":-0.0}'
    out = enc(raw)
    assert out == "n[3]: 7.50,1e9,123456789012345678901234567890\nx: -0.0"
    assert codec.decode_json(out) == b'{"n":[7.50,1e9,123456789012345678901234567890],"x":-0.0}'


def test_keys_are_sorted_so_key_order_does_not_matter():
    a = enc(b'{"b":1,"a":2,"nested":{"z":3,"c":4}}')
    b = enc(b'{"nested":{"c":4,"z":3},"a":2,"b":1}')
    assert a == b == "a: 2\nb: 1\nnested:\n  c: 4\n  z: 3"


@pytest.mark.parametrize(
    "raw, toon",
    [
        (b'["ana","luis","sam"]', "[3]: ana,luis,sam"),
        (b'"plain"', "plain"),
        (b"42", "42"),
        (b"{}", "{}"),
        (b"[]", "[]"),
        (b"null", "null"),
        (b'"true"', '"true"'),
        (b'{"e":[],"o":{}}', "e[0]: []\no: {}"),
        (b'[{"b":1,"a":2},{"b":3,"a":4}]', "[2]{b,a}:\n  1,2\n  3,4"),
        (b'{"x":"x: <y>"}', 'x: "x: \\u003cy\\u003e"'),
        (b'{"a":{"b":{"c":{}}}}', "a:\n  b:\n    c: {}"),
    ],
)
def test_root_forms_and_exact_spellings(raw, toon):
    assert enc(raw) == toon
    assert codec.round_trips(raw, toon)


@pytest.mark.parametrize(
    "s, quoted",
    [
        ("a<b", False), ("é", False), ("spring_2025", False), ("Blue Lake", False), ("+5", False),
        (".5", False), ("Infinity", False), ("a\\b", False), ("", True), (" x", True), ("x\u00a0", True),
        ("a:b", True), ("a,b", True), ("[x", True), ("{x", True), ('"x', True), ("-x", True), ("9lives", True),
        ("true", True), ("null", True), ("1e5", True), ("tab\there", True),
    ],
)  # fmt: skip
def test_quoting_rules(s, quoted):
    assert dialect.needs_quote(s) is quoted
    out = enc({"k": s})
    assert out.startswith('k: "') is quoted
    assert same_value(codec.decode_value(out), {"k": s})


# -- what refuses to encode ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, reason",
    [
        (b'{"rows":[{"id":1,"name":"a"},{"id":2,"label":"b"}]}', "keys differ"),
        (b'{"rows":[{"id":1,"meta":{"nested":true}}]}', "nested value"),
        (b'[{"b":1,"a":2},{"a":3,"b":4}]', "keys differ"),
        (b"[[1],[2]]", "not uniform"),
        (b'[1,{"a":1}]', "not uniform"),
        (b"[{}]", "not uniform"),
        (b'{"a b":1}', "not a plain identifier"),
        (b'[{"a b":1}]', "not a plain identifier"),
        (b'{"id":0,"id":""}', "duplicate key"),
        (b'{"A000":[{"id":0,"id":""}]}', "duplicate key"),
        (b'{"a":{"x":1,"x":2}}', "duplicate key"),
        (b'{"a":1', "invalid JSON"),
        (b'{"a":1} }', "invalid JSON"),
        (b'{"a":1} ]', "invalid JSON"),
        (b"{} {}", "invalid JSON"),
        (b"", "invalid JSON"),
        (b"NaN", "invalid JSON"),
        (b"\xff\xfe", "invalid JSON"),
    ],
)
def test_not_encodable(raw, reason):
    with pytest.raises(codec.NotEncodable) as err:
        codec.encode_json(raw)
    assert reason in err.value.reason
    assert str(err.value).startswith(codec.ENCODE_ERROR)


def test_tab_delimiter_is_refused_by_the_dialect():
    with pytest.raises(dialect.EncodeError):
        dialect.encode({"a": [1, 2]}, delimiter="\t")


def test_invalid_utf8_inside_strings_is_not_encodable():
    # U+FFFD in the TOON would not be the caller's bytes: no lossless claim (issue 15 item 12)
    with pytest.raises(codec.NotEncodable, match="not valid UTF-8"):
        codec.encode_json(b'{"s":"a\xffb"}')


def test_lone_surrogate_escape_is_not_encodable():
    with pytest.raises(codec.NotEncodable, match="lone surrogate"):
        codec.encode_json(b'{"s":"x\\ud800"}')
    with pytest.raises(codec.NotEncodable, match="duplicate key"):
        codec.encode_json(b'{"\\ud800":1,"\\udbff":2}')  # both keys decode to U+FFFD
    assert codec.encode_json(b'{"s":"\\ud83d\\ude00 \\\\ud800"}') == "s: \U0001f600 \\ud800"  # a pair and an escaped backslash are fine


# -- the runtime proof ---------------------------------------------------------------------------


def test_proof_rejects_an_encoder_that_loses_information(monkeypatch):
    monkeypatch.setattr(dialect, "encode_scalar", lambda v, delimiter=",": "x" if isinstance(v, str) else str(v).lower())
    with pytest.raises(codec.NotEncodable, match="round-trip proof failed"):
        codec.encode_json(b'{"a":"hello"}')


def test_proof_rejects_output_python_toon_reads_differently(monkeypatch):
    monkeypatch.setattr(standard, "dialect_to_standard", lambda text: text.replace("1", "2"))
    with pytest.raises(codec.NotEncodable, match="python-toon"):
        codec.encode_json(b'{"a":1}')


def test_proof_rejects_output_that_does_not_decode(monkeypatch):
    monkeypatch.setattr(dialect, "encode", lambda value, delimiter=",": "a:\n\n b")
    with pytest.raises(codec.NotEncodable, match="does not decode"):
        codec.encode_json(b'{"a":1}')


@pytest.mark.parametrize(
    "value",
    [
        {"r": [{"a": "#z", "b": "\f"}], "x": "\b#y"},  # '#'-first row (standard TOON: comment)
        "#root",
        {"e": [], "o": {}, "n": {"deeper": {}}},
        {"s": "back\\slash", "q": ['a"b', "c\\d"]},
    ],
)
def test_cross_check_handles_dialect_spellings(value):
    text = codec.encode_value(parse_json(json.dumps(value)))
    assert standard.agrees_with_dialect(parse_json(json.dumps(value)), text)


def test_deep_nesting_refused_deterministically_not_crash():
    deep = b'{"a":' * 300 + b"1" + b"}" * 300
    with pytest.raises(codec.NotEncodable, match="deeper than"):
        codec.encode_json(deep)
    too_deep = b"[" * 100_000 + b"]" * 100_000
    with pytest.raises(codec.NotEncodable):
        codec.encode_json(too_deep)
    ok = b'{"a":' * 200 + b"1" + b"}" * 200
    assert codec.decode_json(codec.encode_json(ok)) == ok


# -- decoder: exact outputs and every kind of malformed input --------------------------------


def test_decode_gives_compact_sorted_html_escaped_json():
    assert codec.decode_json("b: <x>\na[2]: 1.50,\"&\"") == b'{"a":[1.50,"\\u0026"],"b":"\\u003cx\\u003e"}'
    assert codec.decode_json('x: a"b') == b'{"x":"a\\"b"}'  # a raw quote mid-string is accepted
    assert codec.decode_json("k: []") == b'{"k":"[]"}'  # '[]' after a key is a raw string
    assert codec.decode_json("a: 1\n\n\n") == b'{"a":1}'  # trailing newlines are trimmed


@pytest.mark.parametrize(
    "text",
    [
        "", "\n\n", "   ",
        "a: 1\n\nb: 2",  # blank line
        "a: 1\n   \nb: 2",  # whitespace-only line
        "a:\n   b: 1",  # odd indentation
        "  a: 1",  # indented first line
        "a: 1\n  b: 2",  # deeper than the open object
        "a:",  # nested object without members
        "a:\nb: 1",  # nested object, next line not indented
        "a: 1\r\nb: 2",  # CRLF (unsupported)
        "name: first\nname: second",  # duplicate key
        "a b: 1",  # unsafe key
        "a:b",  # missing space after ':'
        'a: "open',  # unterminated quoted string
        'a: "x" y',  # text after the closing quote
        'a: "\\q"',  # invalid JSON escape
        "a: x ",  # trailing space
        "a:  x",  # two spaces
        "a: \tx",  # tab in an unquoted value
        "rows[1000000000]{id}:\n  1",  # count beyond the remaining lines
        "rows[99999999999999999999]{id}:\n  1",  # count beyond int64
        "rows[1]{id,id}:\n  1,2",  # duplicate header field
        "rows[1]{}:\n  1",  # empty header
        "rows[1]{a b}:\n  1",  # unsafe header field
        "rows[2]{id}:\n  1",  # fewer rows than promised
        "rows[1]{id,x}:\n  1",  # cell count mismatch
        "rows[1]{id}:\n    1",  # row at the wrong indentation
        "rows[1]{id}:\n  1\n  2",  # an extra row
        "x[2]: a, b",  # space after a delimiter
        "x[2]: a",  # count mismatch
        "x[0]:",  # empty array spelled wrong
        'x[2]: "a,b',  # unbalanced quote
        'x[1]: "a\\',  # dangling escape
        "[2]: 1,2\nb: 3",  # content after the root array
        "plain\nmore",  # content after a root scalar
        "{}\na: 1",  # content after the root object
        "[x]: 1",  # bad root header
        '"a"b',  # garbage after a root string
        "a: 1\n- b",  # list items are not part of the dialect
        "a[2]: 1,2\n  b: 3",  # indentation after an inline array
    ],
)  # fmt: skip
def test_invalid_toon_is_a_clean_error(text):
    with pytest.raises(codec.InvalidToon) as err:
        codec.decode_json(text)
    assert str(err.value).startswith(codec.DECODE_ERROR)


def test_invalid_utf8_toon_decodes_with_replacement_characters():
    assert codec.decode_json(b"a: x\xffy") == '{"a":"x\ufffdy"}'.encode()


# -- properties ------------------------------------------------------------------------------------

_keys = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.\-]{0,6}", fullmatch=True)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["", " ", "-", "#x", "a,b", "true", "12", "\u2028", "<&>", "a\\b", '"', ":", "\x08\x0c", "é😀"]),
)


@st.composite
def _tables(draw):
    fields = draw(st.lists(_keys, min_size=1, max_size=4, unique=True))
    rows = draw(st.lists(st.tuples(*[_scalars for _ in fields]), min_size=1, max_size=5))
    return [dict(zip(fields, r)) for r in rows]


_values = st.recursive(
    _scalars | st.lists(_scalars, max_size=5) | _tables(),
    lambda inner: st.dictionaries(_keys, inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_values)
def test_every_encodable_value_round_trips_exactly(value):
    raw = json.dumps(value).encode()
    out = codec.encode_json(raw)  # the subset generated here is always encodable
    assert same_value(codec.decode_value(out), parse_json(raw))
    assert json.loads(codec.decode_json(out)) == json.loads(raw)


@settings(max_examples=300, deadline=None)
@given(st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4), max_leaves=15))
def test_any_json_either_round_trips_or_refuses(value):
    raw = json.dumps(value).encode()
    try:
        out = codec.encode_json(raw)
    except codec.NotEncodable:
        return
    assert codec.round_trips(raw, out)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('ab:, "\\[]{}\n\t-#0123456789tru')), max_size=40))
def test_decoder_never_crashes(text):
    try:
        codec.decode_json(text)
    except codec.InvalidToon:
        pass


# -- big and pathological inputs -----------------------------------------------------------------


def test_large_table_encodes_and_decodes_in_seconds():
    rows = [{"id": i, "name": f"item-{i}", "ok": i % 3 == 0, "score": i / 7} for i in range(60_000)]
    raw = json.dumps({"rows": rows}).encode()
    t0 = time.perf_counter()
    out = codec.encode_json(raw)
    back = codec.decode_json(out)
    assert time.perf_counter() - t0 < 20
    assert json.loads(back) == json.loads(raw)
    assert len(out) < 0.6 * len(raw)


def test_json_above_the_encode_cap_is_refused_quickly():
    raw = b'{"a":"' + b"x" * (codec.MAX_ENCODE_BYTES + 1) + b'"}'
    t0 = time.perf_counter()
    with pytest.raises(codec.NotEncodable, match="larger than"):
        codec.encode_json(raw)
    assert time.perf_counter() - t0 < 1


def test_large_outputs_skip_only_the_python_toon_cross_check(monkeypatch):
    calls = []
    monkeypatch.setattr(standard, "agrees_with_dialect", lambda v, t: calls.append(len(t)) or True)
    small = json.dumps({"a": list(range(10))}).encode()
    big = json.dumps({"a": list(range(300_000))}).encode()
    codec.encode_json(small)
    assert len(calls) == 1
    out = codec.encode_json(big)
    assert len(calls) == 1  # the dialect-decoder proof alone covers the big output
    assert len(out) > codec.CROSS_CHECK_MAX_CHARS and codec.round_trips(big, out)


def test_pathological_inputs_fail_fast():
    t0 = time.perf_counter()
    for bad in [b"[" + b"1," * 500_000 + b"{}]", b'"' + b"a" * 2_000_000 + b'"', b"x" * 1_000_000, bytes(range(256)) * 100]:
        try:
            codec.encode_json(bad)
        except codec.NotEncodable:
            pass
    for bad in ["a: " + "x" * 1_000_000, "k:\n" + "  a: 1\n" * 100_000, "x[3]: " + '"' * 100_001, "a:\n" * 50_000]:
        try:
            codec.decode_json(bad)
        except codec.InvalidToon:
            pass
    assert time.perf_counter() - t0 < 20


def test_deeply_nested_toon_decodes_without_recursion():
    depth = 3000
    text = "\n".join("  " * i + "a:" for i in range(depth)) + "\n" + "  " * depth + "b: 1"
    out = codec.decode_json(text)
    assert out == b'{"a":' * depth + b'{"b":1}' + b"}" * depth


def test_json_value_model_rejects_duplicates_and_keeps_literals():
    assert parse_json(b'{"a":1.50}') == {"a": Number("1.50")}
    with pytest.raises(JSONValueError):
        parse_json(b'{"a":1,"a":1}')
    assert not same_value(parse_json(b"7.50"), parse_json(b"7.5"))
    assert not same_value(parse_json(b"true"), parse_json(b"1"))
    assert same_value(parse_json(b'{"a":[1,{"b":2}]}'), parse_json(b'{"a":[1,{"b":2}]}'))


# -- the caveman eval fixtures through the engine --------------------------------------------------

needs_evals = pytest.mark.skipif(not CAVEMAN_EVALS.exists(), reason="caveman eval corpus not present")


@needs_evals
def test_eval_toon_tabular():
    from cavemem.engine.core import Engine

    raw = eval_fixture("toon_tabular.json")
    res = Engine().compress(raw, type="toon")
    assert 0.15 <= res.ratio <= 0.80
    assert b"hikes[4]{id,name,distanceKm,sunny}:" in res.output
    assert res.method == "toon" and res.lossless_to_model is True and res.recovery_handle
    assert codec.round_trips(raw, res.output)


@needs_evals
def test_eval_toon_nested_passthrough_is_byte_identical():
    from cavemem.engine.core import Engine

    raw = eval_fixture("toon_nested_passthrough.json")
    res = Engine().compress(raw, type="toon")
    assert res.output == raw and res.ratio == 0 and not res.recovery_handle


@needs_evals
def test_eval_toon_tricky_strings():
    from cavemem.engine.core import Engine

    raw = eval_fixture("toon_strings.json")
    res = Engine().compress(raw, type="toon")
    for cell in [b'"a,b"', b'"true"', b'"123"', b'"a\\"b"']:
        assert cell in res.output
    assert res.ratio > 0 and codec.round_trips(raw, res.output)
