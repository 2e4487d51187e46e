"""Fast column builders for invariant summaries of long runs (spec engine-compressors §2.4).

``summarize_elided(map(extract, units))`` is the definition; for a 10 MB array or log the
per-unit Python work would dominate, so these build the same per-field value columns in bulk:

- :func:`summarize_objects` — JSON elements, one C-speed pass per key while the run has a
  bounded key set (else the per-unit definition);
- :class:`ArrayRunSummaries` — the same for many runs of one array (the json compressor's
  thousands of elided runs between scattered kept elements): columns are built once for the
  whole array and sliced per run;
- :func:`summarize_lines` — log lines, one regex pass over the whole run, and plain list
  slicing when every line has the same keys in the same order.

Both are property-tested against the definition.
"""

from __future__ import annotations

import re
from itertools import accumulate, chain
from operator import is_not, itemgetter

from .invariants import (
    _SIMPLE_DECIMALS,
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


def _text_column(raw: list) -> list:
    """``list(map(_scalar_text, raw))`` with C-speed passes for the usual all-string and
    all-number columns (``None`` marks an element where the key is not a field)."""
    types = set(map(type, raw))
    if types <= {str, type(None)}:
        return raw if "" not in raw else [v or None for v in raw]
    if not any(issubclass(t, str) or t is bool for t in types):
        return [None] * len(raw)  # only nulls, lists and objects: never a field
    if len(types) == 1:
        bulk = getattr(next(iter(types)), "literals", None)  # json_canonical.JSONNumber
        if bulk is not None:
            return bulk(raw)
    return list(map(_scalar_text, raw))


def _decimal_floats(text: list[str], known: list[float] | None) -> list[float] | None:
    """``list(map(float, text))`` when every value is a plain decimal (then ``float`` agrees
    with ParseFloat, see ``invariants._numeric_extrema``), else None. ``known``, when given, is
    that list already computed by the caller."""
    if not text or not _SIMPLE_DECIMALS.fullmatch(text[0] + "\n"):
        return None  # a text column: fails on its first value
    joined = "\n".join(text) + "\n"
    if joined.count("\n") != len(text) or not _SIMPLE_DECIMALS.fullmatch(joined):
        return None
    return known if known is not None and len(known) == len(text) else list(map(float, text))


class ArrayRunSummaries:
    """``summarize_objects(arr[start:stop], elided_bytes)`` for many runs of one array.

    The per-key field-text columns (and, for plain-decimal columns, their floats) are built on
    the first request for the whole array; each run then slices them. Runs holding an element
    that is not a dict of at most 24 members, and arrays with more than 64 distinct keys, take
    :func:`summarize_objects` itself."""

    def __init__(self, arr: list, columns: dict[str, list | None] | None = None, number_floats: dict[str, list[float]] | None = None):
        """Optional work the caller has done already (the json compressor, in its outlier scan):
        ``columns`` — every key of the elements (all of them dicts) -> the list of its values
        when every element has it, else None; ``number_floats`` — for keys whose value is a
        JSON number in every element, ``float`` of each literal, in element order."""
        self._arr = arr
        self._columns = columns or {}
        self._number_floats = number_floats or {}
        self._built = False

    def _build(self) -> None:
        arr = self._arr
        self._built = True
        regular = set(map(type, arr)) == {dict} and max(map(len, arr)) <= MAX_FIELDS_PER_UNIT  # the usual record array
        if regular:
            self._irregular = None
            dicts = arr
        else:
            flags = [type(e) is not dict or len(e) > MAX_FIELDS_PER_UNIT for e in arr]
            self._irregular = list(accumulate(flags, initial=0))
            dicts = [e for e, bad in zip(arr, flags) if not bad]
        known = self._columns if regular else {}
        keys = known or set().union(*dicts)
        self._columnar = len(keys) <= _MAX_COLUMNAR_KEYS
        if not self._columnar:
            return
        dense: list[tuple[str, list, list[float] | None]] = []
        sparse: list[tuple[str, list, list[int]]] = []
        for key in sorted(keys):
            raw = known.get(key)
            if raw is None and regular and key not in known:
                try:
                    raw = list(map(itemgetter(key), arr))
                except KeyError:
                    pass
            if raw is None:
                raw = [e.get(key) if type(e) is dict else None for e in arr]
            text = _text_column(raw)
            if None not in text:
                dense.append((key, text, _decimal_floats(text, self._number_floats.get(key))))
                continue
            present = list(accumulate(map(is_not, text, [None] * len(text)), initial=0))
            if present[-1]:  # else never a field (say, always a list)
                sparse.append((key, text, present))
        self._dense, self._sparse = dense, sparse
        if dense:
            self._fieldless = None  # every element has a field
        else:
            has_field = map(any, zip(*(text for _, text, _ in sparse))) if sparse else [False] * len(arr)
            self._fieldless = list(accumulate((not h for h in has_field), initial=0))

    def summary(self, start: int, stop: int, elided_bytes: int) -> str:
        """The invariant summary of ``arr[start:stop]`` (see :func:`summarize_objects`)."""
        n = stop - start
        if n < MIN_UNITS:
            return ""
        if not self._built:
            self._build()
        if not self._columnar or (self._irregular is not None and self._irregular[stop] != self._irregular[start]):
            return summarize_objects(self._arr[start:stop], elided_bytes)
        if self._fieldless is not None and self._fieldless[stop] != self._fieldless[start]:
            return ""  # an element without fields switches the summary off
        cols: dict[str, list[str]] = {}
        floats: dict[str, list[float]] = {}
        for key, text, nums in self._dense:  # present in every element: first seen in the first
            cols[key] = text[start:stop]
            if nums is not None:
                floats[key] = nums[start:stop]
        late = []
        for key, text, present in self._sparse:
            seen = present[stop] - present[start]
            if not seen:
                continue
            values = text[start:stop]
            if seen == n:
                late.append((0, key, values))
            else:
                values = list(filter(None, values))  # field texts are non-empty strings
                late.append((text.index(values[0], start) - start, key, values))  # Nones before it are absences
        if late:  # order by first appearance, sorted keys within a unit
            columns = sorted([(0, key, values) for key, values in cols.items()] + late, key=_FIRST_AND_KEY)
            cols = {key: values for _, key, values in columns[:MAX_TRACKED_FIELDS]}
        elif len(cols) > MAX_TRACKED_FIELDS:
            cols = dict(list(cols.items())[:MAX_TRACKED_FIELDS])
        return summarize_columns(n, cols, elided_bytes, floats)


_FIRST_AND_KEY = itemgetter(0, 1)
