"""json compressor: tool-output array elision (spec engine-compressors §3.1, cases §7.1, §8)."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem.compressors.json_canonical import decode_document
from cavemem.compressors.json_elision import ELIDED_KEY, INVARIANTS_KEY, NOTE_KEY, JSONCompressor, error_state_indices
from cavemem.compressors.invariants import elision_note
from cavemem.engine.core import Engine
from cavemem.gocompat import loads_verbatim, marshal

from conftest import CAVEMAN_EVALS, eval_fixture

C = JSONCompressor()


def dumps(v) -> bytes:
    return json.dumps(v).encode()


def markers(out: bytes, key: str | None = None) -> list[dict]:
    v = json.loads(out)
    arr = v[key] if key else v
    return [e for e in arr if isinstance(e, dict) and ELIDED_KEY in e]


# -- verified outputs (§7.1) -----------------------------------------------------------------


def test_case1_twelve_rows_exact_and_idempotent():
    doc = {"results": [{"id": i, "state": "ok"} for i in range(12)], "meta": {"page": 1}}
    out = C.compress(dumps(doc))
    assert out == (
        b'{"meta":{"page":1},"results":[{"id":0,"state":"ok"},{"id":1,"state":"ok"},{"id":2,"state":"ok"},'
        b'{"__caveman_elided__":7,"__caveman_invariants__":"all state=ok; range id=3..9"},'
        b'{"id":10,"state":"ok"},{"id":11,"state":"ok"}]}'
    )
    assert len(out) < len(dumps(doc))
    assert C.compress(out) is None  # a second pass claims nothing


def test_case2_error_subtree_kept_whole():
    doc = {"data": [{"tick": i, "ok": True} for i in range(12)], "error": {"items": list(range(101, 113))}}
    out = json.loads(C.compress(dumps(doc)))
    assert out["error"] == {"items": list(range(101, 113))}
    assert any(ELIDED_KEY in e for e in out["data"])


def test_case3_smartcrusher_fixture_exact_markers():
    data = eval_fixture("json_smartcrusher.json")
    for out in (C.compress(data), C.compress_query(data, "What error code appears in the results")):
        results = json.loads(out)["results"]
        kept = [e["id"] for e in results if "id" in e]
        assert kept == [0, 1, 2, 19, 20, 21, 40, 58, 59]
        assert [m for m in results if ELIDED_KEY in m] == [
            {ELIDED_KEY: 16, INVARIANTS_KEY: "all status=ok; range id=3..18 latency_ms=28..34"},
            {ELIDED_KEY: 18, INVARIANTS_KEY: "all status=ok; range id=22..39 latency_ms=28..34"},
            {ELIDED_KEY: 17, INVARIANTS_KEY: "all status=ok; range id=41..57 latency_ms=28..34"},
        ]
        for needle in (b"ERROR-503", b"timeout", b"9999"):
            assert needle in out
    assert C.compress(data) == C.compress(data)  # byte-deterministic


def test_case3_spec_shape_error_row_without_numbers():
    rows = [{"id": i, "status": "ok", "latency_ms": (28, 31, 34)[i % 3]} for i in range(60)]
    rows[20]["latency_ms"] = 9999
    rows[40] = {"status": "error", "code": "ERROR-503", "msg": "connection timeout"}
    out = C.compress(dumps({"results": rows}))
    for needle in (b"ERROR-503", b"timeout", b"9999"):
        assert needle in out


def test_case4_query_bias_keeps_the_named_row():
    rows = [{"id": i, "status": "healthy"} for i in range(40)]
    rows[25]["status"] = "quarantined-host-omega"
    data = dumps(rows)
    assert b"quarantined-host-omega" in C.compress_query(data, "which host is quarantined-host-omega")
    assert b"quarantined-host-omega" in C.compress(data)


def test_case4_query_adds_keeps_up_to_fifty_total():
    rows = [{"id": i, "note": "alpha beta"} for i in range(120)]
    for i in range(10, 110):
        rows[i]["note"] = "alpha beta gamma"
    out = C.compress_query(dumps(rows), "gamma")
    kept = [e for e in json.loads(out) if ELIDED_KEY not in e]
    assert len(kept) == 50  # query keeps fill up to maxItems in total, never beyond
    plain = [e for e in json.loads(C.compress(dumps(rows))) if ELIDED_KEY not in e]
    assert len(plain) < 50


def test_case5_two_hundred_rows_note_once():
    rows = [{"id": i, "state": "charged", "currency": "EUR"} for i in range(200)]
    out = C.compress(dumps(rows))
    v = json.loads(out)
    kept = [e["id"] for e in v if ELIDED_KEY not in e]
    assert kept == list(range(10)) + [198, 199]
    (marker,) = markers(out)
    assert marker == {
        ELIDED_KEY: 188,
        INVARIANTS_KEY: "all currency=EUR state=charged; range id=10..197",
        NOTE_KEY: elision_note("elements"),
    }
    assert out.count(NOTE_KEY.encode()) == 1


@pytest.mark.parametrize(
    "data",
    [
        b'{"a":[1,2,3, oops',
        b'{"a":[1,2,3]}',
        dumps([{"user": u, "team": t} for u, t in zip(
            ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "niaj"],
            ["platform", "payments", "search", "infra", "mobile", "growth", "data", "security", "billing", "support", "sales", "legal"],
        )]),
        dumps(list(range(1, 21))),
    ],
    ids=["malformed", "no-collapse", "distinct-records", "numbers-are-content"],
)
def test_case6_pass_through(data):
    assert C.compress(data) is None


def test_case6_repeated_strings_exact():
    assert C.compress(dumps(["a"] * 12)) == b'["a","a","a",{"__caveman_elided__":7},"a","a"]'


def test_case7_tiny_classes_keep_every_unfulfilled_order():
    orders = []
    for i in range(40):
        o = {"order_id": f"ord-{i:03d}", "status": "fulfilled", "currency": "EUR", "amount": f"{10.5 + 7 * i:.2f}"}
        if i % 7 == 3:
            o.update(status="unfulfilled", hold_reason="payment failed")
        orders.append(o)
    out = C.compress(dumps({"orders": orders}))
    v = json.loads(out)["orders"]
    assert [e["order_id"] for e in v if e.get("status") == "unfulfilled"] == [f"ord-{i:03d}" for i in range(3, 40, 7)]
    ms = markers(out, "orders")
    assert ms[0][INVARIANTS_KEY] == "all currency=EUR status=fulfilled; order_id: ord-004..ord-009 all 6 present; range amount=38.50..73.50"
    assert all(INVARIANTS_KEY in m for m in ms if m[ELIDED_KEY] < 3)


def test_small_runs_need_invariants_to_be_elided():
    # rows 3..4 are a 2-element run between kept outliers: without a summary they stay verbatim
    rows = [{"v": "x"} for _ in range(12)]
    out = C.compress(dumps(rows))
    assert out == b'[{"v":"x"},{"v":"x"},{"v":"x"},{"__caveman_elided__":7,"__caveman_invariants__":"all v=x"},{"v":"x"},{"v":"x"}]'


# -- G19: note placement across sibling keys is deterministic (sorted key order) -------------


def test_note_goes_on_first_marker_in_sorted_key_order():
    big = [{"id": i, "state": "charged", "currency": "EUR"} for i in range(200)]
    doc = {"d": big, "c": big, "b": big, "a": big}
    out = C.compress(dumps(doc))
    v = json.loads(out)
    carriers = [k for k in "abcd" if any(NOTE_KEY in e for e in v[k] if isinstance(e, dict))]
    assert carriers == ["a"]
    assert out.count(NOTE_KEY.encode()) == 1


def test_small_first_marker_means_no_note_at_all():
    doc = {"a": [{"id": i, "s": "ok"} for i in range(12)], "b": [{"id": i, "state": "charged", "currency": "EUR"} for i in range(200)]}
    out = C.compress(dumps(doc))
    assert NOTE_KEY.encode() not in out


# -- canonical form (G13/G14) ------------------------------------------------------------------


def test_output_is_go_canonical_but_html_characters_stay_literal():
    # Deviation from G14 (noted in the module): the spec's verified form writes "<a&b>" as
    # "\u003ca\u0026b\u003e"; model-visible output keeps the characters themselves.
    rows = [{"z": "<a&b>", "n": 7.50, "big": 12345678901234567890123, "e": 1e9, "u": "\u2028", "s": "\u00e9"} for _ in range(12)]
    out = C.compress(json.dumps(rows).replace("7.5", "7.50").encode())
    first = out.split(b"},")[0] + b"}"
    assert first == '[{"big":12345678901234567890123,"e":1000000000.0,"n":7.50,"s":"\u00e9","u":"\\u2028","z":"<a&b>"}'.encode()
    assert json.loads(out)[0]["z"] == "<a&b>"


def test_selection_still_sees_the_canonical_escaped_element_docs():
    # element byte lengths feed anomaly detection (spec §9 item 8): they stay Go's exact bytes
    codec, value = decode_document(b'[{"z":"<a&b>"},"\\u003c"]')
    assert codec.element_docs(value) == ['{"z":"\\u003ca\\u0026b\\u003e"}', '"\\u003c"']
    assert codec.marshal(value) == '[{"z":"\\u003ca\\u0026b\\u003e"},"\\u003c"]'
    assert codec.marshal(value, html_escape=False) == '[{"z":"<a&b>"},"<"]'


def test_invalid_utf8_in_strings_becomes_replacement_char():
    data = b'[' + b",".join([b'{"v":"\xff"}'] * 12) + b"]"
    out = C.compress(data)
    assert out.startswith('[{"v":"\ufffd"}'.encode())


def test_trailing_close_bracket_garbage_is_tolerated_like_go_decoder():
    rows = dumps([{"v": "x"} for _ in range(12)])
    assert C.compress(rows + b" ]") == C.compress(rows)
    assert C.compress(rows + b" }") == C.compress(rows)
    assert C.compress(rows + b" x") is None
    assert C.compress(rows + b" {}") is None


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_codec_matches_reference_marshal(value):
    text = json.dumps(value)
    codec, decoded = decode_document(text.encode())
    assert codec.marshal(decoded) == marshal(loads_verbatim(text))
    if isinstance(decoded, list):
        assert codec.element_docs(decoded) == [marshal(x) for x in loads_verbatim(text)]


def test_codec_escaped_control_characters_cannot_collide_with_sentinels():
    text = '["\\u0001", "\\u0002x", "x\\\\u0002", "\\u005cu0002", 5, "\\u0003", 7.50]'
    codec, v = decode_document(text.encode())
    assert codec.marshal(v) == marshal(loads_verbatim(text))
    every_control = "[" + ",".join('"\\u%04x"' % i for i in range(32)) + "]"
    assert decode_document(every_control.encode()) is None  # no free sentinel: pass through


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="aErRoOx _-:\"{}1", max_size=20), min_size=1, max_size=8))
def test_error_state_scan_matches_regex_per_doc(docs):
    import re

    rx = re.compile(r"\b(?:error|errors|exception|failed|failure|critical|fatal|crash|panic|abort|timeout|denied|rejected)\b", re.I | re.A)
    docs = [d.replace("x", "timeout ") for d in docs]
    assert error_state_indices(docs) == {i for i, d in enumerate(docs) if rx.search(d)}


# -- properties --------------------------------------------------------------------------------

RECORDS = st.lists(
    st.fixed_dictionaries(
        {"id": st.integers(0, 10**6), "state": st.sampled_from(["ok", "ok", "ok", "failed", "stale"])},
        optional={"note": st.sampled_from(["", "retry", "x y"]), "n": st.floats(-1e3, 1e3, allow_nan=False)},
    ),
    min_size=0,
    max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(RECORDS)
def test_output_valid_idempotent_and_accounts_for_every_element(rows):
    out = C.compress(dumps(rows))
    if out is None:
        return
    v = json.loads(out)
    shown = sum(e[ELIDED_KEY] if isinstance(e, dict) and ELIDED_KEY in e else 1 for e in v)
    assert shown == len(rows)
    assert C.compress(out) is None
    assert all(isinstance(e, dict) for e in v)


# -- bad input -----------------------------------------------------------------------------------


def _timed(data: bytes, limit: float = 10.0):
    t = time.perf_counter()
    out = C.compress(data)
    assert time.perf_counter() - t < limit
    return out


def test_bad_inputs_pass_through_without_crashing():
    assert _timed(b"[" * 100_000 + b"]" * 100_000) is None
    assert _timed(b'{"a":' * 100_000 + b"1" + b"}" * 100_000) is None
    assert _timed(b"") is None
    assert _timed(b"\n") is None
    assert _timed(b"[NaN, Infinity, -Infinity]") is None
    assert _timed(b'[1,2,3,4,5,6,7,8,9,NaN]') is None
    assert _timed(b'["a\x00b"]') is None  # raw NUL inside a string is invalid JSON
    assert _timed(b"\x00\x01\x02\xff\xfe") is None
    assert _timed(b"\xef\xbb\xbf[1]") is None  # BOM: not JSON for Go either


def test_huge_number_literal_no_crash_and_verbatim_when_shown():
    huge = "9" * 1_000_000  # out of float range: the statistics skip it, output keeps the literal
    for at, shown in ((0, True), (5, False)):
        rows = ",".join(['{"v":%s,"s":"x"}' % (huge if i == at else str(i)) for i in range(12)])
        out = _timed(("[" + rows + "]").encode())
        assert out is not None
        assert (huge.encode() in out) is shown
        json.loads(out, parse_int=str)  # valid JSON (Python's own int() would refuse 10^6 digits)


def test_duplicate_keys_last_wins_like_go():
    rows = ",".join(['{"s":"a","s":"x","id":%d}' % i for i in range(12)])
    out = _timed(("[" + rows + "]").encode())
    assert b'"s":"a"' not in out and json.loads(out)[0] == {"id": 0, "s": "x"}


def test_megabyte_single_line_string():
    rows = [{"blob": "x" * 100_000, "i": i} for i in range(12)]
    out = _timed(dumps(rows))
    assert out is not None and len(out) < len(dumps(rows))


def test_scales_linearly_on_a_large_record_array():
    rows = [{"id": i, "order": f"ord-{i}", "status": "failed" if i % 97 == 0 else "ok", "amount": f"{i % 500}.25"} for i in range(60_000)]
    out = _timed(dumps(rows), limit=30.0)  # ~3.5 MB; generous bound for a loaded machine
    assert out is not None and len(out) < 200_000


# -- engine and CLI ----------------------------------------------------------------------------


def test_engine_reports_elision_metadata_and_recovers_original():
    eng = Engine()
    data = eval_fixture("tool_output.json")
    res = eng.compress(data)
    assert res.content_type == "json" and res.method == "elision" and res.lossless_to_model is False
    assert eng.retrieve(res.recovery_handle) == data


EVAL_BANDS = [("tool_output.json", "", 0.70, 0.90, [b"warnings"]), ("json_smartcrusher.json", "What error code appears in the results", 0.60, 0.95, [b"ERROR-503", b"__caveman_elided__", b"timeout", b"9999"])]


@pytest.mark.parametrize("name,query,lo,hi,needles", EVAL_BANDS, ids=[b[0] for b in EVAL_BANDS])
def test_eval_fixture_bands_in_process(name, query, lo, hi, needles):
    data = eval_fixture(name)
    res = Engine().compress(data, query=query)
    assert lo <= res.ratio <= hi
    json.loads(res.output)
    for n in needles:
        assert n in res.output


def test_tool_output_fixture_exact_marker():
    # the reference's marker (878 bytes of output) says "name: 13 distinct, item-10..item-9";
    # cavemem names each hidden record instead, so every name stays findable
    out = C.compress(eval_fixture("tool_output.json"))
    assert len(out) == 971
    (m,) = markers(out, "results")
    assert m["__caveman_ids__"] == ", ".join(f"item-{i}" for i in range(3, 16))
    assert m[INVARIANTS_KEY] == "status: ok\u00d711 stale\u00d72; range id=3..15 score=0.53..0.65"


def test_elided_records_are_named_unless_the_summary_already_enumerates_them():
    pkgs = [{"name": f"pkg-{chr(97 + i)}{i * 7 % 5}", "version": f"{i}.{i * 3 % 7}.0", "location": "/usr/lib/python3/site-packages",
             "installer": "pip"} for i in range(20)]
    out = json.loads(C.compress(dumps(pkgs)))
    shown = [e["name"] for e in out if ELIDED_KEY not in e]
    ms = [e for e in out if ELIDED_KEY in e]
    hidden = [p for p in pkgs if p["name"] not in shown]
    assert ms and sum(m[ELIDED_KEY] for m in ms) == len(hidden)
    assert ", ".join(m["__caveman_ids__"] for m in ms) == ", ".join(f"{p['name']} {p['version']}" for p in hidden)
    assert all(m[INVARIANTS_KEY] == "all installer=pip location=/usr/lib/python3/site-packages" for m in ms if m[ELIDED_KEY] > 2)


@pytest.mark.parametrize("name,query,lo,hi,needles", EVAL_BANDS, ids=[b[0] for b in EVAL_BANDS])
def test_eval_fixture_bands_through_cli(run_cli, name, query, lo, hi, needles):
    args = ["compress"] + (["--query", query] if query else [])
    r = run_cli("cavemem", *args, input=eval_fixture(name))
    assert r.rc == 0
    assert lo <= r.report["ratio"] <= hi
    assert r.report["content_type"] == "json" and r.report["method"] == "elision"
    json.loads(r.stdout)
    for n in needles:
        assert n in r.stdout


def test_nesting_allowed_does_not_depend_on_the_callers_stack_depth():
    """950 levels parse from a call 300 frames deep (a test runner's worker, a web handler), as they
    do from the top; the recursion limit is the same afterwards; a document too deep is still a
    clear ValueError."""
    import sys

    from cavemem.gocompat import loads_verbatim

    limit = sys.getrecursionlimit()

    def from_depth(n, text):
        return from_depth(n - 1, text) if n else loads_verbatim(text)

    value, depth = from_depth(300, "[" * 950 + "]" * 950), 1
    while value:
        value, depth = value[0], depth + 1
    assert depth == 950
    assert sys.getrecursionlimit() == limit
    with pytest.raises(ValueError, match="nested too deeply"):
        loads_verbatim("[" * 200_000 + "]" * 200_000)
    assert sys.getrecursionlimit() == limit


def test_version_lists_are_elided_prereleases_and_names_stay():
    """``npm view --json``: a list of 200 versions was kept whole (every dotted number counted as
    a new word); now runs of plain versions become markers, pre-releases (a letter) stay, and a
    list of distinct package names is still kept whole."""
    versions = [f"{a}.{b}.{c}" for a in range(1, 5) for b in range(10) for c in range(5)]
    versions[100:100] = ["3.0.0-rc1", "3.0.0-beta.2"]
    doc = {"name": "express", "versions": versions, "keywords": [f"word{chr(97 + i)}x" for i in range(12)]}
    out = C.compress(dumps(doc))
    assert out is not None
    v = json.loads(out)
    shown = [e for e in v["versions"] if isinstance(e, str)]
    assert "3.0.0-rc1" in shown and "3.0.0-beta.2" in shown
    assert shown[:3] == versions[:3] and shown[-2:] == versions[-2:]
    assert len(shown) < 20 and sum(m[ELIDED_KEY] for m in markers(out, "versions")) == len(versions) - len(shown)
    assert v["keywords"] == doc["keywords"]


def _model_map(n: int) -> dict:
    """The shape of litellm's model table: records keyed by model name."""
    return {
        f"provider-{i % 3}/model-{chr(97 + i % 26)}{i}": {
            "litellm_provider": f"provider-{i % 3}", "mode": "chat", "input_cost_per_token": 1e-06,
            "max_input_tokens": 128000, "supports_function_calling": True,
        }
        for i in range(n)
    }


def test_record_map_members_are_elided_and_named():
    """An object of records (litellm's model table, package-lock ``packages``) is elided like an
    array: look-alike records go, each dropped key is listed in the marker, a record with a key
    no kept record has stays."""
    doc = {"models": _model_map(60)}
    odd = "provider-1/model-z30"
    doc["models"][odd] = dict(doc["models"].pop("provider-0/model-e30"), supports_vision=True)
    out = C.compress(dumps(doc))
    assert out is not None
    models = json.loads(out)["models"]
    listed = models[INVARIANTS_KEY] if INVARIANTS_KEY in models else ""
    ids = models["__caveman_ids__"]
    shown = [k for k in models if not k.startswith("__caveman_")]
    assert odd in shown and models[odd]["supports_vision"] is True
    assert models[ELIDED_KEY] == 60 - len(shown) and len(shown) < 20 and not listed
    assert all(k in ids for k in doc["models"] if k not in shown)
    assert C.compress(out) is None  # a second pass changes nothing


def test_record_map_listing_survives_string_shortening():
    """The json route cuts long string values to an excerpt, never a marker's listing."""
    from cavemem.compressors.json_strategy import JSONStrategy

    doc = {"models": _model_map(300)}
    out = JSONStrategy().compress(dumps(doc))
    ids = json.loads(out)["models"]["__caveman_ids__"]
    assert len(ids) > 256 and "chars elided (caveman)" not in ids


def test_record_maps_under_error_keys_and_maps_of_scalars_stay():
    doc = {"error": {"details": _model_map(20)}, "time": {f"1.{i}.0": f"2024-01-{i + 1:02d}" for i in range(20)}}
    out = C.compress(dumps(doc))
    assert out is None or (json.loads(out)["error"] == doc["error"] and json.loads(out)["time"] == doc["time"])
