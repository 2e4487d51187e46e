"""Taking lines apart and putting them back: the plumbing of the line-eliding compressors.

Line endings (spec engine-compressors §2.1): line-preserving compressors (log, diff,
search-result, terminal, config) split on ``\\n`` only, so each line keeps its own ``\\r``;
re-joining gives the input back byte for byte. Lines the compressor synthesizes (markers, notes)
get :func:`cr_suffix` — the document's majority style — so a CRLF document stays CRLF and a mixed
one keeps every original ending. These functions accept ``bytes`` or ``str`` and answer in the
same type.

Dropped runs: every eliding compressor keeps some lines (rows, sections) and replaces each
maximal run of the others by something shorter. :func:`runs` is that walk, :func:`splice_dropped`
the common output shape, and :func:`emit_with_markers` the plain marker form of the compressors
that have no run summary (diff, search-result, terminal, config). There a run of a single short
line is shown verbatim instead of being swapped for a marker that is no shorter: the swap saves
no lines and usually costs tokens (a deliberate deviation from the reference, which replaces
every dropped run; see the diff and search-result module notes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from ..gocompat import utf8_text

TYPE_CHECKING = False  # typing's own flag without importing typing (12 M instructions of a hot CLI command)
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T", bytes, str)


def _nl(data):
    return b"\n" if isinstance(data, (bytes, bytearray)) else "\n"


def _cr(data):
    return b"\r" if isinstance(data, (bytes, bytearray)) else "\r"


def split_lines(data: T) -> tuple[list[T], bool]:
    """``(lines, trailing)``: ``trailing`` says the input ended with ``\\n`` (that one ``\\n`` is
    removed before splitting). Empty input is one empty line without trailing newline; ``"\\n"``
    is ``[""]`` with ``trailing=True``."""
    nl = _nl(data)
    trailing = data.endswith(nl)
    lines = data.split(nl)
    if trailing:
        lines.pop()  # not ``data[:-1].split``: no copy of a 64 MiB input (issue 9)
    return lines, trailing


def utf8_lines(data: bytes, min_lines: int) -> tuple[str, list[str], bool] | None:
    """``(text, lines, trailing)`` of ``data`` (see :func:`split_lines`), or None — pass the
    input through — when it is not valid UTF-8 or has fewer than ``min_lines`` lines."""
    text = utf8_text(data)
    if text is None:
        return None
    lines, trailing = split_lines(text)
    return None if len(lines) < min_lines else (text, lines, trailing)


def utf8_line_list(data: bytes, min_lines: int) -> tuple[list[str], bool] | None:
    """``(lines, trailing)`` as :func:`utf8_lines` gives them, decoded a block of lines at a time,
    so the decoded text of a big input is never held whole beside its lines (issue 9)."""
    from .linescan import line_blocks

    lines: list[str] = []
    trailing = False
    for _, block in line_blocks(data):
        text = utf8_text(block)
        if text is None:
            return None
        trailing = text.endswith("\n")
        lines += (text[:-1] if trailing else text).split("\n")
        del text
    return None if len(lines) < min_lines else (lines, trailing)


def join_lines(lines: list[T], trailing: bool) -> T:
    """The exact inverse of :func:`split_lines` (``lines`` is never empty)."""
    nl = _nl(lines[0])
    out = nl.join(lines)
    return out + nl if trailing else out


def majority_crlf(data: T) -> bool:
    """True when the document has line breaks and more than half of them are ``\\r\\n``."""
    nl = _nl(data)
    n = data.count(nl)
    return n > 0 and 2 * data.count(_cr(data) + nl) > n


def cr_suffix(data: T) -> T:
    """``"\\r"`` for a majority-CRLF document, else empty: append it to synthesized lines."""
    cr = _cr(data)
    return cr if majority_crlf(data) else cr[:0]


def runs(keep: list[bool]) -> Iterator[tuple[int, int, bool]]:
    """The maximal runs of equally truthy ``keep`` values, in order, as ``(start, end, kept)``."""
    i, n = 0, len(keep)
    while i < n:
        j = i + 1
        if keep[i]:
            while j < n and keep[j]:
                j += 1
            yield i, j, True
        else:
            while j < n and not keep[j]:
                j += 1
            yield i, j, False
        i = j


def splice_dropped(items: list, keep: list[bool], replace: Callable[[int, int], Iterable]) -> list:
    """``items`` with every maximal run ``items[i:j]`` of not-kept items swapped for
    ``replace(i, j)`` (which may hand the run back unchanged)."""
    out: list = []
    for i, j, kept in runs(keep):
        out.extend(items[i:j] if kept else replace(i, j))
    return out


def emit_with_markers(lines: list[str], keep: list[bool], marker: Callable[[int], str], cr: str) -> list[str]:
    """``lines`` with every maximal run of not-kept lines replaced by ``marker(n) + cr`` (a lone
    dropped line no longer than its marker stays verbatim)."""

    def replace(i: int, j: int) -> list[str]:
        line = marker(j - i) + cr
        if j - i == 1 and len(lines[i].encode()) <= len(line.encode()):
            return [lines[i]]
        return [line]

    return splice_dropped(lines, keep, replace)
