"""Every case of the official TOON v4.0 conformance fixtures (MIT, shipped in
tests/data/toon-spec with their LICENSE), run through cavemem's standard-TOON wrapper
(:mod:`cavemem.toon.standard`, python-toon inside a round-trip proof) and through the
``cavemem toon`` CLI entry point with its default dialect (in process, for speed).

Case semantics (fixtures.schema.json, upstream tests/README): encode = exact string match;
decode = strict equality of the JSON value (key order kept, booleans never equal numbers,
numbers compared mathematically); ``shouldError`` cases must raise; options map to
``delimiter`` / ``indent`` (encode) and ``strict`` / ``indent`` (decode).
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from cavemem.toon import codec, standard

FIXTURES = Path(__file__).parent / "data" / "toon-spec" / "fixtures"


def _cases(category: str):
    for path in sorted((FIXTURES / category).glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["category"] == category
        for case in doc["tests"]:
            yield pytest.param(case, id=f"{path.stem}: {case['name']}")


def strictly_equal(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) or isinstance(b, (int, float)):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and a == b
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(strictly_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(strictly_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def test_fixture_counts_match_the_snapshot():
    encode = sum(len(json.loads(p.read_text())["tests"]) for p in (FIXTURES / "encode").glob("*.json"))
    decode = sum(len(json.loads(p.read_text())["tests"]) for p in (FIXTURES / "decode").glob("*.json"))
    assert (encode, decode) == (173, 343)


@pytest.mark.parametrize("case", list(_cases("encode")))
def test_encode(case):
    opts = case.get("options", {})
    kwargs = {"delimiter": opts.get("delimiter", ","), "indent": opts.get("indentSize", 2)}
    if case.get("shouldError"):
        with pytest.raises(standard.StandardError):
            standard.encode(case["input"], **kwargs)
        return
    assert standard.encode(case["input"], **kwargs) == case["expected"]


@pytest.mark.parametrize("case", list(_cases("decode")))
def test_decode(case):
    opts = case.get("options", {})
    kwargs = {"strict": opts.get("strict", True), "indent": opts.get("indentSize", 2)}
    if case.get("shouldError"):
        with pytest.raises(standard.StandardError):
            standard.decode(case["input"], **kwargs)
        return
    got = standard.decode(case["input"], **kwargs)
    assert strictly_equal(got, case["expected"]), (got, case["expected"])


@pytest.mark.parametrize("case", [c for c in _cases("encode") if not c.values[0].get("shouldError")])
def test_standard_encode_through_json_bytes(case):
    """The byte-level API (what ``cavemem toon encode --standard`` runs) gives the same text,
    and decoding it back gives the same JSON."""
    opts = case.get("options", {})
    raw = json.dumps(case["input"]).encode()
    indent = opts.get("indentSize", 2)
    text = codec.encode_json_standard(raw, delimiter=opts.get("delimiter", ","), indent=indent)
    assert text == case["expected"]
    if text:  # the empty document is {} in TOON; the CLI refuses blank input on purpose
        back = codec.decode_json_standard(text, indent=indent)
        assert json.loads(back) == json.loads(raw)


# -- the same cases through ``cavemem toon`` (default dialect) ----------------------------------

_DELIMITER_FLAG = {",": "comma", "\t": "tab", "|": "pipe"}


def run_cavemem(monkeypatch, argv: list[str], stdin: bytes) -> tuple[int, bytes, str]:
    """``cavemem ARGV`` in this process: real stdin/stdout/stderr streams, the real dispatcher."""
    from cavemem.cli.main import run

    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    rc = run(argv)
    out.flush()
    return rc, out.buffer.getvalue(), err.getvalue()


@pytest.mark.parametrize("case", list(_cases("encode")))
def test_cli_encode(case, monkeypatch):
    opts = case.get("options", {})
    argv = ["toon", "encode"]
    if "delimiter" in opts:
        argv += ["--delimiter", _DELIMITER_FLAG[opts["delimiter"]]]
    if "indentSize" in opts:
        argv += ["--indent", str(opts["indentSize"])]
    rc, out, err = run_cavemem(monkeypatch, argv, json.dumps(case["input"]).encode())
    if case.get("shouldError"):
        assert rc == 1 and out == b"" and json.loads(err)["error"] == "cave_not_toon_encodable"
        return
    assert (rc, err) == (0, "")
    assert out.decode("utf-8") == case["expected"]


@pytest.mark.parametrize("case", list(_cases("decode")))
def test_cli_decode(case, monkeypatch):
    opts = case.get("options", {})
    argv = ["toon", "decode"]
    if opts.get("strict") is False:
        argv.append("--lenient")
    if "indentSize" in opts:
        argv += ["--indent", str(opts["indentSize"])]
    rc, out, err = run_cavemem(monkeypatch, argv, case["input"].encode("utf-8"))
    if case.get("shouldError"):
        assert rc == 1 and out == b"" and json.loads(err)["error"] == "cave_invalid_toon"
        return
    assert (rc, err) == (0, "")
    got = json.loads(out)
    assert strictly_equal(got, case["expected"]), (got, case["expected"])
