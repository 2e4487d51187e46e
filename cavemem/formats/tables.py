"""Strict table parsing shared by detection and the tabular compressor (spec engine-core §2.5).

Markdown pipe tables are tried first, then CSV/TSV with Go's strict CSV rules. Anything the
strict parser doubts is "not a table" — detection then falls through to the next type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..gocompat import trim_space, utf8_text
from . import gocsv, remember_last_answer

_SEP_CELL = re.compile(r":?-{3,}:?")


@dataclass
class Table:
    kind: str  # "markdown" | "csv"
    delimiter: str  # "|" for markdown, "," or "\t" for csv
    rows: list[list[str]]  # header first; markdown includes the separator row


def markdown_rows(text: str) -> list[list[str]] | None:
    body = text.replace("\r\n", "\n")
    if body.endswith("\n"):
        body = body[:-1]
    lines = body.split("\n")
    if len(lines) < 3:
        return None
    rows: list[list[str]] = []
    for line in lines:
        t = trim_space(line)
        if not (t.startswith("|") and t.endswith("|")):
            return None
        inner = t.strip("|")
        rows.append([trim_space(c) for c in inner.split("|")])
    width = len(rows[0])
    if width < 2 or len(rows[1]) != width:
        return None
    if not all(_SEP_CELL.fullmatch(c) for c in rows[1]):
        return None
    if any(len(r) != width for r in rows[2:]):
        return None
    return rows


def csv_rows(text: str) -> tuple[str, list[list[str]]] | None:
    got = gocsv.sniffed_records(text, trim_space(text))
    if got is None:
        return None
    delim, records = got
    if len(records) < 2:
        return None
    width = len(records[0][0])
    if width < 2 or width > 128:
        return None
    return delim, [r for r, _ in records]


@remember_last_answer
def parse_table(data: bytes) -> Table | None:
    """The strict parse of spec §2 step 5, or None. Requires valid UTF-8 and non-blank input.

    The last answer is remembered (detection and then the tabular compressor parse the same
    payload); callers must treat the returned rows as read-only."""
    text = utf8_text(data)
    if text is None or not trim_space(text):
        return None
    rows = markdown_rows(text)
    if rows is not None:
        return Table("markdown", "|", rows)
    got = csv_rows(text)
    if got is not None:
        return Table("csv", got[0], got[1])
    return None


def looks_tabular(data: bytes) -> bool:
    t = parse_table(data)
    return t is not None and len(t.rows) >= 8
