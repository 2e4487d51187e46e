"""terminal compressor: ANSI/CR cleanup and middle elision (spec engine-compressors §3.15, §7.16)."""

from __future__ import annotations

import time

import pytest

from cavemem.compressors.terminal import TerminalCompressor, clean_line
from cavemem.engine.core import Engine
from cavemem.store.ccr import open_ccr
from conftest import CAVEMAN_EVALS, eval_fixture

c = TerminalCompressor()


def test_colour_stripped():
    assert c.compress(b"\x1b[32mPASS\x1b[0m build ok\n") == b"PASS build ok\n"


def test_carriage_return_progress_collapses():
    out = c.compress(b"Downloading\rDownloading 50%\rDownloading 100% done\n")
    assert out == b"Downloading 100% done\n"
    assert b"\r" not in out and b"50%" not in out


def _npm_session() -> bytes:
    lines = ["$ npm test", "> project@1.0.0 test"]
    lines += [f"\x1b[2m  ✓ passes assertion {i}\x1b[0m" for i in range(40)]
    lines += ["ERROR: assertion 'auth token expiry' failed", '  File "auth.py", line 42, in check']
    lines += [f"\x1b[2m  ✓ passes assertion {i}\x1b[0m" for i in range(40, 80)]
    lines += ["1 failed, 80 passed"]
    return ("\n".join(lines) + "\n").encode()


def test_test_run_keeps_failure_and_edges_exact():
    out = c.compress(_npm_session())
    assert out == (
        "$ npm test\n> project@1.0.0 test\n  ✓ passes assertion 0\n… 39 lines elided (caveman) …\n"
        "ERROR: assertion 'auth token expiry' failed\n  File \"auth.py\", line 42, in check\n"
        "… 38 lines elided (caveman) …\n  ✓ passes assertion 78\n  ✓ passes assertion 79\n1 failed, 80 passed\n"
    ).encode()
    assert b"\x1b" not in out


def test_nothing_to_do_fails_and_second_pass_is_noop():
    assert c.compress(b"hello\nworld\n") is None
    assert c.compress(b"") is None
    data = "".join(f"\x1b[36mINFO\x1b[0m step {i} finished in {i * 3}ms\n" for i in range(30)) + "ERROR: boom\n"
    once = c.compress(data.encode())
    assert once is not None and b"ERROR: boom" in once and b"lines elided (caveman)" in once
    assert c.compress(once) is None


def test_single_crlf_line_stays_the_only_crlf():
    data = b"HTTP/1.1 200 OK\r\n" + b"".join(b"header-%d: value %d\n" % (i, i) for i in range(40))
    out = c.compress(data + b"\x1b[0m")
    assert out is not None
    assert out.count(b"\r\n") == 1 and out.startswith(b"HTTP/1.1 200 OK\r\n")


def test_crlf_majority_markers_get_cr():
    data = "".join(f"\x1b[32mok\x1b[0m item {i}\r\n" for i in range(20)).encode()
    out = c.compress(data)
    assert b"\xe2\x80\xa6 14 lines elided (caveman) \xe2\x80\xa6\r\n" in out
    assert out.count(b"\n") == out.count(b"\r\n")


def test_clean_line_escapes():
    assert clean_line("\x1b]0;title\x07prompt$ ") == "prompt$ "
    assert clean_line("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\") == "link"
    assert clean_line("\x1bMup\x1b\\x") == "upx"  # two-byte Fe escapes (ESC M, ESC \\)
    assert clean_line("\x1b7save") == "\x1b7save"  # ESC 7 is outside the spec's Fe range
    assert clean_line("a\r\r") == "a\r"  # one trailing CR is the line ending; the rest collapse
    assert clean_line("\r\r") == "\r"
    assert clean_line("x\x1b[?25l\x1b[2K\x1b[1Gy") == "xy"


def test_caveman_eval_fixtures():
    eng = Engine(store=open_ccr(":memory:"))
    data = eval_fixture("terminal_session.txt")
    res = eng.compress(data)
    assert res.content_type == "terminal"
    assert 0.80 <= res.ratio <= 0.97
    for needle in (b"AssertionError: token expiry uses < not <=", b"tests/test_auth.py:42", b"1 failed, 70 passed in 3.14s"):
        assert needle in res.output
    assert b"[32m" not in res.output
    assert (len(data), len(res.output)) == (3862, 424)
    assert eng.retrieve(res.recovery_handle) == data

    passthrough = eval_fixture("terminal_passthrough.txt")
    res = eng.compress(passthrough, type="terminal")
    assert res.output == passthrough and not res.recovery_handle


def test_cli(run_cli):
    r = run_cli("cavemem", "compress", input=_npm_session())
    assert r.rc == 0
    assert b"\xe2\x80\xa6 39 lines elided (caveman) \xe2\x80\xa6" in r.stdout
    assert r.report["content_type"] == "terminal"


@pytest.mark.parametrize(
    "payload",
    [
        b"\x1b[" + b"1;" * 500_000,  # an unterminated CSI, 1 MB
        b"\x1b]" + b"x" * 1_000_000,  # an unterminated OSC
        b"\x1b[1" * 300_000,
        b"a" * 1_000_000 + b"\x1b[0m",  # 1 MB single line of letters (no "…Error" backtracking)
        b"\r" * 1_000_000,
        b"".join(b"\x1b[32m.\x1b[0m test %d PASSED\n" % i for i in range(100_000)),
        b"progress " * 1000 + b"\xff\x1b[0m",  # invalid UTF-8
        b"\x00\x01\x1b[31m" * 50_000,
    ],
)
def test_bad_input_never_crashes_or_hangs(payload):
    start = time.monotonic()
    out = c.compress(payload)
    assert time.monotonic() - start < 8
    assert out is None or b"\x1b[" not in out or payload.count(b"\x1b[") > out.count(b"\x1b[")


def test_lone_blank_line_is_not_replaced_by_a_marker_and_second_pass_is_noop():
    lines = ["\x1b[1m===== test session starts =====\x1b[0m", "platform linux", "rootdir: /src", "collected 40 items", ""]
    lines += [f"tests/test_mod_{i}.py \x1b[32m....\x1b[0m  [{i * 10}%]" for i in range(10)]
    lines += ["", "\x1b[32m===== 40 passed in 1.2s =====\x1b[0m"]
    data = ("\n".join(lines) + "\n").encode()
    out = c.compress(data)
    assert out is not None
    assert b"\xe2\x80\xa6 1 lines elided" not in out
    assert b"collected 40 items\n\n" in out or b"collected 40 items\n\xe2\x80\xa6" in out
    assert c.compress(out) is None


def _git_log_stat(subject: str) -> bytes:
    lines = ["\x1b[33mcommit 4bc52ae542e0f3dbc1a6f61089a7e09e950794d6\x1b[m", "Author: dev <dev@example.invalid>",
             "Date:   Fri Jan 2 10:00:00 2026 +0000", "", f"    {subject}", ""]
    lines += [f" rich/module_{i}.py | {i + 2} \x1b[32m++\x1b[m\x1b[31m-\x1b[m" for i in range(40)]
    lines += [" 40 files changed, 120 insertions(+), 40 deletions(-)"]
    return ("\n".join(lines) + "\n").encode()


def test_short_line_is_not_represented_by_longer_lines_sharing_its_words():
    # the spec's gate drops "rich 15.0.0": {rich, #} is a subset of every "rich/module_N.py | N" class
    out = c.compress(_git_log_stat("rich 15.0.0"))
    assert b"\n    rich 15.0.0\n" in out
    assert b"lines elided (caveman)" in out and b"40 files changed" in out
    assert c.compress(out) is None


def test_short_lines_still_collapse_against_their_own_size():
    lines = ["$ make", "building", "cc -c a.c"] + [f"ok {i}" for i in range(60)] + ["done", "exit 0", "$"]
    out = c.compress(("\n".join(lines) + "\n").encode())
    assert out.count(b"ok ") <= 2 and b"lines elided (caveman)" in out


def test_spec_gate_is_unchanged_for_other_compressors():
    from cavemem.compressors.redundancy import keep_non_redundant

    units = ["rich/a.py | 2 +-", "rich 15.0.0", "rich/a.py | 31 +"]
    assert keep_non_redundant(units, [True, False, False]) == [True, False, False]
    assert keep_non_redundant(units, [True, False, False], similar_size=True) == [True, True, False]
