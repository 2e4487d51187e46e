"""The wrappers' cheap exits (issue 9: a 64 MiB log was decoded, trimmed and re-encoded, then split
into lines, before the engine learned it had no wrapper): the exits answer exactly as the full
checks, so wrapped inputs whose first byte or line only looks unusual still unwrap."""

from __future__ import annotations

import pytest

from cavemem.engine.wrappers import split_file_wrapper, split_listing, unwrap

BODY = b"package main\n\nfunc main() {\n\tprintln(1)\n}\n"


@pytest.mark.parametrize("lead", [b"", b" \n\t", b"\xc2\xa0", b"\xe3\x80\x80\n", b"\x0b\x0c\r\n"])
def test_file_wrapper_after_any_go_space_still_unwraps(lead):
    data = lead + b'<file path="m.go">\n' + BODY + b"</file>\n"
    inner, w = split_file_wrapper(data)
    assert inner == b"\n" + BODY
    assert w.restore(inner) == data


@pytest.mark.parametrize("data", [b"x<file>y</file>", b"  \n2026 log line\n<file>y</file>", b"\xc3\xa9<file>y</file>", b"   "])
def test_not_file_wrappers_whatever_leads(data):
    assert split_file_wrapper(data) is None


def _numbered(lines: list[bytes]) -> bytes:
    return b"".join(b"%d\t%s\n" % (i + 1, x) for i, x in enumerate(lines))


@pytest.mark.parametrize("first", [b"", b"   ", b"\xc2\xa0 \xe2\x80\x83"])
def test_listing_whose_first_line_is_blank_still_splits(first):
    """A blank first line (Go's spaces, Unicode ones included) has no number and is allowed."""
    data = first + b"\n" + b"".join(b"%d\tline %d\n" % (i, i) for i in range(2, 12))
    source, numbers = split_listing(data)
    assert source == b"\n" + b"".join(b"line %d\n" % i for i in range(2, 12))
    assert numbers[:2] == [0, 2]


@pytest.mark.parametrize("data", [
    b"2026-06-16T09:00:01Z [INFO] ok\n" + _numbered([b"x"] * 10),
    b"x" * 10_000 + b"\n" + _numbered([b"x"] * 10),  # a first line longer than the peek
    b"intro" + b"\n" * 3,
])
def test_listing_refused_at_its_first_line(data):
    assert split_listing(data) is None
    assert unwrap(data) == (data, [])


def test_long_first_line_of_a_listing_still_splits():
    data = _numbered([b"y" * 10_000] + [b"x"] * 10)
    source, numbers = split_listing(data)
    assert source == b"y" * 10_000 + b"\n" + b"x\n" * 10 and numbers == list(range(1, 12))
