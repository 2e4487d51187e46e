"""Big line-based inputs compressed piece by piece, so peak memory follows a piece, not the input.

Why: the tabular and config compressors hold every row (a list of cells) or every line with its
keep flags; on a CSV or TOML file near the CLI's 64 MiB cap that is 18-24x the input
(``scripts/bench_engine.py --cap-only``), far past the 6x target. Their rules are local — the
head and tail rows, alarming lines, numeric extremes, look-alike runs — so compressing ~2 MiB
pieces one after another and joining the views keeps the ratio while the working set stays
one piece. Each piece is cut where the format allows: a CSV at a row end outside any quoted
field, carrying the header row so the piece is a table of its own (a column-aligned table the
same way, at any row end); a TOML/INI file at a ``[section]`` line, or a blank line when it has
none; prose at a blank line; a diff before a file or hunk header; grep and terminal output at
any line end. A piece the compressor declines is kept verbatim. The exact original is
still stored whole by the engine; only the view is made in pieces.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

BIG_INPUT_BYTES = 16 << 20  # below this the whole-input path fits the memory target
PIECE_BYTES = 2 << 20


def _row_ends(data: bytes, start: int, quote: int | None) -> Iterator[int]:
    """Offsets just after a newline at or past ``start + PIECE_BYTES`` where a piece may end:
    outside any quoted field when ``quote`` is the CSV quote byte (quotes are doubled inside a
    field, so an even count so far means outside)."""
    pos, parity = start, 0
    while True:
        target = pos + PIECE_BYTES
        if target >= len(data):
            return
        cut = data.find(b"\n", target)
        if cut < 0:
            return
        if quote is not None:
            parity = (parity + data.count(quote, pos, cut)) % 2
            while parity and cut >= 0:  # inside a quoted field: the next newline
                nxt = data.find(b"\n", cut + 1)
                if nxt < 0:
                    return
                parity = (parity + data.count(quote, cut, nxt)) % 2
                cut = nxt
        pos = cut + 1
        yield pos


def csv_pieces(data: bytes) -> list[tuple[int, int]] | None:
    """``(start, end)`` spans of the rows after the header line, or None for a small input or
    one without a header line."""
    header_end = data.find(b"\n") + 1
    if len(data) < BIG_INPUT_BYTES or header_end <= 0:
        return None
    return _spans(header_end, len(data), _row_ends(data, header_end, ord('"')))


def line_pieces(data: bytes, *, skip_header: bool = False) -> list[tuple[int, int]] | None:
    """Spans cut at line ends (grep hits, rows of a column-aligned table after its header line
    with ``skip_header``), or None for a small input."""
    start = data.find(b"\n") + 1 if skip_header else 0
    if len(data) < BIG_INPUT_BYTES or (skip_header and start <= 0):
        return None
    return _spans(start, len(data), _row_ends(data, start, None))


def _cut_at(data: bytes, boundary: re.Pattern) -> list[tuple[int, int]] | None:
    """Spans cut where ``boundary`` matches (the cut is the match's end) at or past every
    :data:`PIECE_BYTES`; None for a small input or when no boundary follows the first cut point."""
    if len(data) < BIG_INPUT_BYTES:
        return None
    cuts, pos = [], 0
    while pos + PIECE_BYTES < len(data):
        m = boundary.search(data, pos + PIECE_BYTES)
        if m is None or m.end() >= len(data):
            break
        pos = m.end()
        cuts.append(pos)
    return _spans(0, len(data), iter(cuts)) if cuts else None


# before a file or hunk header, so no hunk leaves its header
_HUNK_HEAD = re.compile(rb"(?<=\n)(?=diff |--- |@@ )")
# before a top-level Python definition or decorator, or after a ``}`` closing a top-level block
_TOP_LEVEL = re.compile(rb"(?<=\n)(?=(?:async[ \t]+def|def|class)[ \t]+\w|@\w)|\n\}[;\t ]*\n")
_BLANK_LINE = re.compile(rb"\n\n")  # after it: the next piece opens on a paragraph
_SECTION_LINE = re.compile(rb"(?<=\n)(?=\[)")


def diff_pieces(data: bytes) -> list[tuple[int, int]] | None:
    """Spans of a diff cut before a file or hunk header (``diff ``, ``--- ``, ``@@ ``)."""
    return _cut_at(data, _HUNK_HEAD)


def code_pieces(data: bytes) -> list[tuple[int, int]] | None:
    """Spans of source cut between top-level definitions (each piece then parses on its own)."""
    return _cut_at(data, _TOP_LEVEL)


def paragraph_pieces(data: bytes) -> list[tuple[int, int]] | None:
    """Spans of prose cut after a blank line (at a line end when it has none)."""
    return _cut_at(data, _BLANK_LINE) or line_pieces(data)


def section_pieces(data: bytes) -> list[tuple[int, int]] | None:
    """Spans of TOML/INI cut before a ``[section]`` line, or after a blank line in a file without
    sections (``main.cf``, env files)."""
    return _cut_at(data, _SECTION_LINE) or _cut_at(data, _BLANK_LINE)


def _spans(start: int, end: int, cuts: Iterator[int]) -> list[tuple[int, int]]:
    spans, prev = [], start
    for cut in cuts:
        spans.append((prev, cut))
        prev = cut
    spans.append((prev, end))
    return spans


def in_pieces(data: bytes, cut: Callable[[bytes], list[tuple[int, int]] | None],
              compress: Callable[[bytes], bytes | None]) -> bytes | None:
    """``compress(data)``, or near the cap the views of the pieces ``cut`` finds, joined."""
    spans = cut(data)
    return compress_pieces(data, spans, compress) if spans else compress(data)


def compress_pieces(data: bytes, spans: list[tuple[int, int]], compress: Callable[[bytes], bytes | None],
                    header: bytes = b"") -> bytes | None:
    """The views of ``data[start:end]`` for each span joined in order (``header`` prepended to
    each piece and dropped from every view after the first); None when nothing was saved."""
    out: list[bytes] = [header] if header else []
    for start, end in spans:
        piece = data[start:end]
        view = compress(header + piece) if header else compress(piece)
        if view is None:
            out.append(piece)
            continue
        if header:
            cut = view.find(b"\n") + 1  # the piece's own copy of the header row
            view = view[cut:] if cut > 0 else b""
        if not view.endswith(b"\n") and end < len(data):
            view += b"\n"
        out.append(view)
    joined = b"".join(out)
    return joined if len(joined) < len(data) else None
