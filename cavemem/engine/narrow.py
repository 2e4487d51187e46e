"""Retrieve with a query: BM25 narrowing of a stored original (spec engine-core §6).

The original is cut into whole units — JSON records, CSV rows, or lines/paragraphs — the units
that match the query are kept in their original order, and every gap is marked, so a record is
never fragmented and two units never look adjacent when they were not. When in doubt (no units,
no hits, not shorter) the caller returns the full original.
"""

from __future__ import annotations

from .. import bm25
from ..gocompat import go_text_preserving, is_utf8, loads_verbatim, marshal, trim_space
from ..formats import gocsv

MARK = "… [caveman: non-adjacent] …"
TOP_HITS = 20


def _json_units(text: str) -> list[str] | None:
    """Units for one JSON value: sentinel-separated record groups; None when not one value."""
    try:
        value = loads_verbatim(text)
    except ValueError:
        return None
    groups: list[list[str]] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            for k in sorted(v, key=lambda s: s.encode("utf-8", "surrogatepass"), reverse=True):
                stack.append(v[k])
        elif isinstance(v, list):
            if v and all(isinstance(e, dict) for e in v):
                groups.append([marshal(e, indent="  ") for e in v])
            else:
                stack.extend(reversed(v))
    units: list[str] = [""]
    for g in groups:
        units.extend(g)
        units.append("")
    return units if groups else []


def _csv_units(text: str) -> tuple[str, list[str]] | None:
    trimmed = trim_space(text)
    if not trimmed or trimmed[0] in "{[":
        return None
    got = gocsv.sniffed_records(text, trimmed)
    if got is None:
        return None
    records = got[1]
    if len(records[0][0]) < 2 or len(records) < 3:
        return None
    slices = []
    prev = 0
    for _, end in records:
        slices.append(text[prev:end].rstrip("\r\n"))
        prev = end
    return slices[0], slices[1:]


def _line_units(text: str) -> list[str]:
    parts = text.split("\n\n") if "\n\n" in text else text.split("\n")
    return [t for t in (trim_space(p) for p in parts) if t]


def narrow(content: bytes, query: str) -> bytes | None:
    """The narrowed view of ``content`` for ``query``, or None (caller returns the original)."""
    text = go_text_preserving(content)
    prelude = None
    units = _json_units(text)
    if units is None:
        got = _csv_units(text) if is_utf8(content) else None
        if got is not None:
            prelude, units = got
        else:
            units = _line_units(text)
    if not units:
        return None
    scores = bm25.scores(query, units)
    hits = [i for i, s in enumerate(scores) if s > 0]
    if not hits:
        return None
    hits.sort(key=lambda i: -scores[i])  # stable: ties keep the earlier unit first
    hits = sorted(hits[:TOP_HITS])
    out: list[str] = []
    if prelude is not None:
        out.append(prelude + "\n")
    prev = None
    for i in hits:
        if prev is None:
            if i > 0:
                out.append(MARK + "\n\n")
        elif i == prev + 1:
            out.append("\n\n")
        else:
            out.append("\n\n" + MARK + "\n\n")
        out.append(units[i])
        prev = i
    if hits[-1] != len(units) - 1:
        out.append("\n\n" + MARK)
    return "".join(out).encode("utf-8", "surrogateescape")
