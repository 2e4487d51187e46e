"""Line splitting that keeps every original line ending (spec engine-compressors §2.1).

Line-preserving compressors (log, diff, search-result, terminal, config) split on ``\\n`` only, so
each line keeps its own ``\\r``; re-joining gives the input back byte for byte. Lines the
compressor synthesizes (markers, notes) get :func:`cr_suffix` — the document's majority style —
so a CRLF document stays CRLF and a mixed one keeps every original ending.

Every function accepts ``bytes`` or ``str`` and answers in the same type.
"""

from __future__ import annotations

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
    if trailing:
        data = data[:-1]
    return data.split(nl), trailing


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
