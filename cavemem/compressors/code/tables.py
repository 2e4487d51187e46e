"""Long data tables in code folded to their first rows (a stage of the ``code`` compressor).

Some source is mostly a literal table: CPython's ``encodings/cp860.py`` maps 256 code points
in a dict of one entry per line, C sources carry lookup tables, bundles inline arrays of
numbers. No body holds them, so body elision saved 1-2% there. A list, tuple, set, dict or
initializer whose elements stand one line each over at least :data:`MIN_ROWS` lines keeps its
first :data:`KEEP_FIRST` and last :data:`KEEP_LAST` rows; the rows between become one comment
at their indentation::

    0x0081: 0x00fc,     #  LATIN SMALL LETTER U WITH DIAERESIS
    # caveman: 120 table rows elided
    0x00ff: 0x00a0,     #  NO-BREAK SPACE

The folded rows end with a separator (or are juxtaposed strings), so the rows kept still read
as the same literal, and the output goes through the compressor's re-parse gate as a whole.
"""

from __future__ import annotations

MIN_ROWS = 24
KEEP_FIRST = 6
KEEP_LAST = 2

# grammar -> the node types of literal tables
TABLE_TYPES = {
    "python": ("list", "tuple", "set", "dictionary", "concatenated_string"),
    "c": ("initializer_list",),
    "cpp": ("initializer_list",),
    "javascript": ("array",),
    "typescript": ("array",),
    "tsx": ("array",),
    "java": ("array_initializer",),
    "go": ("literal_value",),
    "rust": ("array_expression",),
    "php": ("array_creation_expression",),
}
_LINE_COMMENT = {"python": b"#"}


def _rows(node) -> list[list] | None:
    """The elements of ``node`` grouped by the line they stand on, or None when an element
    spans lines (a nested structure, not a table) or two share a line with another's end."""
    rows: list[list] = []
    for child in node.named_children:
        if child.type == "comment":
            continue
        if child.start_point[0] != child.end_point[0]:
            return None
        if rows and rows[-1][0].start_point[0] == child.start_point[0]:
            rows[-1].append(child)
        elif rows and rows[-1][-1].end_point[0] >= child.start_point[0]:
            return None
        else:
            rows.append([child])
    return rows


def _line_end(data: bytes, pos: int) -> int:
    nl = data.find(b"\n", pos)
    end = len(data) if nl < 0 else nl
    return end - 1 if end > pos and data[end - 1 : end] == b"\r" else end


def _separated(data: bytes, node, last) -> bool:
    """The last folded element is followed by a ``,`` (or the literal juxtaposes strings)."""
    if node.type == "concatenated_string":
        return True
    nxt = last.next_sibling
    return nxt is not None and nxt.type == ","


def table_replacements(lang: str, data: bytes, tables: list) -> list[tuple[int, int, bytes]]:
    """One replacement per long table: from its row KEEP_FIRST+1 to the end of the line of its
    row -KEEP_LAST-1, replaced by the comment counting what it hides."""
    comment = _LINE_COMMENT.get(lang)
    out: list[tuple[int, int, bytes]] = []
    for node in tables:
        rows = _rows(node)
        if rows is None or len(rows) < MIN_ROWS:
            continue
        folded = rows[KEEP_FIRST : len(rows) - KEEP_LAST]
        first, last = folded[0][0], folded[-1][-1]
        if not _separated(data, node, last):
            continue
        start, end = first.start_byte, _line_end(data, last.end_byte)
        count = sum(map(len, folded))
        words = b"caveman: %d table rows elided" % len(folded) + (b" (%d elements)" % count if count > len(folded) else b"")
        text = comment + b" " + words if comment else b"/* " + words + b" */"
        if end - start > 2 * len(text):
            out.append((start, end, text))
    return out
