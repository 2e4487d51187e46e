"""``tabular``: CSV, TSV and Markdown tables (spec engine-compressors §3.8).

A long table is mostly rows that look like their neighbours. We keep the header, the first
three and last two rows, every row that reports a failure, each numeric column's extreme rows,
the rows a query asks about, and any row unlike those already shown. Each dropped run becomes
one marker row naming the hidden rows' first cells and stating what they have in common
(``all status=ok; range revenue=103..142``) so many questions are answerable without a retrieve. The output is the same
kind of table (valid CSV/TSV with the original delimiter, or a Markdown pipe table).
"""

from __future__ import annotations

import re

from ..formats import gocsv
from ..formats.tables import Table, parse_table
from ..gocompat import parse_float, trim_space
from .base import QueryCompressor
from .invariants import ELISION_NOTE_MIN_ELIDED_BYTES, elision_note, row_fields, summarize_elided, worth_eliding
from .lineends import majority_crlf, runs
from .pieces import compress_pieces, csv_pieces, line_pieces
from .redundancy import keep_non_redundant
from .relevance import RELEVANCE_THRESHOLD, TABULAR_LIMIT, keep_query_relevant

MIN_ROWS = 12
KEEP_FIRST = 3
KEEP_LAST = 2
REENTRY = b"rows elided (caveman)"

_PLAIN_DECIMALS = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?(?:\n[+-]?[0-9]+(?:\.[0-9]+)?)*")
_SEVERE = re.compile(r"\b(?:ERROR|FAIL|FAILED|FATAL|PANIC|EXCEPTION|WARNING|SECURITY|DENIED|REJECTED)\b", re.I | re.A)


def marker_text(count: int, summary: str) -> str:
    if summary:
        return f"… {count} rows elided (caveman): {summary} …"
    return f"… {count} rows elided (caveman) …"


class TabularCompressor(QueryCompressor):
    content_type = "tabular"

    def compress_query(self, data: bytes, query: str) -> bytes | None:
        spans = csv_pieces(data)
        if spans:  # near the cap: piece by piece (``pieces``), each with the header row
            head = parse_table(data[: spans[0][1]])
            if head is None:  # a column-aligned table: cut at any row end
                spans = line_pieces(data, skip_header=True)
            if head is None or head.kind == "csv":
                return compress_pieces(data, spans, lambda piece: self._compress_table(piece, query), data[: spans[0][0]])
        return self._compress_table(data, query)

    def _compress_table(self, data: bytes, query: str) -> bytes | None:
        if REENTRY in data:
            return None  # already compressed: never elide a marker-bearing table again
        table = parse_table(data)
        if table is None:  # sqlite -column/-box, pip list, ps: a column-aligned text table?
            from .tabular_aligned import compress_aligned

            return compress_aligned(data, query, REENTRY)
        rows = table.rows
        header_rows = 2 if table.kind == "markdown" else 1
        if len(rows) < MIN_ROWS or len(rows) <= header_rows + KEEP_FIRST + KEEP_LAST + 1:
            return None
        keyed = _names_rows(rows, header_rows)
        keep = _choose_rows(rows, header_rows, query, keyed)
        shaped, elided_bytes = _shape(rows, keep)
        if len(shaped) >= len(rows):
            return None
        if elided_bytes >= ELISION_NOTE_MIN_ELIDED_BYTES:
            shaped.append(_marker_row(elision_note("rows"), len(rows[0])))
        out = _serialize(table, shaped, data)
        return out if len(out) < len(data) else None


def _choose_rows(rows: list[list[str]], header_rows: int, query: str, keyed: bool = False) -> list[bool]:
    n = len(rows)
    keep = [False] * n
    for i in range(min(n, header_rows + KEEP_FIRST)):
        keep[i] = True
    for i in range(max(header_rows, n - KEEP_LAST), n):
        keep[i] = True
    docs = [" ".join(row) for row in rows]
    for i, doc in enumerate(docs):
        if not keep[i] and _SEVERE.search(doc):
            keep[i] = True
    _keep_numeric_extrema(rows, header_rows, keep)
    if query:
        keep_query_relevant(keep, docs, query, TABULAR_LIMIT, RELEVANCE_THRESHOLD)
    keep_non_redundant(_gate_docs(rows, header_rows, docs, keyed), keep)
    return keep


def _names_rows(rows: list[list[str]], header_rows: int) -> bool:
    """Whether the first column names the rows (a package, country or host list): distinct in
    most of 50+ rows and not opaque digits. Its cells are then what the table is looked up by:
    every marker lists the names of the rows it hides, so the redundancy gate may judge rows
    without them (else each new name makes its row "unlike those shown" and nothing elides)."""
    data = rows[header_rows:]
    if len(data) < KEY_COLUMN_MIN_ROWS:
        return False
    names = {r[0] for r in data if r}
    if 2 * len(names) <= len(data) or 10 * sum(1 for v in names if _OPAQUE.fullmatch(v)) >= 5 * len(names):
        return False
    # listing a run's names must cost at most half of the rows it hides (as each marker checks)
    return 2 * sum(len(r[0]) + 2 for r in data if r) <= sum(len(",".join(r)) + 1 for r in data)


KEY_COLUMN_MIN_ROWS = 50
# a measurement, counter, hash or timestamp: digits, hex letters and separators only. A column
# of names (``Germany``, ``Britain (UK)``) is what a lookup table is read for and stays in.
_OPAQUE = re.compile(r"[ \t]*[+-]?(?=[^\n]*[0-9])[0-9a-fA-FxX.:,+\-_/TZ ]*", re.A)


def _gate_docs(rows: list[list[str]], header_rows: int, docs: list[str], keyed: bool = False) -> list[str]:
    """The rows as the redundancy gate sees them: cells of opaque key-like columns (ids, hashes,
    measurements: digits, distinct in most rows) left out. Otherwise every row of a long table of
    unique values is "unlike those shown", the gate gives up after its promotion budget, and
    a table of thousands of rows passes through whole. The markers still give each numeric
    column's range and the extreme rows stay."""
    data = rows[header_rows:]
    if len(data) < KEY_COLUMN_MIN_ROWS:
        return docs
    width = max(len(r) for r in data)
    keyish = [0] if keyed else []  # listed on the markers
    for col in range(1 if keyed else 0, width):
        values = {r[col] for r in data if col < len(r)}
        if 2 * len(values) > len(data) and 10 * sum(1 for v in values if _OPAQUE.fullmatch(v)) >= 9 * len(values):
            keyish.append(col)
    if not keyish:
        return docs
    drop = set(keyish)
    out = docs[:header_rows]
    out.extend(" ".join(c for j, c in enumerate(r) if j not in drop) for r in data)
    return out


def _keep_numeric_extrema(rows: list[list[str]], header_rows: int, keep: list[bool]) -> None:
    """For each mostly-numeric column (≥ 70 % of data rows parse as Go floats) keep the rows of
    its first strict minimum and first strict maximum. A leading NaN sticks, as in Go."""
    data = rows[header_rows:]
    if not data:
        return
    for col in range(len(rows[0])):
        values = [trim_space(r[col]) for r in data]
        found = _column_extrema(values)
        if found is not None:
            count, lo_i, hi_i = found
            if count * 10 >= len(data) * 7:
                keep[header_rows + lo_i] = keep[header_rows + hi_i] = True


def _column_extrema(values: list[str]) -> tuple[int, int, int] | None:
    """(numeric count, index of first strict min, index of first strict max), or None."""
    joined = "\n".join(values)
    if joined.count("\n") == len(values) - 1 and _PLAIN_DECIMALS.fullmatch(joined):
        # fast path: every cell is a plain decimal, where float() agrees with ParseFloat
        nums = list(map(float, values))
        lo, hi = min(nums), max(nums)
        if lo != float("-inf") and hi != float("inf"):  # else: out of range somewhere, go slow
            return len(nums), nums.index(lo), nums.index(hi)
    count = 0
    lo_i = hi_i = -1
    lo = hi = 0.0
    for i, v in enumerate(values):
        x = parse_float(v)
        if x is None:
            continue
        count += 1
        if lo_i < 0:
            lo_i = hi_i = i
            lo = hi = x
            continue
        if x < lo:
            lo_i, lo = i, x
        if x > hi:
            hi_i, hi = i, x
    return (count, lo_i, hi_i) if count else None


def _marker_row(text: str, width: int) -> list[str]:
    return [text] + [""] * (width - 1)


def _names_summary(header: list[str], run: list[list[str]], summary: str, run_bytes: int) -> str | None:
    """``Package: adduser, apt, …; <summary without its line on that column>``, or None when the
    names would cost more than half the hidden rows. The first cell is what a row is looked up
    by (a name, a PID, a row number), so every hidden row's first cell stays readable: the
    summary alone does when it names them all (a dense run, ``all kind=x``, an enum)."""
    col = header[0] if header and header[0] else "names"
    if any(e.startswith(col + ": ") and e.endswith(" present") for e in summary.split("; ")):
        return summary  # "name: customer-03..customer-42 all 40 present" already names them all
    names = list(dict.fromkeys(r[0] for r in run if r and r[0].strip()))
    if all(v in summary for v in names):
        return summary
    listing = ", ".join(names)
    if 2 * len(listing.encode("utf-8")) > run_bytes:
        return None
    rest = [e for e in summary.split("; ") if e and e.split(": ", 1)[0] != col]
    return "; ".join([f"{col}: {listing}"] + rest)


def _shape(rows: list[list[str]], keep: list[bool]) -> tuple[list[list[str]], int]:
    """Kept rows with each dropped run replaced by a marker row (when worth it); also the total
    bytes the markers stand for. Every marker names its rows' first cells (or the rows stay),
    so ``_names_rows`` may leave those cells out of the row choice."""
    header = rows[0]
    width = len(header)
    out: list[list[str]] = []
    elided_total = 0
    for i, j, kept in runs(keep):
        run = rows[i:j]
        if kept:
            out.extend(run)
            continue
        run_bytes = sum(len(",".join(r).encode("utf-8")) + 1 for r in run)
        summary = summarize_elided((row_fields(header, r) for r in run), run_bytes)
        summary = _names_summary(header, run, summary, run_bytes)
        if summary is None:
            out.extend(run)
            continue
        text = marker_text(len(run), summary)
        if worth_eliding(len(run), len(text.encode("utf-8")), run_bytes, summary):
            out.append(_marker_row(text, width))
            elided_total += run_bytes
        else:
            out.extend(run)
    return out, elided_total


def _serialize(table: Table, rows: list[list[str]], data: bytes) -> bytes:
    crlf = majority_crlf(data)
    trailing = data.endswith(b"\n")
    if table.kind == "markdown":
        text = "".join("| " + " | ".join(r) + " |\n" for r in rows)
        if not trailing:
            text = text[:-1]
        if crlf:
            text = text.replace("\n", "\r\n")
        return text.encode("utf-8")
    text = gocsv.write_records(rows, table.delimiter, use_crlf=crlf)
    if not trailing:
        text = text[: -len("\r\n" if crlf else "\n")]
    return text.encode("utf-8")
