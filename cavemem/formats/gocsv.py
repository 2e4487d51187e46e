"""A strict RFC 4180 CSV reader with Go ``encoding/csv`` semantics (spec engine-core G13).

Python's ``csv`` module is lenient and exposes no byte offsets; detection, query narrowing and
the tabular compressor all need the strict rules and the exact original slice of each record.

Rules: a bare ``"`` in an unquoted field is an error; after a closing quote only the delimiter or
end of line may follow; ``""`` inside quotes is a quote; empty lines are skipped; quoted fields
may hold newlines (``\\r\\n`` inside quotes becomes ``\\n``); ``\\r\\n`` line ends are accepted;
the first record fixes the field count. Leading spaces are kept.
"""

from __future__ import annotations

import re

from ..gocompat import GO_SPACE


class CSVError(ValueError):
    pass


_FIELD_END: dict[str, re.Pattern] = {}


def _field_end(delim: str) -> re.Pattern:
    pat = _FIELD_END.get(delim)
    if pat is None:
        pat = _FIELD_END[delim] = re.compile("[" + re.escape(delim) + "\n]")
    return pat


SHARE_MIN_CHARS = 1 << 20  # tables this big hold each repeated cell value once


class _SharedValues:
    """Cell values repeated down a column (an ``arch``, ``status`` or version column) kept as
    one string object each: a 64 MiB table's rows hold millions of equal cells (issue 9). A
    column found mostly distinct (names, sizes) stops being looked up."""

    CHECK_EVERY = 4096
    MEMO_FREE = 1 << 17  # a column is judged once its memo holds this many values

    def __init__(self):
        self.memos: list[dict | None] = []
        self.rows = 0

    def __call__(self, fields: list[str]) -> list[str]:
        memos = self.memos
        if len(memos) < len(fields):
            memos.extend({} for _ in range(len(fields) - len(memos)))
        for j, memo in enumerate(memos[: len(fields)]):
            if memo is not None:
                f = fields[j]
                fields[j] = memo.setdefault(f, f)
        self.rows += 1
        if self.rows % self.CHECK_EVERY == 0:
            for j, memo in enumerate(memos):
                if memo is not None and len(memo) > self.MEMO_FREE and 2 * len(memo) > self.rows:
                    memos[j] = None
        return fields


def read_records(text: str, delim: str = ",", *, check_width: bool = True, offsets: bool = True) -> list:
    """Parse ``text``; return ``[(fields, end_offset)]`` where ``end_offset`` is the index just
    after the record's line ending (``offsets=False``: just the fields lists). Raises
    :class:`CSVError`."""
    out: list = []
    n = len(text)
    i = 0
    width = -1
    share = _SharedValues() if n >= SHARE_MIN_CHARS else None
    while i < n:
        # skip empty lines (Go skips them, including "\r\n")
        if text[i] == "\n":
            i += 1
            continue
        if text[i] == "\r" and i + 1 < n and text[i + 1] == "\n":
            i += 2
            continue
        fields, i = _read_record(text, i, delim)
        if check_width:
            if width < 0:
                width = len(fields)
            elif len(fields) != width:
                raise CSVError("wrong number of fields")
        if share is not None:
            fields = share(fields)
        out.append((fields, i) if offsets else fields)
    return out


def _read_record(text: str, i: int, delim: str) -> tuple[list[str], int]:
    n = len(text)
    # fast path: a line without any quote is just its fields split on the delimiter
    end = text.find("\n", i)
    line = text[i:] if end < 0 else text[i:end]
    if '"' not in line:
        if line.endswith("\r"):
            line = line[:-1]
        return line.split(delim), n if end < 0 else end + 1
    fields: list[str] = []
    while True:
        if i < n and text[i] == '"':
            # quoted field
            i += 1
            buf: list[str] = []
            while True:
                j = text.find('"', i)
                if j < 0:
                    raise CSVError("extraneous or missing \" in quoted-field")
                buf.append(text[i:j])
                i = j + 1
                if i < n and text[i] == '"':
                    buf.append('"')
                    i += 1
                    continue
                break
            field = "".join(buf).replace("\r\n", "\n")
            fields.append(field)
            if i >= n:
                return fields, i
            c = text[i]
            if c == delim:
                i += 1
                continue
            if c == "\n":
                return fields, i + 1
            if c == "\r" and i + 1 < n and text[i + 1] == "\n":
                return fields, i + 2
            if c == "\r" and i + 1 >= n:
                return fields, i + 1
            raise CSVError("extraneous or missing \" in quoted-field")
        # unquoted field: up to delimiter or end of line (a C-speed search, linear overall)
        m = _field_end(delim).search(text, i)
        j = n if m is None else m.start()
        field = text[i:j]
        end_line = j >= n or text[j] == "\n"
        if end_line and field.endswith("\r"):
            field = field[:-1]
        if '"' in field:
            raise CSVError('bare " in non-quoted-field')
        fields.append(field)
        if j >= n:
            return fields, n
        if text[j] == "\n":
            return fields, j + 1
        i = j + 1  # delimiter
        if i >= n:
            fields.append("")
            return fields, n


def sniff_delimiter(trimmed: str) -> str | None:
    """TAB when the first line has more TABs than commas (and at least one), else comma;
    None when the first line holds neither."""
    first = trimmed.split("\n", 1)[0]
    tabs, commas = first.count("\t"), first.count(",")
    delim = "\t" if tabs >= 1 and tabs > commas else ","
    return delim if delim in first else None


def sniffed_records(text: str, trimmed: str, *, offsets: bool = True) -> tuple[str, list] | None:
    """``(delimiter, records)`` of ``text`` read strictly with the delimiter sniffed from
    ``trimmed`` (its TrimSpace); None when the first line has no delimiter or the parse fails.
    ``offsets``: as :func:`read_records`."""
    delim = sniff_delimiter(trimmed)
    if delim is None:
        return None
    try:
        return delim, read_records(text, delim, offsets=offsets)
    except CSVError:
        return None


def field_needs_quotes(field: str, delim: str) -> bool:
    """Go ``csv.Writer`` quoting: the delimiter, ``"``, CR or LF inside, a leading Unicode space,
    or exactly ``\\.``. The empty field is never quoted."""
    if field == "":
        return False
    if field == "\\.":
        return True
    if delim in field or '"' in field or "\r" in field or "\n" in field:
        return True
    return field[0] in GO_SPACE


def write_records(rows: list[list[str]], delim: str = ",", *, use_crlf: bool = False) -> str:
    """Serialize like Go's ``csv.Writer`` (spec G18): minimal quoting, ``""`` for a quote; with
    ``use_crlf`` lines end in ``\\r\\n``, ``\\n`` inside a quoted field becomes ``\\r\\n`` and a
    bare ``\\r`` inside one is dropped."""
    eol = "\r\n" if use_crlf else "\n"
    out: list[str] = []
    for row in rows:
        cells = []
        for field in row:
            if not field_needs_quotes(field, delim):
                cells.append(field)
                continue
            body = field.replace('"', '""')
            if use_crlf:
                body = body.replace("\r", "").replace("\n", "\r\n")
            cells.append('"' + body + '"')
        out.append(delim.join(cells) + eol)
    return "".join(out)
