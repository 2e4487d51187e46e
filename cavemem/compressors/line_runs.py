"""Emit a line-preserving view: kept lines verbatim, each dropped run as one marker line.

Shared by the line-eliding compressors that have no run summary (diff, search-result). A run of
a single short line is shown verbatim instead of being swapped for a marker that is no shorter:
the swap saves no lines and usually costs tokens (a deliberate deviation from the reference,
which replaces every dropped run; see the diff and search-result module notes).
"""

from __future__ import annotations

from collections.abc import Callable


def emit_with_markers(lines: list[str], keep: list[bool], marker: Callable[[int], str], cr: str) -> list[str]:
    """``lines`` with every maximal run of not-kept lines replaced by ``marker(n) + cr``."""
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        if keep[i]:
            out.append(lines[i])
            i += 1
            continue
        j = i
        while j < n and not keep[j]:
            j += 1
        line = marker(j - i) + cr
        if j - i == 1 and len(lines[i].encode()) <= len(line.encode()):
            out.append(lines[i])
        else:
            out.append(line)
        i = j
    return out
