"""``terminal``: raw command output (spec engine-compressors §3.15).

Captured terminal output is full of colour codes, cursor moves and carriage-return progress
bars that cost tokens and say nothing. Every line is cleaned (progress redraws collapse to their
final state, escape sequences go), and a long output keeps its head, its tail, every line that
looks like a failure (errors, tracebacks, file:line locations) and any line unlike those already
shown; the rest become ``… N lines elided (caveman) …`` markers (a single dropped line no longer
than its marker stays verbatim — a deviation shared with diff/search-result, see
:mod:`.lineends`). Line endings are preserved per line, markers follow the majority style.

Deviation from the spec's redundancy gate: a line only counts as "already shown" when a shown
line of *similar size* covers it (``similar_size``). Short lines between blocks — a commit
subject ``rich 15.0.0`` above ``rich/x.py | 2 +-`` lines, a one-word status — are facts, not
fragments of longer lines that happen to share their words.
"""

from __future__ import annotations

import re

from ..gocompat import utf8_text
from .base import Compressor
from .lineends import cr_suffix, emit_with_markers, join_lines, split_lines
from .pieces import in_pieces, line_pieces
from .redundancy import keep_non_redundant

KEEP_HEAD = 3
KEEP_TAIL = 3

# CSI, OSC (ended by BEL or ST), and the two-byte Fe escapes ESC 0x40–0x5A / 0x5C–0x5F.
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
# Failure-looking lines. "[A-Za-z]+Error\b" is spelled "[A-Za-z]Error\b": the same verdict for a
# search, without quadratic backtracking on a long run of letters.
_IMPORTANT = re.compile(
    r"\b(?:ERROR|ERR|FATAL|PANIC|EXCEPTION|TRACEBACK|FAIL|FAILED|FAILURE|WARN|WARNING)\b"
    r"|[A-Za-z]Error\b|[A-Za-z]Exception\b|^[\t\n\f\r ]+at[\t\n\f\r ]|^[\t\n\f\r ]+File \""
    r"|\.go:[0-9]+|:[0-9]+:[0-9]+:|^[\t\n\f\r ]*--->|caused by|\bexit status [1-9]",
    re.I | re.A,
)
_MARKER_LINE = re.compile(r"lines elided \(caveman\)")


def marker(count: int) -> str:
    return f"… {count} lines elided (caveman) …"


def clean_line(line: str) -> str:
    """Collapse carriage-return redraws to the last non-empty segment, then strip escapes.
    A trailing ``\\r`` (CRLF ending) is kept."""
    cr = ""
    if line.endswith("\r"):
        line, cr = line[:-1], "\r"
    if "\r" in line:
        line = next((seg for seg in reversed(line.split("\r")) if seg), "")
    if "\x1b" in line:
        line = ANSI_ESCAPE.sub("", line)
    return line + cr


class TerminalCompressor(Compressor):
    content_type = "terminal"

    def compress(self, data: bytes) -> bytes | None:
        return in_pieces(data, line_pieces, self._compress_lines)  # near the cap: piece by piece (``pieces``)

    def _compress_lines(self, data: bytes) -> bytes | None:
        text = utf8_text(data)
        if not text:
            return None
        lines, trailing = split_lines(text)
        lines = [clean_line(line) for line in lines]
        if len(lines) >= 4:
            lines = _elide_middle(lines, cr_suffix(text))
        out = join_lines(lines, trailing).encode("utf-8")
        return None if out == data else out


def _elide_middle(lines: list[str], cr: str) -> list[str]:
    n = len(lines)
    keep = [i < KEEP_HEAD or i >= n - KEEP_TAIL for i in range(n)]
    for i, line in enumerate(lines):
        if not keep[i] and (_IMPORTANT.search(line) or _MARKER_LINE.search(line)):
            keep[i] = True
    keep_non_redundant(lines, keep, similar_size=True)
    # a lone short line (often a blank one) stays verbatim rather than becoming a longer marker
    return emit_with_markers(lines, keep, marker, cr)
