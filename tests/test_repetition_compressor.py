"""repetition compressor: run-length collapse (spec engine-compressors §3.14, §7.15)."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem.compressors.repetition import RepetitionCompressor
from cavemem.engine.core import Engine
from cavemem.store.ccr import open_ccr
from conftest import CAVEMAN_EVALS, eval_fixture

c = RepetitionCompressor()
M = "… caveman: {} identical lines elided …"


def test_build_log_exact():
    data = (
        "starting build\n"
        + "downloading dependency... please wait\n" * 40
        + "ERROR: undefined symbol caveman_main\nbuild failed\n"
    )
    assert c.compress(data.encode()) == (
        "starting build\ndownloading dependency... please wait\n… caveman: 39 identical lines elided …\n"
        "ERROR: undefined symbol caveman_main\nbuild failed\n"
    ).encode()


def test_nothing_to_collapse_fails():
    distinct = "\n".join(f"line number {i} with some padding text to pass the size floor" for i in range(5))
    assert len(distinct) >= 200
    assert c.compress(distinct.encode()) is None
    assert c.compress(b"x\nx\nx\n") is None  # under 200 bytes
    pairs = "".join(f"pair line {i} padded out to make it long enough\n" * 2 for i in range(6))
    assert c.compress(pairs.encode()) is None  # runs of 2 never collapse


def test_idempotent_and_marker_lines_verbatim():
    data = ("head\n" + "the same progress line again and again\n" * 30 + "tail\n").encode()
    once = c.compress(data)
    assert once is not None
    assert c.compress(once) is None
    markers = ((M.format(5) + "\n") * 10).encode()
    assert len(markers) >= 200
    assert c.compress(markers) is None  # all 10 stay


def test_crlf_marker_has_no_cr():
    data = ("retrying connection now\r\n" * 30 + "ERROR boom\r\n").encode()
    assert c.compress(data) == ("retrying connection now\r\n" + M.format(29) + "\nERROR boom\r\n").encode()


def test_blank_and_whitespace_runs_never_collapse():
    data = ("start of output with some words\n" + "   \n" * 10 + "\n" * 10 + "x" * 200 + "\n").encode()
    assert c.compress(data) is None


def test_three_runs_three_markers():
    data = ("A" * 30 + "\n") * 4 + ("B" * 30 + "\n") * 4 + ("C" * 30 + "\n") * 4 + "tail"
    out = c.compress(data.encode()).decode()
    assert out == "".join(f"{ch * 30}\n{M.format(3)}\n" for ch in "ABC") + "tail"


def test_invalid_utf8_fails():
    assert c.compress(b"\xff\xfe same\n" * 50) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["alpha line", "beta line", "", "   ", "gamma\r"]), min_size=0, max_size=200))
def test_expanding_markers_gives_the_input_back(lines):
    data = "\n".join(lines).encode()
    out = c.compress(data)
    if out is None:
        return
    assert len(out) < len(data)
    rebuilt: list[str] = []
    for line in out.decode().split("\n"):
        if line.startswith("… caveman: ") and line.endswith(" identical lines elided …"):
            n = int(line.split()[2])
            rebuilt.extend([rebuilt[-1]] * n)
        else:
            rebuilt.append(line)
    assert "\n".join(rebuilt).encode() == data


def test_caveman_eval_fixture_forced():
    data = eval_fixture("repetition_log.txt")
    eng = Engine(store=open_ccr(":memory:"))
    res = eng.compress(data, type="repetition")
    assert res.recovery_handle
    assert 0.50 <= res.ratio <= 0.95
    out = res.output
    assert b"caveman:" in out
    assert b"ERROR: undefined symbol _caveman_entry" in out and b"done with 1 error" in out
    assert M.format(59).encode() in out and M.format(19).encode() in out
    assert (len(data), len(out)) == (3422, 270)
    assert eng.retrieve(res.recovery_handle) == data


def test_cli_forced_type(run_cli):
    data = eval_fixture("repetition_log.txt")
    r = run_cli("cavemem", "compress", "--type", "repetition", input=data)
    assert r.rc == 0
    assert M.format(59).encode() in r.stdout


def test_never_auto_detected():
    data = ("plain repeated sentence without structure\n" * 60).encode()
    res = Engine(store=open_ccr(":memory:")).compress(data)
    assert res.content_type != "repetition"


@pytest.mark.parametrize(
    "payload",
    [
        b"x" * 1_000_000,
        b"same line\n" * 100_000,
        b"".join(b"line %d\n" % i for i in range(100_000)),
        b"\n" * 1_000_000,
        ("caf\u00e9 \u2603\n" * 50_000).encode() + b"\xc3",
    ],
)
def test_bad_input_never_crashes_or_hangs(payload):
    start = time.monotonic()
    out = c.compress(payload)
    assert time.monotonic() - start < 5
    assert out is None or len(out) < len(payload)
