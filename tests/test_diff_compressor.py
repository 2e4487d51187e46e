"""The ``diff`` compressor (spec engine-compressors §3.4, cases §7.5)."""

from __future__ import annotations

import os
import re
import subprocess
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from cavemem.compressors.diff import DiffCompressor, is_structural

from conftest import expands_markers, lines_doc

HEADER = [
    "diff --git a/x.txt b/x.txt",
    "index 111..222 100644",
    "--- a/x.txt",
    "+++ b/x.txt",
    "@@ -1,30 +1,30 @@",
]
MARKER = re.compile(r"^… (\d+) context lines elided \(caveman\) …\r?$")


def context(start: int, stop: int) -> list[str]:
    return [f" unchanged line {i:02d}" for i in range(start, stop)]


def compress(data: bytes) -> bytes | None:
    return DiffCompressor().compress(data)


def test_spec_case_exact_output():
    data = lines_doc(HEADER + context(0, 18) + ["-old behavior", "+new behavior"] + context(18, 36))
    out = compress(data)
    assert out.decode() == "\n".join(HEADER) + (
        "\n unchanged line 00\n unchanged line 01\n… 14 context lines elided (caveman) …\n"
        " unchanged line 16\n unchanged line 17\n-old behavior\n+new behavior\n unchanged line 18\n"
        " unchanged line 19\n… 16 context lines elided (caveman) …\n"
    )
    assert expands_markers(out, data, MARKER)


def test_blank_line_changes_are_kept():
    for change in ("-", "+"):
        data = lines_doc(HEADER + context(0, 18) + [change] + context(18, 36))
        out = compress(data)
        assert b" unchanged line 17\n" + change.encode() + b"\n unchanged line 18\n" in out
        assert b"context lines elided (caveman)" in out


def test_deleted_markdown_rule_is_a_change():
    assert is_structural("----")
    data = lines_doc(HEADER + context(0, 24) + ["----"] + context(24, 48))
    out = compress(data)
    assert b"\n----\n" in out
    assert out.count(b"context lines elided") == 2


def test_context_only_lines_are_not_structural():
    for line in ("new file mode 100644", "rename from a", "similarity index 90%", "Binary files a and b differ", "\\ No newline at end of file"):
        assert not is_structural(line)


def test_too_short_fails_closed():
    assert compress(lines_doc(HEADER + context(0, 6))) is None  # 11 lines


def test_single_line_runs_only_fail_closed():
    # changes every 6 lines leave single droppable context lines: same line count -> pass through
    lines = list(HEADER)
    for k in range(5):
        lines += [f"-old {k}", f"+new {k}"] + context(5 * k, 5 * k + 5)
    lines += ["-old end", "+new end"]
    assert compress(lines_doc(lines)) is None


def test_single_short_line_run_stays_verbatim_but_long_one_is_elided():
    lines = HEADER + ["-a", "+b"] + context(0, 5) + ["-c", "+d"] + context(5, 20)
    out = compress(lines_doc(lines))
    assert b" unchanged line 02\n" in out  # the lone middle context line is shown as is
    assert "… 13 context lines elided (caveman) …".encode() in out
    long_line = " " + "x" * 200
    lines = HEADER + ["-a", "+b"] + context(0, 2) + [long_line] + context(2, 4) + ["-c", "+d"] + context(5, 20)
    out = compress(lines_doc(lines))
    assert long_line.encode() not in out
    assert "… 1 context lines elided (caveman) …".encode() in out


def test_second_pass_fails_closed():
    data = lines_doc(HEADER + context(0, 18) + ["-old behavior", "+new behavior"] + context(18, 36))
    assert compress(compress(data)) is None


def test_crlf_markers_follow_the_majority():
    data = lines_doc(HEADER + context(0, 18) + ["-old", "+new"] + context(18, 36), "\r\n")
    out = compress(data)
    assert b"\r\n\xe2\x80\xa6 14 context lines elided (caveman) \xe2\x80\xa6\r\n" in out
    assert b"\n" not in out.replace(b"\r\n", b"")


def test_mixed_endings_preserved_per_line():
    lines = HEADER + context(0, 18) + ["-old", "+new"] + context(18, 36)
    data = ("\r\n".join(lines[:10]) + "\r\n" + "\n".join(lines[10:]) + "\n").encode()
    out = compress(data)
    assert out.startswith(lines_doc(HEADER, "\r\n"))
    assert "… 16 context lines elided (caveman) …\n".encode() in out  # LF majority: marker has no CR


def test_no_trailing_newline_preserved():
    data = lines_doc(HEADER + context(0, 18) + ["-old", "+new"] + context(18, 36)).rstrip(b"\n")
    out = compress(data)
    assert out.endswith("… 16 context lines elided (caveman) …".encode())


def test_invalid_utf8_and_binary_fail_closed():
    data = lines_doc(HEADER + context(0, 18) + ["-old", "+new"] + context(18, 36))
    assert compress(data.replace(b"line 03", b"line \xff3")) is None
    assert compress(os.urandom(1 << 16) + b"\xff") is None


def test_huge_inputs_are_fast():
    big = lines_doc(HEADER + context(0, 50000) + ["-old", "+new"] + [f" more {i}" for i in range(50000)])
    start = time.monotonic()
    out = compress(big)
    assert time.monotonic() - start < 5
    assert out.count(b"\n") == 5 + 2 + 1 + 2 + 2 + 2 + 1
    one_line = b"+" + b"x" * (1 << 20)
    assert compress(one_line) is None  # a single line is below the 12-line minimum


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["-x", "+y", "-", "+", "@@ -1 +1 @@", "----"]),
            st.text(alphabet="abc ", max_size=12).map(lambda s: " " + s),
        ),
        min_size=12,
        max_size=80,
    )
)
def test_markers_account_for_every_dropped_line(lines):
    data = lines_doc(lines)
    out = compress(data)
    if out is None:
        return
    assert expands_markers(out, data, MARKER)
    kept = out.decode().split("\n")
    assert [ln for ln in lines if is_structural(ln)] == [ln for ln in kept if is_structural(ln)]
    assert len(kept) < len(data.decode().split("\n"))


def test_real_git_diff_through_cli(tmp_path, run_cli):
    repo = tmp_path / "repo"
    repo.mkdir()
    source = "".join(f"def step_{i}(value):\n    return value + {i}\n\n" for i in range(60))
    (repo / "steps.py").write_text(source)
    git = ["git", "-C", str(repo), "-c", "user.email=t@example.com", "-c", "user.name=t"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "init"], check=True)
    (repo / "steps.py").write_text(source.replace("value + 30\n", "value * 30\n").replace("value + 5\n", "value - 5\n"))
    data = subprocess.run(git + ["diff", "-U12"], check=True, capture_output=True).stdout
    got = run_cli("cavemem", "compress", input=data)
    assert got.rc == 0, got
    assert got.report["content_type"] == "diff"
    assert got.report["ratio"] > 0.3
    assert b"-    return value + 30\n+    return value * 30\n" in got.stdout
    assert b"-    return value + 5\n+    return value - 5\n" in got.stdout
    assert b"context lines elided (caveman)" in got.stdout
    back = run_cli("cavemem", "retrieve", got.report["recovery_handle"])
    assert back.stdout == data


def test_directory_diff_keeps_every_only_in_line(run_cli):
    """A real ``diff -ru`` of two installed versions of a package (tests/data/detect/README.md):
    ``Only in …`` entries are the directory diff's changes, never elidable context."""
    from conftest import REPO

    data = (REPO / "tests" / "data" / "detect" / "diff_ru.txt").read_bytes()
    got = run_cli("cavemem", "compress", "--type", "diff", input=data)
    assert got.rc == 0, got
    only_in = [line for line in data.split(b"\n") if line.startswith(b"Only in ")]
    assert len(only_in) == 3
    for line in only_in:
        assert line + b"\n" in got.stdout
    assert b"context lines elided (caveman)" in got.stdout
    assert run_cli("cavemem", "retrieve", got.report["recovery_handle"]).stdout == data


def test_normal_format_diff_lines_are_structural():
    for line in ("Only in /a/x: y.py", "diff -r a/x.py b/x.py", "4a5", "12,14c13", "7d7", "< old", "> new", "Files a and b differ"):
        assert is_structural(line), line
