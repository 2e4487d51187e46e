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
    """A strictly parsed Markdown / CSV / TSV table."""
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
    got = gocsv.sniffed_records(text, trim_space(text), offsets=False)  # no (fields, offset) pair per row
    if got is None:
        return None
    delim, records = got
    if len(records) < 2:
        return None
    width = len(records[0])
    if width < 2 or width > 128:
        return None
    return delim, records


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


# -- shapes detection names tabular that the strict parse does not read ------------------------
# (space-aligned and box-drawn program output, tab-separated data under a ``#`` comment block).
# Detection only: ``parse_table`` stays strict, so the tabular compressor declines these until
# it learns to keep their lines verbatim.

_BOX_EDGE = "│┃║|┌┏╔╭└┗╚╰├┣╠┐┓╗╮┘┛╝╯┤┫╣+"
# a rule under a header: only rule characters (``+++-====-===``, ``---- ----``, ``──┼──``)
_RULE = re.compile(r"[-=+|─━┼ ]{10,}")
_HEADER_CELL = re.compile(r"[A-Za-z%|/][A-Za-z0-9%_/().:?|-]*")


def looks_program_table(data: bytes) -> bool:
    """A box-drawn, ruled or space-aligned table (``sqlite3 -box``/``-column``, ``pip list``,
    ``dpkg -l``, ``ps aux``, ``df``) or a ``#``-commented TSV file: at least 8 rows."""
    text = utf8_text(data[: 1 << 16])
    if text is None:
        text = data[: 1 << 16].decode("utf-8", "ignore")  # the cut may split a character
    lines = [line.rstrip("\r") for line in text.split("\n")]
    if len(data) > 1 << 16:
        lines.pop()  # the cut line
    lines = [line for line in lines if line.strip()]
    if len(lines) < 9:
        return False
    if _option_list(lines):
        return False
    return _boxed(lines) or _ruled(lines) or _aligned(lines) or _commented_tsv(lines)


# a file mode opening an ``ls -l`` row (``-rwxr-xr-x``, ``drwxr-sr-x``): no option flag
FILE_MODE = r"[-dlcbps][r-][w-][xsS-][r-][w-][xsS-][r-][w-][xtT-]"
_OPTION_ROW = re.compile(rf"[\t ]*(?!{FILE_MODE})--?[A-Za-z\[]")


def _option_list(lines: list[str]) -> bool:
    """A help text's option list (``-bail   stop after an error``): half the lines open on a
    flag; its aligned second column is prose, not a table's cells."""
    return sum(1 for line in lines if _OPTION_ROW.match(line)) * 2 >= len(lines)


def _boxed(lines: list[str]) -> bool:
    """Every line opens and closes on a box edge and the header has an inner separator."""
    if not all(line[0] in _BOX_EDGE and line[-1] in _BOX_EDGE for line in lines):
        return False
    return any(line[0] in "│┃║|" and sum(line.count(c) for c in "│┃║|") >= 3 for line in lines[:3])


def _ruled(lines: list[str]) -> bool:
    """A header, then a rule whose runs line up with it, within the first lines; the rows below
    leave the rule's gaps blank."""
    for i in range(1, min(len(lines) - 8, 8)):
        rule = lines[i]
        if _RULE.fullmatch(rule) is None:
            continue
        fill = max("-=─━", key=rule.count)  # the runs' character; any other one is a gap
        gaps = [j for j, c in enumerate(rule) if c != fill and 0 < j < len(rule.rstrip()) - 1]
        gaps = [j for j in gaps if rule[j - 1] == fill]  # each gap's first column
        rows = lines[i + 1 :]
        blank = sum(1 for row in rows if all(j >= len(row) or row[j] in " |│" for j in gaps[:4]))
        return bool(gaps) and blank * 10 >= len(rows) * 9
    return False


def _aligned(lines: list[str]) -> bool:
    """``ps``/``df``/``ss`` style: a header of word cells, then rows that share at least two
    blank gutters with it, with text on both sides of each gutter in nearly every row. The header
    may follow a title line or two (``readelf -s``: ``Symbol table '.dynsym' contains 9 entries:``)."""
    return any(_aligned_under(lines[i], lines[i + 1 : i + 200]) for i in range(3))


def _aligned_under(header: str, rows: list[str]) -> bool:
    cells = header.split()
    if len(cells) < 3 or not all(_HEADER_CELL.fullmatch(c) for c in cells):
        return False
    width = len(header)
    blank = [c == " " for c in header]
    for row in rows:
        for j in range(min(len(row), width)):
            if row[j] != " ":
                blank[j] = False
    gutters = [j for j in range(1, width - 1) if blank[j] and not blank[j - 1]]  # each gutter's first column
    sided = [g for g in gutters if sum(1 for r in rows if r[:g].strip() and r[g:].strip()) * 10 >= len(rows) * 9]
    return len(sided) >= 2


def _commented_tsv(lines: list[str]) -> bool:
    """Tab-separated rows under ``#`` comments (tzdata's ``*.tab``): every row has two or more
    fields, in at most two counts (a trailing optional column)."""
    rows = [line for line in lines if not line.startswith("#")]
    if len(rows) < 8 or len(rows) == len(lines) or not all("\t" in row for row in rows):
        return False
    counts = {row.count("\t") + 1 for row in rows}
    return len(counts) <= 2 and max(counts) - min(counts) <= 1


def looks_plain_rows(data: bytes) -> bool:
    """Rows with no header the strict readers know (``column -t``, ``vmstat``, padded
    ``dpkg-query`` fields, ``sqlite3 -list``): at least 8 lines, every one split by the same
    number of ``|`` or ``:`` (two or more), or nine in ten sharing two or more blank gutters with
    text on both sides. Detection asks this only of what would otherwise be prose."""
    text = data[: 1 << 16].decode("utf-8", "ignore")
    lines = [line.rstrip("\r") for line in text.split("\n")]
    if len(data) > 1 << 16:
        lines.pop()
    lines = [line for line in lines if line.strip()]
    if len(lines) < 8 or _option_list(lines):
        return False
    for sep in "|;":
        counts = {line.count(sep) for line in lines}
        if len(counts) == 1 and min(counts) >= 2:
            return True
    return _gutters(lines[:200]) >= 2


def _gutters(lines: list[str]) -> int:
    """Columns blank in nine lines in ten, each with text on both sides in nine lines in ten."""
    width = max(len(line) for line in lines)
    blank = [0] * width
    for line in lines:
        for j in range(width):
            if j >= len(line) or line[j] == " ":
                blank[j] += 1
    need = len(lines) * 9 / 10
    cols = [j for j in range(1, width - 1) if blank[j] >= need and blank[j - 1] < need]
    return sum(1 for g in cols if sum(1 for r in lines if r[:g].strip() and r[g:].strip()) >= need)
