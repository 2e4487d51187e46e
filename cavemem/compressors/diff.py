"""``diff``: unified-diff context elision (spec engine-compressors §3.4).

Every change and header line stays, with two lines of context on each side; longer runs of
unchanged context become ``… N context lines elided (caveman) …``. Line endings are preserved
per line; markers follow the majority style. No query, no summary, no redundancy gate.

Deviation from the reference: a dropped run of one line no longer than the marker is kept
verbatim (the reference swaps it for a marker, which saves nothing). A diff whose only droppable
runs are such lines therefore passes through, as in the reference.
"""

from __future__ import annotations

import re

from .base import Compressor
from .lineends import cr_suffix, emit_with_markers, join_lines, utf8_lines
from .pieces import diff_pieces, in_pieces

KEEP_CONTEXT = 2
MIN_LINES = 12

_HEADER_PREFIXES = ("diff --git ", "index ", "--- ", "+++ ", "@@ ")
# ``diff -r`` / normal-format lines: per-file headers, directory-only entries, ``diff -q`` notes,
# ``4a5`` / ``12,14c13`` hunk headers and ``<`` / ``>`` changes (a unified diff's body lines
# start with `` ``, ``+``, ``-`` or ``\``, so these never match one of its context lines)
_DIR_PREFIXES = ("diff ", "Only in ", "Files ", "Common subdirectories: ", "<", ">")
_NORMAL_HUNK = re.compile(r"[0-9]+(?:,[0-9]+)?[acd][0-9]+(?:,[0-9]+)?\r?")
_MARKER_LINE = re.compile(r"context lines elided \(caveman\)")


def marker(count: int) -> str:
    return f"… {count} context lines elided (caveman) …"


def is_structural(line: str) -> bool:
    """Headers, hunk headers and changes (any line whose first byte is ``+`` or ``-``, so a
    bare ``-`` blank-line change and a deleted ``----`` rule count), and the lines of
    ``diff -r`` output: ``Only in …`` entries are the directory diff's changes."""
    return (
        line[:1] in ("+", "-")
        or line.startswith(_HEADER_PREFIXES)
        or line.startswith(_DIR_PREFIXES)
        or _NORMAL_HUNK.fullmatch(line) is not None
    )


class DiffCompressor(Compressor):
    content_type = "diff"

    def compress(self, data: bytes) -> bytes | None:
        return in_pieces(data, diff_pieces, self._compress_hunks)  # near the cap: piece by piece (``pieces``)

    def _compress_hunks(self, data: bytes) -> bytes | None:
        got = utf8_lines(data, MIN_LINES)
        if got is None:
            return None
        text, lines, trailing = got
        n = len(lines)
        keep = [False] * n
        for i, line in enumerate(lines):
            if is_structural(line) or _MARKER_LINE.search(line):
                for k in range(max(0, i - KEEP_CONTEXT), min(n, i + KEEP_CONTEXT + 1)):
                    keep[k] = True
        out = emit_with_markers(lines, keep, marker, cr_suffix(text))
        if len(out) == n:
            return None
        return join_lines(out, trailing).encode("utf-8")
