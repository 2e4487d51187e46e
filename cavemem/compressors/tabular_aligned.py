"""Column-aligned text tables for the ``tabular`` compressor: ``sqlite3 -column`` / ``-box``,
``dpkg -l``, ``pip list``, ``ps aux`` and the like — tables no CSV/TSV/Markdown parse accepts.

They are read line by line: header and rule lines stay, so do the first and last rows, rows
with an alarm, rows a query asks about and rows unlike those shown (judged without their first
cell). Each dropped run becomes one marker line naming the first cell of every row it hides,
``… 18 rows elided (caveman): name: libllvm15, valgrind, … …`` — the first column is what such a
table is looked up by. When its cells repeat (``ps aux``: ``root``; ``dpkg -l``: ``ii``) the
marker names each row by its first cell and the next column that is distinct (``root 812``,
``ii adduser``), so no row's key goes out of sight. Tables of ``MIN_ROWS`` rows or more are
handled (a ``column -t`` or ``vmstat`` table that short stays whole); ``sqlite3 -list`` rows
(``a|b|c``, the same count of bars on every line) are split at their bars. A table whose
markers would save nothing passes through as before. Kept lines are byte-identical.
"""

from __future__ import annotations

import re

from .lineends import cr_suffix, join_lines, runs, split_lines
from .redundancy import keep_non_redundant
from .relevance import RELEVANCE_THRESHOLD, TABULAR_LIMIT, keep_query_relevant

MIN_ROWS = 12
KEY_SCAN = 3  # columns searched for the one that names the rows
KEEP_FIRST = 3
KEEP_LAST = 2
HEADER_SCAN = 6  # a rule line this close to the top closes the header

_RULE = frozenset("-=+|─━┌┐└┘├┤┬┴┼╭╮╰╯│┃╇╈╋═╪╞╡ :\t\r")
_BARS = re.compile(r"[│┃|]")
_SEVERE = re.compile(r"\b(?:ERROR|FAIL|FAILED|FATAL|PANIC|EXCEPTION|WARNING|SECURITY|DENIED|REJECTED)\b", re.I | re.A)


def is_rule(line: str) -> bool:
    return bool(line.strip()) and set(line) <= _RULE


def _cells(line: str, pipes: bool = False) -> list[str]:
    """[first cell, the rest]: a box row splits at its second bar, a ``sqlite3 -list`` row
    (``pipes``) at its first, any other at its first blank."""
    t = line.strip()
    if pipes:
        return t.split("|", 1)
    if t[:1] in "│┃|":
        return _BARS.split(t.strip("│┃|"), 1)
    return t.split(None, 1)


def first_cell(line: str, pipes: bool = False) -> str:
    parts = _cells(line, pipes)
    return parts[0].strip() if parts else ""


def rest_cells(line: str, pipes: bool = False) -> str:
    parts = _cells(line, pipes)
    return parts[1] if len(parts) > 1 else ""


def _split(line: str, pipes: bool) -> list[str]:
    t = line.strip()
    if pipes:
        return [c.strip() for c in t.split("|")]
    if t[:1] in "│┃|":
        return [c.strip() for c in _BARS.split(t.strip("│┃|"))]
    return t.split()


def key_column(lines: list[str], pipes: bool = False) -> int:
    """The column a row is named by: 0 when the first cells are distinct in most rows, else the
    first of the next two that is (``ps aux``: PID after USER; ``dpkg -l``: Name after ``ii``);
    0 when none is."""
    split = [_split(x, pipes) for x in lines]
    for col in range(KEY_SCAN):
        values = [c[col] for c in split if len(c) > col]
        if len(values) == len(split) and 2 * len(set(values)) > len(values):
            return col
    return 0


def row_key(line: str, col: int, pipes: bool = False) -> str:
    """How a marker names a hidden row: its first cell, and its key cell when that is another."""
    if col == 0:
        return first_cell(line, pipes)
    cells = _split(line, pipes)
    return f"{cells[0]} {cells[col]}" if len(cells) > col else first_cell(line, pipes)


def _label(head: str, col: int, pipes: bool) -> str:
    """The header's names for what a marker lists (``USER PID``, ``||/ Name``)."""
    if col == 0:
        return first_cell(head, pipes)
    cells = [c.strip() for c in head.split("|")] if pipes else head.split()
    return " ".join(cells[: col + 1 : col]) if len(cells) > col else first_cell(head, pipes)


def _pipe_rows(lines: list[str]) -> bool:
    """``sqlite3 -list`` output: no line opens on a bar, every line has the same bars (≥ 1)."""
    counts = {x.count("|") for x in lines if x.strip()}
    return len(counts) == 1 and counts != {0} and not any(x.lstrip()[:1] == "|" for x in lines)


def _header_end(lines: list[str]) -> int:
    """Index of the first data line: after the last rule line near the top, else after line 0."""
    end = 1
    for i in range(min(len(lines), HEADER_SCAN)):
        if is_rule(lines[i]):
            end = i + 1
    return end


def compress_aligned(data: bytes, query: str, reentry: bytes) -> bytes | None:
    """The compressed table, or None when ``data`` is not a long aligned table of named rows."""
    if reentry in data:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    lines, trailing = split_lines(text)
    start = _header_end(lines)
    rows = [i for i in range(start, len(lines)) if lines[i].strip() and not is_rule(lines[i])]
    if len(rows) < MIN_ROWS:
        return None
    pipes = _pipe_rows(lines)
    keep = [True] * len(lines)
    row_keep = [k < KEEP_FIRST or k >= len(rows) - KEEP_LAST or bool(_SEVERE.search(lines[i])) for k, i in enumerate(rows)]
    docs = [rest_cells(lines[i], pipes) for i in rows]  # the first cells are listed on the markers
    if query:
        keep_query_relevant(row_keep, [lines[i] for i in rows], query, TABULAR_LIMIT, RELEVANCE_THRESHOLD)
    keep_non_redundant(docs, row_keep)
    for i, k in zip(rows, row_keep):
        keep[i] = k
    heads = [x for x in lines[:start] if x.strip() and not is_rule(x)]
    col = key_column([lines[i] for i in rows], pipes)
    label = _label(heads[-1], col, pipes) if heads else ""
    out = _emit(lines, keep, label or "rows", cr_suffix(text), lambda x: row_key(x, col, pipes))
    if len(out) >= len(lines):
        return None
    raw = join_lines(out, trailing).encode("utf-8")
    return raw if len(raw) < len(data) else None


def _emit(lines: list[str], keep: list[bool], label: str, cr: str, name) -> list[str]:
    """Kept lines verbatim; each dropped run one marker naming its rows (``name`` of each line;
    unless the marker would cost more than half of them: then the run stays)."""
    out: list[str] = []
    for i, j, kept in runs(keep):
        run = lines[i:j]
        if kept:
            out.extend(run)
            continue
        listing = ", ".join(name(x) for x in run)
        text = f"… {j - i} rows elided (caveman): {label}: {listing} …{cr}"
        hidden = sum(len(x.encode("utf-8")) + 1 for x in run)
        out.extend(run if 2 * len(text.encode("utf-8")) > hidden else [text])
    return out
