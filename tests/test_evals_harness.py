"""The evals harness (spec engine-core §7.3, §8): manifest typing, every grader's semantics and
exact failure strings, probes, fixture confinement, report JSON and both CLI forms."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cavemem.evals.graders import Subject, extract_tool_names, grade, split_tool_names, string_list_of
from cavemem.evals.manifest import Grader, ManifestError, Probe, parse_manifest
from cavemem.evals.probes import evaluate
from cavemem.evals.report import Report, count_words, eval_ratio
from cavemem.evals.runner import EvalError, load_dir, run_dir, run_fixtures, valid_slash_path


def subj(output: bytes = b"", input: bytes = b"in", **kw) -> Subject:
    return Subject(input=input, output=output, **kw)


def g(type_: str, **kw) -> Grader:
    return Grader(type=type_, **kw)


def write_dir(root: Path, manifest: str, files: dict[str, bytes] | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "manifest.yaml").write_text(manifest)
    for name, data in (files or {}).items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return root


def two_json_objects(text: str) -> tuple[dict, dict]:
    dec = json.JSONDecoder()
    first, end = dec.raw_decode(text)
    second, _ = dec.raw_decode(text[end:].lstrip())
    return first, second


# ---------------------------------------------------------------------------------- manifest


def test_manifest_keeps_yaml_int_and_float_distinct_and_strings_as_source_text():
    m = parse_manifest(
        """
fixtures:
  - name: a
    file: a.txt
    unknown_key: ignored
    graders:
      - {type: ratio_threshold, min: 1, max: 0.5}
      - {type: contains, value: 1.50}
      - {type: exact_match, reference: 503}
      - {type: recall_keys, options: {must_contain: [9999, 1.0, true, null, [x]], min_recall: 1}}
"""
    )
    gr = m.fixtures[0].graders
    assert (gr[0].min, gr[0].max) == (1.0, 0.5)
    assert gr[1].value == "1.50"  # the scalar's source text, as yaml.v3 decodes into a string
    assert gr[2].reference == 503 and type(gr[2].reference) is int
    opts = gr[3].options
    assert type(opts["min_recall"]) is int
    assert string_list_of(opts["must_contain"]) == ["9999", "1", "true"]


def test_manifest_uses_yaml_core_schema_scalars():
    m = parse_manifest("fixtures:\n  - {name: a, file: a, graders: [{type: x, reference: [yes, 1e6, 2001-01-02, 0x1f]}]}")
    assert m.fixtures[0].graders[0].reference == ["yes", 1e6, "2001-01-02", 31]


@pytest.mark.parametrize(
    "text, message",
    [
        ("fixtures: 3", "parse manifest: yaml: unmarshal errors:\n  line 1: cannot unmarshal !!int `3` into []evals.Fixture"),
        ("fixtures:\n  - {name: [1]}", "parse manifest: yaml: unmarshal errors:\n  line 2: cannot unmarshal !!seq into string"),
        ("fixtures:\n  - {name: a, graders: [{type: r, min: abc}]}", "cannot unmarshal !!str `abc` into float64"),
        ("a: 1\na: 2\n", 'parse manifest: yaml: line 2: mapping key "a" already defined at line 1'),
        ("fixtures: [", "parse manifest: yaml: line"),
        ("fixtures:\n  - {name: a, mode: turbo}", 'parse manifest: fixture "a": unknown mode "turbo" (use compress or record)'),
    ],
)
def test_manifest_errors(text, message):
    with pytest.raises(ManifestError) as err:
        parse_manifest(text)
    assert message in str(err.value)
    assert str(err.value).startswith("parse manifest: ")


def test_manifest_empty_and_modes():
    assert parse_manifest("").fixtures == []
    assert parse_manifest("other: 1").fixtures == []
    m = parse_manifest("fixtures:\n  - {name: a, mode: record}\n  - {name: b, mode: compress}\n  - {name: c}")
    assert [f.engine_mode for f in m.fixtures] == ["record", "compress", "compress"]


# ----------------------------------------------------------------------------------- graders


def test_unknown_grader_fails_with_trimmed_type():
    assert grade(g("  totally_made_up "), subj(b"x")) == grade(g("totally_made_up"), subj(b"x"))
    r = grade(g("  totally_made_up "), subj(b"x"))
    assert not r.passed and r.reason == "unknown grader type: totally_made_up"


def test_exact_match_trims_and_is_case_sensitive():
    assert grade(g("exact_match", value="Paris"), subj(b" Paris \n")).passed
    r = grade(g("exact_match", value="Paris"), subj(b"paris"))
    assert r.reason == 'output "paris" != expected "Paris"'
    assert grade(g("exact_match", reference="Paris"), subj(b"Paris")).passed
    assert grade(g("exact_match", reference=503), subj(b"503")).passed
    assert grade(g("exact_match", reference=1.0), subj(b"1")).passed
    assert grade(g("exact_match", reference=1e6), subj(b"1e+06")).passed
    assert grade(g("exact_match", reference=None), subj(b"<nil>")).passed
    assert grade(g("exact_match", reference=["a", 1]), subj(b"[a 1]")).passed
    r = grade(g("exact_match", value="a\tb"), subj(b"x\x1b[0m\n\xff"))
    assert r.reason == 'output "x\\x1b[0m\\n\\xff" != expected "a\\tb"'


def test_ratio_threshold():
    assert grade(g("ratio_threshold", min=0.5, max=0.9), subj(ratio=0.7)).passed
    assert grade(g("ratio_threshold", min=0.5), subj(ratio=0.99)).passed  # max <= 0: no upper bound
    assert grade(g("ratio_threshold", min=0.6, max=0.9), subj(ratio=0.5)).reason == "ratio 0.5000 below min 0.6000"
    assert grade(g("ratio_threshold", min=0.1, max=0.9), subj(ratio=0.95)).reason == "ratio 0.9500 above max 0.9000"
    ok = grade(g("ratio_threshold", min=0.1, max=0.9), subj(ratio=0.5))
    assert ok.reason == "ratio 0.5000 within [0.1000,0.9000]"


def test_valid_json_and_json_or_toon():
    assert grade(g("valid_json"), subj(b' {"a": [1, 2]} ')).passed
    assert grade(g("valid_json"), subj(b"{'a': 1}")).reason == "output is not valid JSON"
    assert grade(g("valid_json"), subj(b"[NaN]")).reason == "output is not valid JSON"
    assert grade(g("json_or_toon_round_trip"), subj(b"[1]")).passed
    r = grade(g("json_or_toon_round_trip"), subj(b"a: 1", method="elision", passed_through=False))
    assert r.reason == "output is not valid JSON and method is not TOON"


def test_toon_round_trip_with_cavemem_codec():
    from cavemem.toon.codec import encode_json

    src = b'{"hikes":[{"id":1,"name":"Blue Lake","km":7.50},{"id":2,"name":"Ridge","km":9}],"team":"a,b"}'
    out = encode_json(src).encode()
    ok = subj(out, input=src, method="toon", passed_through=False)
    assert grade(g("toon_round_trip"), ok).passed
    assert grade(g("json_or_toon_round_trip"), ok).passed
    assert grade(g("toon_round_trip"), subj(src, input=src)).reason == "TOON round-trip requires a compressed TOON output"
    bad_in = subj(out, input=b"{not json", passed_through=False)
    assert grade(g("toon_round_trip"), bad_in).reason == "input is not valid JSON for TOON round-trip"
    bad_out = subj(b"x[2]: a", input=src, passed_through=False)
    assert grade(g("toon_round_trip"), bad_out).reason == "output is not decodable TOON"
    changed = subj(out.replace(b"7.50", b"7.5"), input=src, passed_through=False)
    assert grade(g("toon_round_trip"), changed).reason == "TOON output does not round-trip to the original JSON value"


def test_contains_and_not_contains_edge_cases():
    assert grade(g("contains", value=""), subj(b"")).passed  # empty always passes
    assert grade(g("contains", value="é"), subj("café".encode())).passed
    assert grade(g("contains", value="a\nb"), subj(b"ab")).reason == 'output missing "a\\nb"'
    assert grade(g("not_contains", value="x"), subj(b"abc")).passed
    assert grade(g("not_contains", value="b"), subj(b"abc")).reason == 'output still contains "b"'
    assert not grade(g("not_contains", value=""), subj(b"abc")).passed  # empty always fails


def test_byte_identical_and_compressed():
    assert grade(g("byte_identical"), subj(b"same", input=b"same")).passed
    assert grade(g("byte_identical"), subj(b"a", input=b"b")).reason == "output differs from input"
    assert grade(g("compressed"), subj(passed_through=False)).passed
    assert grade(g("compressed"), subj(passed_through=True)).reason == "payload passed through unchanged"


def test_recall_keys():
    opts = {"must_contain": ["a", "b", 9999]}
    assert grade(g("recall_keys", options=opts), subj(b"a b 9999")).reason == "recall 1.00 ≥ 1.00 (3/3 kept)"
    r = grade(g("recall_keys", options=opts), subj(b"a"))
    assert r.reason == "recall 0.33 < 1.00, missing [b 9999]"
    assert grade(g("recall_keys", options={**opts, "min_recall": 0.3}), subj(b"a")).passed
    assert not grade(g("recall_keys", options={**opts, "min_recall": 1}), subj(b"a b")).passed  # YAML int
    empty = grade(g("recall_keys", options={"must_contain": [None, {"x": 1}]}), subj(b"a"))
    assert empty.reason == "recall_keys requires a non-empty options.must_contain list"
    assert grade(g("recall_keys"), subj(b"a")).reason == "recall_keys requires a non-empty options.must_contain list"


TOOL_SCHEMA = {
    "type": "object",
    "required": ["tool_calls"],
    "properties": {
        "tool_calls": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["name"],
                "properties": {"name": {"type": "string", "enum": ["search_files"]}},
                "additionalProperties": False,
            },
        }
    },
}


def test_json_schema_subset():
    schema = g("json_schema", options={"schema": TOOL_SCHEMA})
    assert grade(schema, subj(b'{"tool_calls":[{"name":"search_files"}]}')).passed
    required_only = g("json_schema", options={"schema": {"type": "object", "required": ["tool_calls"]}})
    assert grade(required_only, subj(b'{"other":[]}')).reason == '$ missing required property "tool_calls"'
    assert grade(schema, subj(b'{"tool_calls":[]}')).reason == "$.tool_calls has 0 items, want at least 1"
    extra = grade(schema, subj(b'{"tool_calls":[{"name":"search_files","x":1}]}'))
    assert extra.reason == '$.tool_calls[0] has unexpected property "x"'
    wrong = grade(schema, subj(b'{"tool_calls":[{"name":"run_command"}]}'))
    assert wrong.reason == "$.tool_calls[0].name is not one of the enum values"
    assert grade(schema, subj(b"not json")).reason.startswith("output is not JSON: ")
    assert grade(g("json_schema"), subj(b"{}")).reason == "json_schema requires options.schema or reference schema"
    as_string = g("json_schema", reference=json.dumps({"type": "array", "maxItems": 1}))
    assert grade(as_string, subj(b"[1]")).passed
    assert grade(as_string, subj(b"[1,2]")).reason == "$ has 2 items, want at most 1"
    assert grade(g("json_schema", reference={"type": ["integer", "null"]}), subj(b"3.0")).passed
    assert grade(g("json_schema", reference={"type": "integer"}), subj(b"3.5")).reason == "$ has type number, want integer"
    not_schema = g("json_schema", reference={"properties": {"a": 1}})
    assert grade(not_schema, subj(b'{"a":1}')).reason == "$.properties.a is not a schema"
    strings = g("json_schema", reference={"type": "string", "minLength": 3, "pattern": "^é"})
    assert grade(strings, subj('"éa"'.encode())).passed  # 3 bytes
    assert grade(strings, subj(b'"abc"')).reason == '$ does not match pattern "^\u00e9"'
    assert "invalid pattern" in grade(g("json_schema", reference={"pattern": "("}), subj(b'"a"')).reason
    nums = g("json_schema", reference={"minimum": 2, "maximum": 4.5})
    assert grade(nums, subj(b"1")).reason == "$ 1 below minimum 2"
    assert grade(nums, subj(b"5")).reason == "$ 5 above maximum 4.5"


def test_json_schema_quirk_decision_numbers_compare_by_value_and_enum_does_not_skip():
    # reference quirk: a YAML int enum never equals a JSON number; here 1 == 1.0
    assert grade(g("json_schema", reference={"enum": [1]}), subj(b"1.0")).passed
    assert not grade(g("json_schema", reference={"enum": [True]}), subj(b"1")).passed
    # reference quirk: an enum match skipped the node's other checks; here they still apply
    r = grade(g("json_schema", reference={"enum": ["a"], "type": "string", "minLength": 2}), subj(b'"a"'))
    assert r.reason == "$ length 1 below minLength 2"


def test_tool_sequence_and_extraction():
    want = g("tool_sequence", options={"tools": ["search_files", "run_command"]})
    out = b'{"tool_calls":[{"name":"search_files"},{"function":{"name":"run_command"}}]}'
    assert grade(want, subj(out)).passed
    rev = g("tool_sequence", options={"sequence": ["run_command", "search_files"]})
    assert grade(rev, subj(out)).reason == "tool sequence [search_files run_command] != expected [run_command search_files]"
    assert grade(g("tool_sequence", reference="search_files -> run_command"), subj(out)).passed
    assert grade(g("tool_sequence"), subj(out)).reason == "tool_sequence requires a non-empty tools sequence"
    assert split_tool_names("search_files -> run_command") == ["search_files", "run_command"]
    # '-' is trimmed before white space, so a dash behind a space survives
    assert split_tool_names("-a | b\t c,,\n -d- ") == ["a", "b", "c", "-d-"]
    assert extract_tool_names(b'{"steps":[{"tool":" x "}],"tool_calls":[{"name":"y"}]}') == ["y"]
    assert extract_tool_names(b'{"tools":[]}') == ["{\"tools\":[]}"]  # JSON gave nothing: split raw text
    assert extract_tool_names(b'[{"tool_name":"a"},"b > c"]') == ["a", "b", "c"]
    assert extract_tool_names(b"grep | sed") == ["grep", "sed"]


# ------------------------------------------------------------------------------------ probes


def test_probes_states_tally_and_hash():
    probes = [Probe("error", "ERR_VISIBLE"), Probe("identifier", "customer-37")]
    results, summary, failures = evaluate(probes, b"... ERR_VISIBLE ...", byte_recoverable=True)
    assert failures == []
    assert [r.state for r in results] == ["retained", "recoverable"]
    assert results[0].value_sha256.startswith("sha256:") and len(results[0].value_sha256) == 71
    assert (summary.total, summary.retained, summary.recoverable, summary.lost) == (2, 1, 1, 0)
    _, lost_summary, lost_failures = evaluate(probes, b"ERR_VISIBLE", byte_recoverable=False)
    assert lost_summary.lost == 1 and lost_failures == ["retention probe identifier was lost"]


def test_probe_with_empty_value_or_dimension():
    results, summary, failures = evaluate([Probe("x", ""), Probe("  ", "v")], b"v", True)
    assert failures == ["retention probe 0 has empty value"]
    assert results[0].dimension == "unspecified" and summary.total == 1


# ---------------------------------------------------------------------- runner + confinement


MANIFEST_ONE = """
fixtures:
  - name: named-failure
    file: {file}
    mode: record
    graders:
      - {{type: contains, value: absent-marker}}
"""


def test_run_dir_reports_a_failing_fixture(tmp_path):
    root = write_dir(tmp_path / "fx", MANIFEST_ONE.format(file="a.txt"), {"a.txt": b"one two three"})
    report = run_dir(root)
    assert not report.passed
    assert [f.name for f in report.fixtures] == ["named-failure"]
    assert report.fixtures[0].failures == ['output missing "absent-marker"']


@pytest.mark.parametrize("name", ["../outside.txt", "/etc/passwd", "a/", "a//b", "./a.txt", "a/../a.txt", ".", ""])
def test_invalid_fixture_paths_fail_closed(tmp_path, name):
    root = write_dir(tmp_path / "fx", MANIFEST_ONE.format(file=json.dumps(name)), {"a.txt": b"x"})
    with pytest.raises(EvalError) as err:
        run_dir(root)
    assert str(err.value) == f"invalid fixture path {json.dumps(name)}"


def test_symlink_escaping_the_root_fails_closed(tmp_path):
    (tmp_path / "outside.txt").write_bytes(b"secret")
    root = write_dir(tmp_path / "fx", MANIFEST_ONE.format(file="link.txt"))
    os.symlink(tmp_path / "outside.txt", root / "link.txt")
    with pytest.raises(EvalError) as err:
        run_dir(root)
    assert str(err.value) == 'fixture path escapes root: "link.txt"'
    # a symlinked directory inside the root that leads out is caught the same way
    os.symlink(tmp_path, root / "up")
    (root / "manifest.yaml").write_text(MANIFEST_ONE.format(file="up/outside.txt"))
    with pytest.raises(EvalError, match="escapes root"):
        run_dir(root)


def test_symlinks_inside_the_root_and_a_symlinked_root_are_fine(tmp_path):
    root = write_dir(tmp_path / "fx", MANIFEST_ONE.format(file="link.txt"), {"real/a.txt": b"absent-marker"})
    os.symlink("real/a.txt", root / "link.txt")
    os.symlink(root, tmp_path / "alias")
    assert run_dir(tmp_path / "alias").passed
    # the manifest may be a symlink inside the root, never out of it (issue 15 item 7,
    # tests/test_hardening.py::test_07_*)
    (root / "real" / "m.yaml").write_text(MANIFEST_ONE.format(file="link.txt"))
    (root / "manifest.yaml").unlink()
    os.symlink("real/m.yaml", root / "manifest.yaml")
    assert run_dir(root).passed


def test_harness_errors(tmp_path):
    with pytest.raises(EvalError, match=r"^resolve fixture directory: lstat .*: no such file or directory$"):
        run_dir(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(EvalError, match=r"^read manifest: open .*manifest.yaml: no such file or directory$"):
        run_dir(tmp_path / "empty")
    root = write_dir(tmp_path / "none", "fixtures: []\n")
    with pytest.raises(EvalError, match="^manifest has no fixtures$"):
        run_dir(root)
    assert load_dir(root, allow_empty=True) == []
    root = write_dir(tmp_path / "gone", MANIFEST_ONE.format(file="nope.txt"))
    with pytest.raises(EvalError, match=r'^read fixture "nope.txt": '):
        run_dir(root)
    root = write_dir(tmp_path / "dir", MANIFEST_ONE.format(file="sub"), {"sub/x": b""})
    with pytest.raises(EvalError, match=r'^read fixture "sub": read .*: is a directory$'):
        run_dir(root)
    root = write_dir(tmp_path / "bad", "fixtures: {}\n")
    with pytest.raises(EvalError, match="^parse manifest: "):
        run_dir(root)


def test_valid_slash_path():
    assert valid_slash_path("a/b.txt") and valid_slash_path("a\\..\\b")  # backslash is ordinary
    assert not valid_slash_path("a/./b")


def test_no_graders_fails_and_record_mode_counts_words(tmp_path):
    root = write_dir(
        tmp_path / "fx",
        "fixtures:\n  - {name: none, file: a.txt, mode: record}\n"
        "  - {name: same, file: a.txt, mode: record, graders: [{type: byte_identical}]}\n",
        {"a.txt": b"one two three"},
    )
    report = run_dir(root)
    none, same = report.fixtures
    assert none.failures == ["no graders configured"]
    assert same.passed and (same.words_before, same.words_after, same.word_ratio) == (3, 3, 0.0)
    assert same.byte_recoverable and same.basis == "inferred" and same.ratio == 0


def test_compressed_fixture_is_byte_recoverable_through_the_shared_store(tmp_path):
    rows = ",".join('{"id":%d,"status":"ok","latency_ms":%d}' % (i, 10 + i % 3) for i in range(60))
    root = write_dir(
        tmp_path / "fx",
        "fixtures:\n  - {name: j, file: a.json, graders: [{type: compressed}, {type: valid_json}]}\n",
        {"a.json": f'{{"results":[{rows}]}}'.encode()},
    )
    f = run_dir(root).fixtures[0]
    assert f.passed, f.failures
    assert f.byte_recoverable and f.ratio > 0 and f.content_type == "json"


def test_words_follow_g11():
    assert count_words(b"one two three") == 3
    assert count_words("naïve café ٣٤ x_y 12ab".encode()) == 6  # letters/Nd digits; '_' separates
    assert count_words(b"a\xffb") == 2  # an invalid byte is a separator
    assert eval_ratio(0, 0) == 0 and eval_ratio(10, 12) == 0 and eval_ratio(10, 4) == 0.6


# ------------------------------------------------------------------------------------ report


def test_report_field_order_and_go_formatting(tmp_path):
    root = write_dir(
        tmp_path / "fx",
        """
fixtures:
  - name: "<b>&"
    file: a.txt
    mode: record
    probes: [{dimension: "z", value: "one"}, {dimension: "a", value: "zzz"}]
    graders: [{type: contains, value: "<missing>"}]
""",
        {"a.txt": b"one two three"},
    )
    text = run_dir(root).to_json()
    obj = json.loads(text)
    assert list(obj) == [
        "passed", "tokens_before", "tokens_after", "token_ratio", "words_before", "words_after", "word_ratio", "probes", "fixtures",
    ]
    fx = obj["fixtures"][0]
    assert list(fx) == [
        "name", "content_type", "tokens_before", "tokens_after", "ratio", "words_before", "words_after", "word_ratio",
        "basis", "passed", "byte_recoverable", "failures", "probes", "probe_summary",
    ]
    assert list(fx["probe_summary"]) == ["total", "retained", "recoverable", "lost", "by_dimension"]
    assert list(fx["probe_summary"]["by_dimension"]) == ["a", "z"]  # a Go map: sorted keys
    assert list(fx["probes"][0]) == ["dimension", "value_sha256", "state"]
    assert '"name": "\\u003cb\\u003e\\u0026"' in text  # HTML characters escaped (G5)
    assert '"failures": [\n        "output missing \\"\\u003cmissing\\u003e\\""\n      ]' in text
    assert '"ratio": 0,' in text and '"token_ratio": 0,' in text  # Go floats: 0, not 0.0
    assert text.startswith('{\n  "passed": false,\n  "tokens_before": ')


def test_report_optional_fields_and_empty_run():
    empty = Report()
    assert json.loads(empty.to_json()) == {
        "passed": True, "tokens_before": 0, "tokens_after": 0, "token_ratio": 0, "words_before": 0,
        "words_after": 0, "word_ratio": 0, "probes": {"total": 0, "retained": 0, "recoverable": 0, "lost": 0},
        "fixtures": None,
    }
    assert run_fixtures([]).passed


# --------------------------------------------------------------------------------------- CLI


@pytest.mark.parametrize(
    "args",
    [["evals"], ["evals", "list"], ["evals", "run", "--fixtures"], ["evals", "run", "--fixtures", ""],
     ["evals", "run", "--fixtures=x"], ["evals", "run", "x"], ["evals", "run", "--fixtures", "d", "extra"]],
)
def test_engine_usage_errors(run_cli, args):
    r = run_cli("caveman-engine", *args)
    assert (r.rc, r.stdout, r.stderr) == (1, b"", b"usage: caveman-engine evals run [--fixtures DIR]\n")


def test_engine_harness_error_is_fatal(run_cli, tmp_path):
    r = run_cli("caveman-engine", "evals", "run", "--fixtures", str(tmp_path / "missing"))
    assert r.rc == 1 and r.stdout == b""
    assert r.stderr.decode().startswith("evals: resolve fixture directory: lstat ")


def test_engine_run_prints_report_then_gate_and_exit_status(run_cli, tmp_path):
    ok = write_dir(tmp_path / "ok", "fixtures:\n  - {name: t, file: a.txt, graders: [{type: byte_identical}]}\n", {"a.txt": b"hi\n"})
    r = run_cli("caveman-engine", "evals", "run", "--fixtures", str(ok))
    report, gate = two_json_objects(r.stdout.decode())
    assert r.stdout.endswith(b"}\n") and r.stderr == b""
    assert report["passed"] is True and report["fixtures"][0]["name"] == "t"
    assert list(gate) == ["passed", "pixel_density_gate"]
    for check in gate["pixel_density_gate"]:
        assert list(check) in (["detail", "name", "passed"], ["name", "passed"])
    gate_ok = all(c["passed"] for c in gate["pixel_density_gate"])
    assert gate["passed"] is gate_ok and r.rc == (0 if gate_ok else 1)
    bad = write_dir(tmp_path / "bad", MANIFEST_ONE.format(file="a.txt"), {"a.txt": b"x"})
    r = run_cli("caveman-engine", "evals", "run", "--fixtures", str(bad))
    report, gate = two_json_objects(r.stdout.decode())
    assert r.rc == 1 and report["passed"] is False and gate["passed"] is False


def test_cavemem_evals_json_and_failure_contract(run_cli, tmp_path):
    ok = write_dir(tmp_path / "ok", "fixtures:\n  - {name: t, file: a.txt, graders: [{type: byte_identical}]}\n", {"a.txt": b"hi\n"})
    r = run_cli("cavemem", "evals", "run", "--fixtures", str(ok), "--json")
    assert json.loads(r.stdout)["passed"] is True
    # stderr is not a terminal here: no progress output at all
    if r.rc == 0:
        assert r.stderr == b""
    bad = write_dir(tmp_path / "bad", MANIFEST_ONE.format(file="a.txt"), {"a.txt": b"x"})
    r = run_cli("cavemem", "evals", "run", "--fixtures", str(bad))
    assert r.rc == 1 and json.loads(r.stdout)["passed"] is False  # not a TTY: JSON by default
    assert r.report["error"] == "cave_evals_failed"
    assert r.report["message"].startswith("1 of 1 fixtures failed: named-failure")


def test_cavemem_evals_argument_and_harness_errors(run_cli, tmp_path):
    r = run_cli("cavemem", "evals", "list")
    assert r.rc == 2 and r.report["error"] == "cave_invalid_arguments"
    r = run_cli("cavemem", "evals", "run", "--fixtures", str(tmp_path / "nope"))
    assert r.rc == 65 and r.report["error"] == "cave_invalid_input"
    assert r.report["message"].startswith("evals: resolve fixture directory: ")
    r = run_cli("cavemem", "evals", "--help")
    assert r.rc == 0 and b"--fixtures" in r.stdout


def test_table_rendering(tmp_path):
    from cavemem.evals.report import render_table

    root = write_dir(tmp_path / "fx", MANIFEST_ONE.format(file="a.txt"), {"a.txt": b"x"})
    text = render_table(run_dir(root), [{"name": "capacity max", "passed": False, "detail": "too small"}])
    assert "named-failure" in text and "FAIL" in text and '- output missing "absent-marker"' in text
    assert "0/1 fixtures passed" in text and "capacity max: too small" in text
    assert "not available" in render_table(Report(), None)


@pytest.mark.skipif(__import__("shutil").which("script") is None, reason="util-linux script(1) not installed")
def test_terminal_gets_progress_bar_and_table(tmp_path):
    """Under a pseudo-terminal: a rich progress bar on stderr and the readable table on stdout."""
    import shlex
    import subprocess
    import sys

    ok = write_dir(tmp_path / "ok", "fixtures:\n  - {name: tty-fixture, file: a.txt, graders: [{type: byte_identical}]}\n", {"a.txt": b"hi\n"})
    exe = Path(sys.executable).parent / "cavemem"
    cmd = f"{shlex.quote(str(exe))} evals run --fixtures {shlex.quote(str(ok))}"
    proc = subprocess.run(["script", "-qec", cmd, "/dev/null"], capture_output=True, timeout=120)
    out = proc.stdout.decode(errors="replace")
    assert "tty-fixture" in out and "1/1 fixtures passed" in out
    assert "\x1b[?25l" in out  # rich hides the cursor while drawing its progress bar
    assert not out.lstrip().startswith("{")  # a table, not JSON


def test_bad_input_never_crashes_the_harness(tmp_path):
    deep = "fixtures:\n  - {name: a, file: a, graders: [{type: x, reference: " + "[" * 3000 + "]" * 3000 + "}]}\n"
    try:
        parse_manifest(deep)
    except ManifestError as exc:
        assert str(exc).startswith("parse manifest: ")
    for junk in (b"\xff\xfe\x00garbage: [", b"\x00" * 1000, b"- - - -\n" * 10000):
        with pytest.raises(ManifestError):
            parse_manifest(junk)
    nested = b"[" * 100000 + b"]" * 100000
    assert extract_tool_names(nested) == [nested.decode()]  # too deep for JSON: raw text split
    assert not grade(g("json_schema", reference={"type": "array"}), subj(nested)).passed
    import time

    t0 = time.perf_counter()
    r = grade(g("json_schema", reference={"pattern": "^(a+)+$"}), subj(('"' + "a" * 5000 + '!"').encode()))
    assert not r.passed and time.perf_counter() - t0 < 5
    big = b"word " * 400000  # 2 MB
    assert count_words(big) == 400000
