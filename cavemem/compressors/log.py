"""``log``: build / application log elision (spec engine-compressors §3.2).

Keeps the first two lines, every line that signals trouble (errors, warnings, stack frames,
``file.go:NN``), earlier caveman markers, the last two lines, lines relevant to the query, and
any line whose vocabulary has not been shown yet (redundancy gate). Each dropped run becomes one
marker line — ``… N lines elided (caveman) …``, with an invariant summary after a colon when
the run's lines carry ``key=value`` or JSON fields. Every kept line keeps its own line ending;
markers follow the document's majority ending.

The trouble patterns are matched over the whole document in one regex scan (per-line semantics
are preserved: ``^`` is multi-line and ``\\s`` never crosses a newline).
"""

from __future__ import annotations

import re

from .base import Compressor
from .invariants import (
    ELISION_NOTE_MIN_ELIDED_BYTES,
    ELISION_NOTE_PREFIX,
    elision_note,
    line_fields,
    summarize_elided,
    worth_eliding,
)
from .lineends import cr_suffix, join_lines, split_lines
from .redundancy import keep_non_redundant
from .relevance import LOG_LIMIT, keep_query_relevant

KEEP_HEAD = 2
KEEP_TAIL = 2
MIN_LINES = 4

_S = r"[\t\f\r ]"  # Go's \s inside one line (a line never contains \n)
_KEEP_LINE = re.compile(
    r"\b(?:ERROR|FATAL|PANIC|EXCEPTION|TRACEBACK|FAIL|FAILED|FAILURE|WARN|WARNING)\b"
    rf"|^{_S}+at{_S}|^{_S}+File \"|\.go:[0-9]+|^{_S}+--->|caused by"
    r"|lines elided \(caveman\)|^" + re.escape(ELISION_NOTE_PREFIX),
    re.I | re.M | re.ASCII,
)
_MARKER = re.compile(r"lines elided \(caveman\)")


def _is_marker(line: str) -> bool:
    return line.startswith(ELISION_NOTE_PREFIX) or _MARKER.search(line) is not None


def _pattern_keeps(text: str, end: int, keep: list[bool]) -> None:
    """Mark every line holding a trouble pattern or a caveman marker (one scan, one hit a line)."""
    pos = line = last = 0
    search = _KEEP_LINE.search
    while True:
        m = search(text, pos, end)
        if m is None:
            return
        start = m.start()
        line += text.count("\n", last, start)
        keep[line] = True
        nl = text.find("\n", start, end)
        if nl < 0:
            return
        pos = last = nl + 1
        line += 1


def _blen(s: str, ascii_doc: bool) -> int:
    return len(s) if ascii_doc else len(s.encode("utf-8"))


class LogCompressor(Compressor):
    content_type = "log"
    accepts_query = True

    def compress(self, data: bytes) -> bytes | None:
        return self.compress_query(data, "")

    def compress_query(self, data: bytes, query: str) -> bytes | None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return None
        lines, trailing = split_lines(text)
        n = len(lines)
        if n < MIN_LINES:
            return None
        keep = [False] * n
        keep[0] = keep[1] = True
        _pattern_keeps(text, len(text) - trailing, keep)
        i, budget = n - 1, KEEP_TAIL
        while i >= KEEP_HEAD and budget > 0:
            keep[i] = True
            if not _is_marker(lines[i]):
                budget -= 1
            i -= 1
        if query:
            keep_query_relevant(keep, lines, query, LOG_LIMIT)
        keep_non_redundant(lines, keep)
        return _emit(text, lines, trailing, keep).encode("utf-8")


def _emit(text: str, lines: list[str], trailing: bool, keep: list[bool]) -> str:
    ascii_doc = text.isascii()
    cr = cr_suffix(text)
    out: list[str] = []
    elided_total = 0
    n = len(lines)
    i = 0
    while i < n:
        if keep[i]:
            out.append(lines[i])
            i += 1
            continue
        j = i
        while j < n and not keep[j]:
            j += 1
        run = lines[i:j]
        if ascii_doc:
            run_bytes = sum(map(len, run)) + len(run)
        else:
            run_bytes = sum(len(s.encode("utf-8")) for s in run) + len(run)
        summary = summarize_elided(map(line_fields, run), run_bytes)
        if summary:
            marker = f"\u2026 {len(run)} lines elided (caveman): {summary} \u2026"
        else:
            marker = f"\u2026 {len(run)} lines elided (caveman) \u2026"
        if worth_eliding(len(run), len(marker.encode("utf-8")), run_bytes, summary):
            out.append(marker + cr)
            elided_total += run_bytes
        else:
            out.extend(run)
        i = j
    if elided_total >= ELISION_NOTE_MIN_ELIDED_BYTES and ELISION_NOTE_PREFIX not in text:
        out.append(elision_note("lines") + cr)
    return join_lines(out, trailing)
