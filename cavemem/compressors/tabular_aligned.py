"""Column-aligned text tables for the ``tabular`` compressor: ``sqlite3 -column`` / ``-box``,
``dpkg -l``, ``pip list``, ``ps aux`` and the like — tables no CSV/TSV/Markdown parse accepts.

They are read line by line: header and rule lines stay, so do the first and last rows, rows
with an alarm, rows a query asks about and rows unlike those shown (judged without their first
cell). Each dropped run becomes one marker line naming the first cell of every row it hides,
``… 18 rows elided (caveman): name: libllvm15, valgrind, … …`` — the first column is what such a
table is looked up by. Only long tables whose first cells are distinct names are handled;
anything else passes through as before. Kept lines are byte-identical.
"""

from __future__ import annotations

import re

from .lineends import cr_suffix, join_lines, runs, split_lines
from .redundancy import keep_non_redundant
from .relevance import RELEVANCE_THRESHOLD, TABULAR_LIMIT, keep_query_relevant

MIN_ROWS = 50
KEEP_FIRST = 3
KEEP_LAST = 2
HEADER_SCAN = 6  # a rule line this close to the top closes the header

_RULE = frozenset("-=+|─━┌┐└┘├┤┬┴┼╭╮╰╯│┃╇╈╋═╪╞╡ :\t\r")
_BARS = re.compile(r"[│┃|]")
_OPAQUE = re.compile(r"[+-]?(?=.*[0-9])[0-9a-fA-FxX.:,+\-_/TZ]*", re.A)
_SEVERE = re.compile(r"\b(?:ERROR|FAIL|FAILED|FATAL|PANIC|EXCEPTION|WARNING|SECURITY|DENIED|REJECTED)\b", re.I | re.A)


def is_rule(line: str) -> bool:
    return bool(line.strip()) and set(line) <= _RULE


def _cells(line: str) -> list[str]:
    """[first cell, the rest]: a box row splits at its second bar, any other at its first blank."""
    t = line.strip()
    if t[:1] in "│┃|":
        return _BARS.split(t.strip("│┃|"), 1)
    return t.split(None, 1)


def first_cell(line: str) -> str:
    parts = _cells(line)
    return parts[0].strip() if parts else ""


def rest_cells(line: str) -> str:
    parts = _cells(line)
    return parts[1] if len(parts) > 1 else ""


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
    names = [first_cell(lines[i]) for i in rows]
    distinct = set(names)
    if 2 * len(distinct) <= len(rows) or 2 * sum(1 for v in distinct if _OPAQUE.fullmatch(v)) >= len(distinct):
        return None
    keep = [True] * len(lines)
    row_keep = [k < KEEP_FIRST or k >= len(rows) - KEEP_LAST or bool(_SEVERE.search(lines[i])) for k, i in enumerate(rows)]
    docs = [rest_cells(lines[i]) for i in rows]  # the names are listed on the markers
    if query:
        keep_query_relevant(row_keep, [lines[i] for i in rows], query, TABULAR_LIMIT, RELEVANCE_THRESHOLD)
    keep_non_redundant(docs, row_keep)
    for i, k in zip(rows, row_keep):
        keep[i] = k
    heads = [x for x in lines[:start] if x.strip() and not is_rule(x)]
    label = first_cell(heads[-1]) if heads else ""
    out = _emit(lines, keep, label or "rows", cr_suffix(text))
    if len(out) >= len(lines):
        return None
    raw = join_lines(out, trailing).encode("utf-8")
    return raw if len(raw) < len(data) else None


def _emit(lines: list[str], keep: list[bool], label: str, cr: str) -> list[str]:
    """Kept lines verbatim; each dropped run one marker naming its rows (unless it would cost
    more than half of them: then the run stays)."""
    out: list[str] = []
    for i, j, kept in runs(keep):
        run = lines[i:j]
        if kept:
            out.extend(run)
            continue
        listing = ", ".join(first_cell(x) for x in run)
        text = f"… {j - i} rows elided (caveman): {label}: {listing} …{cr}"
        hidden = sum(len(x.encode("utf-8")) + 1 for x in run)
        out.extend(run if 2 * len(text.encode("utf-8")) > hidden else [text])
    return out
