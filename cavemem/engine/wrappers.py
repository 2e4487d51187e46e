"""Presentation wrappers (spec engine-core §1.4): ``<file …>…</file>`` and read-tool line gutters.

Agents often see a file as a ``<file>`` element or as a numbered listing. Both are stripped before
detection and compression and put back around the compressed body, so a numbered Go file is
still compressed as Go. At most four layers are unwrapped.
"""

from __future__ import annotations

import re
from ..gocompat import GO_SPACE, trim_space

MAX_LAYERS = 4
MIN_LISTING_LINES = 8
_GUTTER = re.compile(r" *(\d{1,12})(\t| \| |: |$)", re.ASCII)


class FileWrapper:
    __slots__ = ("prefix", "suffix")

    def __init__(self, prefix: bytes, suffix: bytes):
        self.prefix = prefix
        self.suffix = suffix

    def restore(self, body: bytes) -> bytes:
        return self.prefix + body + self.suffix


class ListingWrapper:
    __slots__ = ("source", "numbers")

    def __init__(self, source: bytes, numbers: list[int]):
        self.source = source
        self.numbers = numbers

    def restore(self, body: bytes) -> bytes:
        out = restore_listing(body, self.source, self.numbers)
        return body if out is None else out


_ASCII_LEAD = re.compile(rb"[\t\n\v\f\r ]*")


def split_file_wrapper(data: bytes) -> tuple[bytes, FileWrapper] | None:
    at = _ASCII_LEAD.match(data).end()
    if at < len(data) and data[at] < 0x80 and not data.startswith(b"<file", at):
        return None  # cheap exit: no decoded, trimmed and re-encoded copies of a big input
    text = data.decode("utf-8", "surrogateescape")
    stripped_left = text.lstrip(GO_SPACE)
    trimmed = stripped_left.rstrip(GO_SPACE)
    start = len(text) - len(stripped_left)
    tb = trimmed.encode("utf-8", "surrogateescape")
    if len(tb) < 9 or not tb.startswith(b"<file") or tb[5:6] not in (b" ", b"\t", b">"):
        return None
    if not tb.endswith(b"</file>") or tb.count(b"<file") != 1 or tb.count(b"</file>") != 1:
        return None
    close_at = len(tb) - len(b"</file>")
    quote = None
    gt = -1
    for i in range(5, len(tb)):
        c = tb[i]
        if quote is not None:
            if c == quote:
                quote = None
            continue
        if c in (0x22, 0x27):
            quote = c
        elif c == 0x3E:
            gt = i
            break
    if gt < 0 or gt >= close_at:
        return None
    inner = tb[gt + 1 : close_at]
    if not trim_space(inner.decode("utf-8", "surrogateescape")):
        return None
    lead = len(text[:start].encode("utf-8", "surrogateescape"))
    prefix_end = lead + gt + 1
    suffix_start = lead + close_at
    return data[prefix_end:suffix_start], FileWrapper(data[:prefix_end], data[suffix_start:])


def split_listing(data: bytes) -> tuple[bytes, list[int]] | None:
    """Strip a line-number gutter; return (source, numbers) or None (spec §2.6)."""
    first = data[: data.find(b"\n")] if b"\n" in data[:4096] else data[:4096]
    if trim_space(first.decode("utf-8", "surrogateescape")) and _GUTTER.match(first.decode("utf-8", "surrogateescape")) is None:
        return None  # the loop below would refuse at line 1: no split copy of a big input
    lines = data.split(b"\n")
    trailing = False
    if len(lines) > 1 and lines[-1] == b"":
        lines.pop()
        trailing = True
    if len(lines) < MIN_LISTING_LINES:
        return None
    numbers: list[int] = []
    rests: list[bytes] = []
    last = 0
    numbered = 0
    for line in lines:
        text = line.decode("utf-8", "surrogateescape")
        m = _GUTTER.match(text)
        if m is None:
            if trim_space(text):
                return None
            numbers.append(last)
            rests.append(b"")
            continue
        n = int(m.group(1))
        if n <= last:
            return None
        last = n
        numbered += 1
        numbers.append(n)
        rests.append(text[m.end() :].encode("utf-8", "surrogateescape"))
    if numbered < MIN_LISTING_LINES:
        return None
    source = b"\n".join(rests) + (b"\n" if trailing else b"")
    return source, numbers


def _split_keep(data: bytes) -> tuple[list[bytes], bool]:
    lines = data.split(b"\n")
    if len(lines) > 1 and lines[-1] == b"":
        lines.pop()
        return lines, True
    return lines, False


def restore_listing(body: bytes, source: bytes, numbers: list[int]) -> bytes | None:
    """Put a gutter back on compressed output; None when the output no longer traces back to the
    source (e.g. re-encoded JSON), in which case the body is returned without a gutter."""
    src_lines, _ = _split_keep(source)
    if len(numbers) < len(src_lines) or not numbers:
        return None
    positions: dict[bytes, list[int]] = {}
    for i, line in enumerate(src_lines):
        positions.setdefault(line, []).append(i)
    out_lines, trailing = _split_keep(body)
    cursor = 0
    tracked = traceable = 0
    emitted: list[bytes] = []
    for line in out_lines:
        num = numbers[min(cursor, len(numbers) - 1)]
        if trim_space(line.decode("utf-8", "surrogateescape")):
            tracked += 1
            for pos in positions.get(line, ()):
                if pos >= cursor:
                    num = numbers[pos]
                    cursor = pos + 1
                    traceable += 1
                    break
        emitted.append(b"%d\t%s" % (num, line))
    if tracked > 0 and traceable * 2 < tracked:
        return None
    return b"\n".join(emitted) + (b"\n" if trailing else b"")


def unwrap(data: bytes) -> tuple[bytes, list]:
    """Strip up to four wrapper layers; returns (body, wrappers outermost-first)."""
    wrappers: list = []
    body = data
    for _ in range(MAX_LAYERS):
        got = split_listing(body)
        if got is not None:
            wrappers.append(ListingWrapper(got[0], got[1]))
            body = got[0]
            continue
        fw = split_file_wrapper(body)
        if fw is not None:
            wrappers.append(fw[1])
            body = fw[0]
            continue
        break
    return body, wrappers


def rewrap(body: bytes, wrappers: list) -> bytes:
    for w in reversed(wrappers):
        body = w.restore(body)
    return body
