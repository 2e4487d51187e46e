"""Shared compressor helpers: line endings, BM25 relevance, redundancy gate, invariant summaries
(spec engine-compressors §2, exact cases from §7.17)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem import bm25
from cavemem.compressors.invariants import (
    ELISION_NOTE_PREFIX,
    elision_note,
    line_fields,
    logfmt_fields,
    object_fields,
    row_fields,
    summarize_elided,
    summary_budget,
    value_usable,
    worth_eliding,
)
from cavemem.compressors.lineends import (
    cr_suffix,
    emit_with_markers,
    join_lines,
    majority_crlf,
    runs,
    splice_dropped,
    split_lines,
    utf8_lines,
)
from cavemem.compressors.redundancy import (
    Vocabulary,
    keep_non_redundant,
    represented_by,
    tokenize,
    tokenize_reference,
    unit_vocabulary,
)
from cavemem.compressors.relevance import keep_query_relevant, ranked_candidates
from cavemem.gocompat import Number, char_runs, go_lower, is_utf8, utf8_text

BIG = 1 << 20


# -- line endings ----------------------------------------------------------------------------


def test_split_lines_edge_cases():
    assert split_lines(b"") == ([b""], False)
    assert split_lines(b"\n") == ([b""], True)
    assert split_lines("a\r\nb") == (["a\r", "b"], False)
    assert split_lines(b"a\n\nb\n") == ([b"a", b"", b"b"], True)


@given(st.binary(max_size=200).map(lambda b: b.replace(b"x", b"\n").replace(b"y", b"\r")))
def test_split_join_round_trip_bytes(data):
    assert join_lines(*split_lines(data)) == data


@given(st.text(alphabet="ab\r\n\u00e9", max_size=80))
def test_split_join_round_trip_text(data):
    assert join_lines(*split_lines(data)) == data


def test_majority_crlf_and_suffix():
    assert not majority_crlf(b"no newline")
    assert majority_crlf(b"a\r\nb\r\nc\n")
    assert not majority_crlf(b"a\r\nb\nc\n")  # exactly half is not a majority
    assert cr_suffix(b"a\r\nb\r\n") == b"\r"
    assert cr_suffix("a\nb\n") == ""
    assert cr_suffix("a\r\n") == "\r"


# -- Go lowercasing and BM25 -------------------------------------------------------------------


def test_utf8_lines_is_the_line_compressors_pass_through_gate():
    assert utf8_lines(b"a\r\nb\nc\n", 3) == ("a\r\nb\nc\n", ["a\r", "b", "c"], True)
    assert utf8_lines(b"a\nb", 2) == ("a\nb", ["a", "b"], False)
    assert utf8_lines(b"a\nb", 3) is None  # too few lines
    assert utf8_lines(b"a\n\xff\nc\nd", 1) is None  # not UTF-8


def test_runs_are_maximal_and_cover_the_mask():
    assert list(runs([])) == []
    assert list(runs([True, True, False, True, False, False])) == [(0, 2, True), (2, 3, False), (3, 4, True), (4, 6, False)]
    assert list(runs([0, None, "", 1, "x"])) == [(0, 3, False), (3, 5, True)]  # truthiness, like ``if keep[i]``


@settings(max_examples=200, deadline=None)
@given(st.lists(st.booleans(), max_size=60))
def test_runs_partition_property(keep):
    got = list(runs(keep))
    assert [i for a, b, _ in got for i in range(a, b)] == list(range(len(keep)))
    assert all(all(keep[i] == kept for i in range(a, b)) for a, b, kept in got)
    assert all(x[2] != y[2] for x, y in zip(got, got[1:]))  # maximal: neighbours alternate


def test_splice_dropped_and_markers():
    items = ["a", "b", "c", "d", "e"]
    keep = [True, False, False, True, False]
    assert splice_dropped(items, keep, lambda i, j: [f"<{i}:{j}>"]) == ["a", "<1:3>", "d", "<4:5>"]
    assert splice_dropped(items, keep, lambda i, j: items[i:j]) == items
    lines = ["keep", "a long dropped line", "x", "keep", "tiny"]
    got = emit_with_markers(lines, [True, False, False, True, False], lambda n: f"[{n} gone]", "\r")
    assert got == ["keep", "[2 gone]\r", "keep", "tiny"]  # a lone line no longer than its marker stays


def test_go_lower_simple_mapping():
    assert go_lower("\u0130stanbul") == "istanbul"  # Python's full mapping would add U+0307
    assert go_lower("\u039f\u0394\u039f\u03a3") == "\u03bf\u03b4\u03bf\u03c3"  # no final-sigma rule
    assert go_lower("ABC") == "abc"


def test_utf8_text_decodes_once_or_says_none():
    assert utf8_text("caf\u00e9\r\n".encode()) == "caf\u00e9\r\n" and utf8_text(b"") == ""
    assert utf8_text(b"ok \xff") is None and utf8_text(b"\xed\xa0\x80") is None  # a lone surrogate is not UTF-8
    assert is_utf8(b"") and not is_utf8(b"\xc3")


def test_char_runs_are_maximal_runs_of_kept_characters():
    assert char_runs("", str.isalpha) == []
    assert char_runs("--ab1cd--e", str.isalpha) == ["ab", "cd", "e"]
    assert char_runs("caf\u00e9 \u6570\u5b57", lambda c: c != " ") == ["caf\u00e9", "\u6570\u5b57"]


def test_bm25_tokenizer_rules():
    # ≥ 2 bytes (a single é counts, a single ASCII letter does not), stopwords dropped,
    # No/Nl characters split tokens, İ lowercases to i.
    assert bm25.tokenize("The é a ab x\u00b2y \u0130D_1 What") == ["é", "ab", "id_1"]


def test_bm25_scores_known_values():
    import math

    docs = ["alpha beta", "beta gamma gamma", "delta"]
    got = bm25.scores("gamma", docs)
    n, df = 3, 1
    idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
    avgdl = 6 / 3  # 2 + 3 + 1 kept tokens
    tf, dl = 2, 3
    want = idf * tf * 2.5 / (tf + 1.5 * (1 - 0.75 + 0.75 * dl / avgdl))
    assert got[0] == 0 and got[2] == 0
    assert got[1] == pytest.approx(want, rel=1e-12)
    assert bm25.scores("the of", docs) == [0.0, 0.0, 0.0]  # only stopwords: no terms


# -- relevance -------------------------------------------------------------------------------


def test_keep_query_relevant_adds_only():
    docs = ["noise one", "websocket reconnect backoff", "noise two", "websocket idle", "noise three"]
    keep = [True, False, False, False, False]
    keep_query_relevant(keep, docs, "websocket reconnect", 16)
    assert keep == [True, True, False, True, False]


def test_keep_query_relevant_limit_counts_additions_and_orders_by_score():
    docs = ["zeta"] + ["target"] * 3 + ["target target extra"]
    keep = [True, False, False, False, False]
    keep_query_relevant(keep, docs, "target", 2)
    assert keep[0] is True  # force-keep untouched
    assert sum(keep[1:]) == 2
    ranked = ranked_candidates([False] * 5, docs, "target")
    # ties broken by index; the doc with tf=2 but a longer length scores differently
    assert sorted(ranked) == [1, 2, 3, 4]
    assert ranked == sorted(ranked, key=lambda i: (-bm25.scores("target", docs)[i], i))


def test_keep_query_relevant_noops():
    docs = ["a b", "c d"]
    for query, limit in (("", 5), ("zzz", 5), ("a", 0)):
        keep = [False, False]
        keep_query_relevant(keep, docs, query, limit)
        assert keep == [False, False]


# -- redundancy gate -------------------------------------------------------------------------


def test_tokenize_examples():
    assert tokenize("abc123", True) == ["abc#"]
    assert tokenize("1a2", True) == ["#a#"]
    assert set(tokenize("replicas: 2", True)) == {"replicas", "#"}
    v = unit_vocabulary("6 ['1973.', 251]")
    assert v == Vocabulary(frozenset({"6", "1973", "251"}), False)
    assert unit_vocabulary("Step 12 OK #7") == Vocabulary(frozenset({"step", "#", "ok"}), True)


def test_tokenize_caps_at_128_distinct():
    words = " ".join(f"w{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(200))
    toks = tokenize(words, True)
    assert len(toks) == 128 and toks[0] == "waa"


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from("aZ_1 9#-.\u00e9\u0130\u0663\u00b2\nxyz"), max_size=60), st.booleans())
def test_tokenize_fast_path_matches_reference(text, mask):
    assert tokenize(text, mask) == tokenize_reference(text, mask)


def test_represented_by():
    cls = [Vocabulary(frozenset("abcdefghij"), True)]
    assert represented_by(Vocabulary(frozenset("abcdefghiz"), True), cls)  # 9 of 10
    assert not represented_by(Vocabulary(frozenset("abcdefghyz"), True), cls)  # 8 of 10
    assert not represented_by(Vocabulary(frozenset("abc"), False), cls)  # other masked kind
    assert represented_by(Vocabulary(frozenset(), True), [])  # empty vocabulary


def test_keep_non_redundant_promotes_new_shapes_only():
    units = ["[INFO] step 1 ok", "[INFO] step 2 ok", "[INFO] step 3 ok", "[ERROR] disk full", "[INFO] step 4 ok", "---"]
    keep = [True, False, False, False, False, False]
    keep_non_redundant(units, keep)
    assert keep == [True, False, False, True, False, False]


def test_keep_non_redundant_numbers_are_content():
    units = ["1", "6 ['1973.', 251]", "7 ['1974.', 260.5]", "6 ['1973.', 251]"]
    keep = [True, False, False, False]
    keep_non_redundant(units, keep)
    assert keep == [True, True, True, False]


def test_keep_non_redundant_stops_eliding_after_128_promotions():
    units = ["seed"] + [f"distinct{chr(97 + i % 26)}{chr(97 + i // 26)} word" for i in range(300)]
    keep = [True] + [False] * 300
    keep_non_redundant(units, keep)
    assert all(keep)


def test_keep_non_redundant_seeds_evenly_from_many_kept():
    # 640 kept units: step 10 samples kept[0], kept[10], ...; the shape only present at an
    # unsampled kept index does not represent anything.
    units = [f"common {i}" for i in range(640)] + ["rare shape here"]
    units[5] = "rare shape here"
    keep = [True] * 640 + [False]
    keep_non_redundant(units, keep)
    assert keep[-1] is True


# -- invariant summaries: exact §7.17 cases ----------------------------------------------------


def rows(*dicts):
    return [dict(d) for d in dicts]


SUMMARY_CASES = [
    (rows(*({"id": str(i), "state": "charged"} for i in (1, 2, 3))), "all state=charged; range id=1..3"),
    (
        rows({"region": "emea", "state": "charged"}, {"region": "emea", "state": "refunded"}, {"region": "emea", "state": "charged"}),
        "all region=emea; state: charged\u00d72 refunded\u00d71",
    ),
    (
        rows({"note": "retry", "state": "charged"}, {"state": "charged"}, {"state": "charged"}),
        "all state=charged; note: retry\u00d71 absent\u00d72",
    ),
    (rows(*({"region": "emea", "state": s} for s in "abcdef")), "all region=emea; state: 6 distinct, a..f"),
    (
        rows(*({"currency": "EUR", "customer_id": f"cust-{n}"} for n in (2728, 2765, 2802, 2839))),
        "all currency=EUR; customer_id: 4 distinct, cust-2728..cust-2839",
    ),
    (rows(*({"delivery_id": f"dlv-{n}"} for n in range(2000, 2004))), "delivery_id: dlv-2000..dlv-2003 all 4 present"),
    (
        rows(*({"delivery_id": f"dlv-{2000 + i}", "status": s} for i in range(7) for s in ("attempted", "delivered"))),
        "delivery_id: dlv-2000..dlv-2006 all 7 present; status: attempted\u00d77 delivered\u00d77",
    ),
    (rows(*({"delivery_id": f"dlv-{n}"} for n in (2000, 2001, 2003, 2004))), "delivery_id: 4 distinct, dlv-2000..dlv-2004"),
    (rows({"seq": "n-8"}, {"seq": "n-9"}, {"seq": "n-10"}), "seq: 3 distinct, n-10..n-9"),
    (rows({"ref": "a-001"}, {"ref": "a-002"}, {"ref": "b-003"}), "ref: 3 distinct, a-001..b-003"),
    (rows({"node": "alpha"}, {"node": "beta"}, {"node": "gamma"}), "node: 3 distinct, alpha..gamma"),
    (
        rows(*({"delivery_id": f"dlv-{2000 + i}", "svc": "hooks"} for i in range(3)), {"svc": "hooks"}),
        "all svc=hooks; delivery_id: 3 distinct, dlv-2000..dlv-2002, absent\u00d71",
    ),
    (
        rows(*({"state": s} for s in "aabbccdd"), {"other": "x"}, {"other": "x"}),
        "state: a\u00d72 b\u00d72 c\u00d72 d\u00d72 absent\u00d72; other: x\u00d72 absent\u00d78",
    ),
    (rows({"msg": "free text one", "region": "emea"}, {"msg": "other free text", "region": "emea"}), "all region=emea"),
    (rows({"state": "absent"}, {"state": "charged"}), ""),
    (rows({"amount": "5.00"}, {"amount": "199.90"}, {"amount": "12.30"}), "range amount=5.00..199.90"),
    (rows({"delta": "-3"}, {"delta": "1e2"}, {"delta": "0"}), "range delta=-3..1e2"),
    (rows({"api_key": "k1", "state": "charged"}, {"api_key": "k1", "state": "charged"}), "all state=charged"),
    (rows({"state": "charged"}), ""),
    (rows({"state": "charged"}, {}), ""),
    (rows({"code": "200"}, {"code": "500"}, {"code": "200"}), "range code=200..500"),
]


@pytest.mark.parametrize("units,want", SUMMARY_CASES)
def test_summarize_elided_spec_cases(units, want):
    assert summarize_elided(units, BIG) == want


def test_summary_budget_verified_values():
    assert [summary_budget(e) for e in (100, 200, 400, 800, 0, -5)] == [50, 96, 100, 160, 160, 160]


def test_shedding_drops_weak_enum_first():
    units = rows(*({"batch": f"b{i // 2}", "status": "fulfilled" if i < 6 else "shipped"} for i in range(8)))
    assert summarize_elided(units, BIG) == "batch: b0\u00d72 b1\u00d72 b2\u00d72 b3\u00d72; status: fulfilled\u00d76 shipped\u00d72"
    assert summarize_elided(units, 64) == "status: fulfilled\u00d76 shipped\u00d72"


def test_shedding_priority_range_bounded_coverage_constant_dense():
    units = rows(
        *(
            {"amount": str(10 + i), "cur": "EUR", "id": f"ord-{100 + i}", "name": f"n-{i * 7}x"}
            for i in range(40)
        )
    )
    full = summarize_elided(units, BIG)
    assert full == "all cur=EUR; id: ord-100..ord-139 all 40 present; name: 40 distinct, n-0x..n-98x; range amount=10..49"
    # budget 96 (elided 384): the range goes first
    assert summarize_elided(units, 384) == "all cur=EUR; id: ord-100..ord-139 all 40 present; name: 40 distinct, n-0x..n-98x"
    # budget 60, then 40: bounded coverage is shed next, then the constants; dense coverage stays
    assert summarize_elided(units, 120) == "all cur=EUR; id: ord-100..ord-139 all 40 present"
    assert summarize_elided(units, 80) == "id: ord-100..ord-139 all 40 present"


def test_logfmt_fields_spec_example():
    got = logfmt_fields('ts=2026-08-08T09:00:00Z level=INFO msg="settled ok" empty= trailing=1')
    assert got == {"ts": "2026-08-08T09:00:00Z", "level": "INFO", "msg": "settled ok", "trailing": "1"}
    assert logfmt_fields("processing item 12 of 900") == {}
    assert logfmt_fields("[a=1,b='x y'](c=2)") == {"a": "1", "b": "x y", "c": "2"}
    assert logfmt_fields("k=1 k=2") == {"k": "1"}  # first occurrence wins


def test_line_fields_json_object_then_logfmt():
    assert line_fields('  {"b":2,"a":"x","n":null,"o":{},"e":""} ') == {"a": "x", "b": "2"}
    assert line_fields('{"a":{}} x=1') == {"x": "1"}  # not a one-value object: logfmt
    assert line_fields("{not json} y=2") == {"y": "2"}


def test_object_fields_rules():
    v = {"z": Number("7.50"), "a": True, "b": False, "c": None, "d": [1], "e": "", "f": "s"}
    assert object_fields(v) == {"a": "true", "b": "false", "f": "s", "z": "7.50"}
    assert list(object_fields(v)) == ["a", "b", "f", "z"]
    assert object_fields([1, 2]) == {} and object_fields({}) == {}
    many = {f"k{i:02d}": "v" for i in range(30)}
    assert len(object_fields(many)) == 24


def test_row_fields_pairs_trimmed_cells():
    assert row_fields([" id", "name ", "", "x"], ["1 ", " a", "skip", " "]) == {"id": "1", "name": "a"}


def test_value_usable():
    assert value_usable("ok")
    for bad in ("", "x" * 41, "has caveman", "a\u2026", "tab\x01", "\ud800"):
        assert not value_usable(bad)


def test_sensitive_and_long_names_skipped():
    units = rows(*({"Authorization": "Bearer x", "session_id": "s", "n" * 33: "v", "ok": "1"} for _ in range(3)))
    assert summarize_elided(units, BIG) == "all ok=1"


def test_worth_eliding():
    assert worth_eliding(3, 10_000, 1, "")
    assert not worth_eliding(2, 10, 100, "")
    assert worth_eliding(2, 50, 100, "all a=1")
    assert not worth_eliding(1, 51, 100, "all a=1")


def test_elision_note_text():
    assert elision_note("rows") == (
        "\u2026 caveman: elided rows resemble shown rows and match the stated invariants \u2014 "
        "answer from this view; if you truly cannot, one broad caveman_retrieve \u2026"
    )
    assert elision_note("lines").startswith(ELISION_NOTE_PREFIX)


def test_numeric_rules_follow_go_parsefloat():
    # 1e400 is out of range for Go: not numeric -> enum instead of a range
    assert summarize_elided(rows({"v": "1e400"}, {"v": "1"}, {"v": "1"}), BIG) == "v: 1\u00d72 1e400\u00d71"
    # hex float with p exponent is numeric; plain hex is not
    assert summarize_elided(rows({"v": "0x1p4"}, {"v": "3"}), BIG) == "range v=3..0x1p4"
    assert summarize_elided(rows({"v": "1"}, {"v": "1.0"}, {"v": "1"}), BIG) == "v: 1\u00d72 1.0\u00d71"


def test_summary_over_a_large_run_is_fast():
    import time

    units = [{"id": str(i), "level": "INFO", "status": "200" if i % 3 else "500", "svc": f"s-{i % 4}"} for i in range(200_000)]
    t = time.perf_counter()
    got = summarize_elided(units, BIG)
    assert time.perf_counter() - t < 5.0  # linear; a quadratic slip would take minutes
    assert got == "all level=INFO; svc: s-0\u00d750000 s-1\u00d750000 s-2\u00d750000 s-3\u00d750000; range id=0..199999 status=200..500"


def test_bulk_shape_cache_gives_same_verdicts(monkeypatch):
    import random

    from cavemem.compressors import redundancy

    rnd = random.Random(7)
    words = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"]
    units = []
    for _ in range(900):
        kind = rnd.random()
        if kind < 0.1:
            units.append(" ".join(str(rnd.randint(0, 3000)) for _ in range(3)))  # numbers only
        else:
            units.append(f"{rnd.choice(words)} {rnd.randint(0, 99)} " + " ".join(rnd.sample(words, rnd.randint(1, 6))))
    keep = [i % 97 == 0 for i in range(len(units))]
    bulk = keep_non_redundant(units, list(keep))
    monkeypatch.setattr(redundancy, "BULK_SHAPES_MIN_UNITS", 10**9)
    plain = keep_non_redundant(units, list(keep))
    assert bulk == plain
    assert 0 < sum(bulk) < len(units)


# -- fast paths agree with their definitions -----------------------------------------------------

_VALUES = st.sampled_from(["ok", "fail", "a b", "", "1", "2.50", "-3", "1e2", "absent", "x" * 30, "ord-001", "ord-002", "é", "caveman"])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(["id", "state", "n.m", "token", "zz", "a"]),
            st.one_of(_VALUES, st.booleans(), st.none(), st.just({}), _VALUES.map(Number)),
            max_size=5,
        ),
        max_size=12,
    ),
    st.sampled_from([BIG, 300, 150]),
)
def test_summarize_objects_matches_per_unit_definition(run, elided):
    from cavemem.compressors.invariant_columns import summarize_objects

    assert summarize_objects(run, elided) == summarize_elided(map(object_fields, run), elided)


_LOG_PIECES = st.sampled_from(
    ["k=v", "k=v2", "x=1", "x=22", 'msg="a b"', "msg=''", "y='q'", "[a=1,b=2]", "(c=3)", "=x", "plain", "k=", 'q="open', "z=1 z=2"]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_LOG_PIECES, min_size=0, max_size=4).map(" ".join), min_size=2, max_size=10), st.sampled_from([BIG, 200]))
def test_bulk_logfmt_matches_per_line_definition(lines, elided):
    from cavemem.compressors import invariant_columns

    old = invariant_columns.BULK_LINES_MIN
    invariant_columns.BULK_LINES_MIN = 0
    try:
        fast = invariant_columns.summarize_lines(lines, elided)
    finally:
        invariant_columns.BULK_LINES_MIN = old
    assert fast == summarize_elided(map(line_fields, lines), elided)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(["the", "a", "of", "Error", "error_code", "x", "\u00e9", "websocket", "\u0130d", "id", "ID2", "x\u00b2y", "timeout", "-", "."]), max_size=8).map(" ".join), min_size=1, max_size=6),
    st.lists(st.sampled_from(["error", "websocket", "id", "the", "\u00e9", "timeout", "zzz"]), max_size=3).map(" ".join),
)
def test_bm25_fast_scores_equal_reference(docs, query):
    from collections import Counter

    ref = bm25.score_counted(bm25.query_terms(query), [Counter(bm25.tokenize(d)) for d in docs])
    assert bm25.scores(query, docs) == ref


def test_regular_logfmt_fast_path_matches_definition():
    from cavemem.compressors.invariant_columns import summarize_lines

    regular = [f'ts=t{i} level=INFO msg="req {i % 3} ok" who=\'svc\' n={i}' for i in range(100)]
    irregular = list(regular)
    irregular[50] = 'ts=t50 level=INFO msg="" who=\'svc\' n=50 msg="late"'  # empty quoted value, repeated key
    for lines in (regular, irregular):
        assert summarize_lines(lines, BIG) == summarize_elided(map(line_fields, lines), BIG)
    assert summarize_lines(regular, BIG) == "all level=INFO who=svc; ts: 100 distinct, t0..t99; range n=0..99"


def test_bounded_verdict_caches_give_the_same_keeps(monkeypatch):
    """The gate's caches are emptied at CACHE_MAX_ENTRIES (a log of fresh ids filled them with one
    frozenset per line); emptying them often must not change a single verdict."""
    import random

    from cavemem.compressors import redundancy

    rnd = random.Random(11)
    units = []
    for i in range(3000):
        r = rnd.random()
        if r < 0.3:
            units.append(f"DEBUG cache hit key={rnd.getrandbits(48):012x} mod{rnd.randint(0, 40)}")
        elif r < 0.4:
            units.append(" ".join(str(rnd.randint(0, 99)) for _ in range(3)))
        else:
            units.append(f"INFO compiling pkg/mod{rnd.randint(0, 400)} ok ({rnd.randint(1, 999)} ms) {rnd.choice(['a', 'b', 'c d'])}")
    keep = [i % 211 == 0 for i in range(len(units))]
    for similar in (False, True):
        whole = keep_non_redundant(units, list(keep), similar_size=similar, max_promotions=10**6)
        monkeypatch.setattr(redundancy, "CACHE_MAX_ENTRIES", 3)
        bounded = keep_non_redundant(units, list(keep), similar_size=similar, max_promotions=10**6)
        monkeypatch.undo()
        assert bounded == whole
        assert 0 < sum(whole) < len(units)
