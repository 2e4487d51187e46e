"""Fast column builders for invariant summaries of long runs (spec engine-compressors §2.4).

``summarize_elided(map(extract, units))`` is the definition; for a 10 MB array or log the
per-unit Python work would dominate, so these build the same per-field value columns in bulk:

- :func:`summarize_objects` — JSON elements, one C-speed pass per key while the run has a
  bounded key set (else the per-unit definition);
- :func:`summarize_lines` — log lines, one regex pass over the whole run, and plain list
  slicing when every line has the same keys in the same order.

Both are property-tested against the definition.
"""

from __future__ import annotations

import re
from itertools import chain
from operator import itemgetter

from .invariants import (
    MAX_FIELDS_PER_UNIT,
    MAX_TRACKED_FIELDS,
    MIN_UNITS,
    _is_field,
    _looks_json_object,
    _scalar_text,
    line_fields,
    object_fields,
    summarize_columns,
    summarize_elided,
)

_MAX_COLUMNAR_KEYS = 64  # above this many distinct keys, per-column passes would cost more than per-unit ones

# The same pattern over many lines joined by "\n": a bare "\n" match marks each line's end, and
# quoted values may not cross lines. ``^`` is multi-line, so every line start still anchors.
_LOGFMT_LINES = re.compile(
    r"""(\n)|(?:^|[\t\f\r ,\[{(])([A-Za-z_][A-Za-z0-9_.\-]*)=("[^"\n]*"|'[^'\n]*'|[^\t\n\f\r ,\]})]+)""",
    re.M,
)
BULK_LINES_MIN = 64  # shorter runs take the per-line definition
_SECOND = itemgetter(1)
_THIRD = itemgetter(2)


def _unwrap(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _regular_logfmt_columns(matches: list[tuple[str, str, str]], n_lines: int) -> dict[str, list[str]] | None:
    """Columns by slicing when every line has the same keys in the same order (no repeats, no
    empty quoted values, at most 24): the common shape of a logfmt run. None otherwise."""
    keys = list(map(_SECOND, matches))  # "" marks a line end
    try:
        m = keys.index("")
    except ValueError:
        return None
    template = keys[: m + 1]
    if not 0 < m <= MAX_FIELDS_PER_UNIT or len(set(template)) != m + 1 or keys != template * n_lines:
        return None
    values = list(map(_THIRD, matches))
    cols: dict[str, list[str]] = {}
    for j in range(m):
        col = values[j :: m + 1]
        flat = "".join(col)
        if '"' in flat or "'" in flat:
            col = list(map(_unwrap, col))
            if "" in col:
                return None  # an empty quoted value: the field is absent on that line
        cols[template[j]] = col
    return cols


def _logfmt_columns(lines: list[str]) -> tuple[int, dict[str, list[str]]] | None:
    """``_collect(map(logfmt_fields, lines))`` in one regex pass over the joined lines."""
    matches = _LOGFMT_LINES.findall("\n".join(lines) + "\n")
    regular = _regular_logfmt_columns(matches, len(lines))
    if regular is not None:
        return len(lines), regular
    cols: dict[str, list[str]] = {}
    seen: set[str] = set()
    count = 0
    for nl, key, value in matches:
        if nl:
            if not seen:
                return None  # a line without fields switches the summary off
            seen = set()
            count = 0
            continue
        count += 1
        if count > MAX_FIELDS_PER_UNIT or key in seen:
            continue
        value = _unwrap(value)
        if not value:
            continue
        seen.add(key)
        col = cols.get(key)
        if col is None:
            if len(cols) >= MAX_TRACKED_FIELDS:
                continue
            col = cols[key] = []
        col.append(value)
    return len(lines), cols


def summarize_lines(lines: list[str], elided_bytes: int) -> str:
    """``summarize_elided(map(line_fields, lines), elided_bytes)``, fast for long logfmt runs."""
    if len(lines) < BULK_LINES_MIN or not line_fields(lines[0]) or any(_looks_json_object(s) for s in lines if "{" in s):
        return summarize_elided(map(line_fields, lines), elided_bytes)
    got = _logfmt_columns(lines)
    return "" if got is None else summarize_columns(got[0], got[1], elided_bytes)


def _object_columns(run: list) -> tuple[int, dict[str, list[str]]] | None:
    """``_collect(map(object_fields, run))`` computed column by column (C-speed passes per key).

    Only used when every element is a dict of at most 24 members and the run has a bounded key
    set; otherwise the per-unit path is just as fast and exactly the definition."""
    keys = list(dict.fromkeys(chain.from_iterable(run)))
    columns: list[tuple[int, str, list[str]]] = []
    for key in keys:
        raw = [e[key] for e in run if key in e]
        types = set(map(type, raw))
        if types == {str}:
            vals = [v for v in raw if v]
        elif len(types) == 1 and hasattr(next(iter(types)), "literal"):
            vals = [v.literal for v in raw]
        else:
            vals = [t for t in map(_scalar_text, raw) if t is not None]
        if not vals:
            continue
        first = 0 if _is_field(run[0].get(key)) else next(i for i, e in enumerate(run) if _is_field(e.get(key)))
        columns.append((first, key, vals))
    columns.sort(key=lambda c: (c[0], c[1]))  # first appearance; sorted keys within a unit
    return len(run), {key: vals for _, key, vals in columns[:MAX_TRACKED_FIELDS]}


def summarize_objects(run: list, elided_bytes: int) -> str:
    """``summarize_elided(map(object_fields, run), elided_bytes)``, fast for record arrays."""
    if len(run) < MIN_UNITS:
        return ""
    for e in run:
        if type(e) is not dict or len(e) > MAX_FIELDS_PER_UNIT:
            return summarize_elided(map(object_fields, run), elided_bytes)
    if not all(any(map(_is_field, e.values())) for e in run):
        return ""  # an element without fields switches the summary off
    keys = set(chain.from_iterable(run))
    if len(keys) > _MAX_COLUMNAR_KEYS:
        return summarize_elided(map(object_fields, run), elided_bytes)
    n, cols = _object_columns(run)
    return summarize_columns(n, cols, elided_bytes)
