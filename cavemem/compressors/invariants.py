"""Class-invariant summaries for elision markers (spec engine-compressors §2.4).

A marker may state facts computed from *exactly* the units it replaces — constants
(``all state=ok``), small enums (``status: ok×11 stale×2``), id coverage
(``order_id: ord-004..ord-009 all 6 present``) and numeric ranges (``range id=3..9``) — so the
model can answer from the compressed view instead of retrieving. Every unit contributes a list
of ``(name, value)`` fields through one of the extractors below; anything doubtful (secrets,
long or control-laden values, a unit with no fields at all) makes the summary say less, never
something wrong.

Aggregation works per field on whole value columns (sets, ``dict.fromkeys``, ``list.count``) so a
run of 100 000 units costs a few passes at C speed rather than per-value Python bookkeeping.
``invariant_columns`` builds those columns fast for long JSON and logfmt runs.
"""

from __future__ import annotations

import re
from operator import itemgetter

from ..gocompat import loads_verbatim, parse_float, trim_space

MAX_BYTES = 160
MAX_SHARE_DEN = 4
MIN_BUDGET = 96
MIN_ELIDE_UNITS = 3
MIN_UNITS = 2
MAX_VALUE_BYTES = 40
MAX_NAME_BYTES = 32
MAX_FIELDS_PER_UNIT = 24
MAX_TRACKED_FIELDS = 48
MAX_ENUM_VALUES = 5
MAX_ENUM_VALUE_BYTES = 24
MAX_COVERAGE_VALUES = 4096
MAX_DENSE_DIGITS = 18
MIN_COVERAGE_VALUES = 2
MAX_COVERAGE_ENTRIES = 2
ABSENT = "absent"
TIMES = "\u00d7"

ELISION_NOTE_PREFIX = "\u2026 caveman: elided "
ELISION_NOTE_MIN_ELIDED_BYTES = 4096

_SENSITIVE_NAME = re.compile(r"secret|passw|token|api[_-]?key|authoriz|credential|cookie|session", re.I | re.ASCII)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_LOGFMT = re.compile(
    r"""(?:^|[\t\n\f\r ,\[{(])([A-Za-z_][A-Za-z0-9_.\-]*)=(?:"([^"]*)"|'([^']*)'|([^\t\n\f\r ,\]})]+))"""
)
# Plain decimal literals: when every value of a column matches, float() agrees with ParseFloat.
_SIMPLE_DECIMALS = re.compile(r"(?:[+-]?[0-9]+(?:\.[0-9]+)?\n)*")

_COUNT = itemgetter(1)
_INF = float("inf")
_NEG_INF = -_INF

Fields = dict  # name -> value, first occurrence within the unit wins, insertion ordered


def elision_note(unit: str) -> str:
    """The one-per-payload contract note; ``unit`` is ``lines``, ``rows`` or ``elements``."""
    return (
        f"{ELISION_NOTE_PREFIX}{unit} resemble shown {unit} and match the stated invariants \u2014 "
        "answer from this view; if you truly cannot, one broad caveman_retrieve \u2026"
    )


def worth_eliding(unit_count: int, marker_bytes: int, elided_bytes: int, summary: str) -> bool:
    """Runs of ≥ 3 units are always elided; 1–2 units only when the marker says something and
    costs at most half of what it hides."""
    if unit_count >= MIN_ELIDE_UNITS:
        return True
    return summary != "" and 2 * marker_bytes <= elided_bytes


def summary_budget(elided_bytes: int) -> int:
    """Bytes a summary may take: a quarter of the hidden bytes, at least 96, at most half, ≤ 160."""
    if elided_bytes <= 0:
        return MAX_BYTES
    b = max(elided_bytes // MAX_SHARE_DEN, MIN_BUDGET)
    b = min(b, elided_bytes // 2)
    return min(b, MAX_BYTES)


def _blen(s: str) -> int:
    return len(s) if s.isascii() else len(s.encode("utf-8", "surrogatepass"))


# -- field extractors ------------------------------------------------------------------------


def _scalar_text(v) -> str | None:
    """A JSON member's field text: strings as-is, numbers as their literal, booleans as
    ``true``/``false``; None for null, objects, arrays and empty strings."""
    t = type(v)
    if t is str:
        return v or None
    if t is bool:
        return "true" if v else "false"
    if isinstance(v, str):  # a JSON number: gocompat.Number is the literal, others expose .literal
        return getattr(v, "literal", v) or None
    return None


def _is_field(v) -> bool:
    return (isinstance(v, str) and v != "") or type(v) is bool


def object_fields(value) -> Fields:
    """Top-level scalar members of a JSON object, keys in sorted (byte) order, at most 24."""
    out: Fields = {}
    if type(value) is not dict or not value:
        return out
    for key in sorted(value):
        text = _scalar_text(value[key])
        if text is None:
            continue
        out[key] = text
        if len(out) >= MAX_FIELDS_PER_UNIT:
            break
    return out


def logfmt_fields(line: str) -> Fields:
    """``key=value`` pairs (quoted values unwrapped, empty values skipped), first 24 matches."""
    out: Fields = {}
    if "=" not in line:
        return out
    for n, (key, dq, sq, bare) in enumerate(_LOGFMT.findall(line)):
        if n >= MAX_FIELDS_PER_UNIT:
            break
        value = dq or sq or bare
        if value and key not in out:
            out[key] = value
    return out


def _looks_json_object(line: str) -> bool:
    t = trim_space(line)
    return len(t) > 1 and t[0] == "{" and t[-1] == "}"


def line_fields(line: str) -> Fields:
    """A log line's fields: a one-line JSON object's scalar members, else logfmt pairs."""
    if _looks_json_object(line):
        t = trim_space(line)
        try:
            fields = object_fields(loads_verbatim(t))
        except ValueError:
            fields = {}
        if fields:
            return fields
    return logfmt_fields(line)


def row_fields(header: list[str], row: list[str]) -> Fields:
    """Cells paired with header names by column (first 24 columns), both trimmed; empty skipped."""
    out: Fields = {}
    for name, value in zip(header[:MAX_FIELDS_PER_UNIT], row[:MAX_FIELDS_PER_UNIT]):
        name, value = trim_space(name), trim_space(value)
        if name and value and name not in out:
            out[name] = value
    return out


# -- value predicates ------------------------------------------------------------------------


def _has_control(s: str) -> bool:
    """A C0/C1 control character in ``s`` (printable text, the usual case, has none)."""
    return not s.isprintable() and _CONTROL.search(s) is not None


def value_usable(v: str) -> bool:
    if not v or _blen(v) > MAX_VALUE_BYTES or "caveman" in v or "\u2026" in v or _has_control(v):
        return False
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: not valid UTF-8
        return False
    return True


def enum_value_usable(v: str) -> bool:
    return value_usable(v) and _blen(v) <= MAX_ENUM_VALUE_BYTES and " " not in v and "\t" not in v


def _all_enum_usable(values: list[str]) -> bool:
    """``all(enum_value_usable(v) and v != "absent" for v in values)``, checked in bulk."""
    if not values or not all(values) or ABSENT in values:
        return False
    joined = " ".join(values)  # a space can only come from the separators when all is well
    if joined.count(" ") != len(values) - 1 or "\t" in joined or "caveman" in joined or "\u2026" in joined:
        return False
    if _has_control(joined):
        return False
    if joined.isascii():
        return max(map(len, values)) <= MAX_ENUM_VALUE_BYTES
    try:
        return max(len(v.encode("utf-8")) for v in values) <= MAX_ENUM_VALUE_BYTES
    except UnicodeEncodeError:  # a lone surrogate: not valid UTF-8
        return False


_enum_sets: dict[tuple[str, ...], bool] = {}


def _small_set_enum_usable(distinct: list[str]) -> bool:
    """:func:`_all_enum_usable` for an enum's few distinct values, cached: the same handful of
    values recurs in run after run of one array."""
    key = tuple(distinct)
    ok = _enum_sets.get(key)
    if ok is None:
        ok = _all_enum_usable(distinct)
        if len(_enum_sets) < 4096:
            _enum_sets[key] = ok
    return ok


# -- aggregation -----------------------------------------------------------------------------


# An entry is a (kind, text) pair; the kinds are those of _SHED_ORDER.
Entry = tuple


_parses: dict[str, bool] = {}


# Every string ParseFloat accepts (decimal, hex with p exponent, inf/infinity/nan) is made of these.
_FLOAT_CHARS = re.compile(r"[0-9a-fA-FiInNpPtTxXyY+\-._]*")


def _parses_as_float(s: str) -> bool:
    """``parse_float(s) is not None``, cached (a column's first value recurs from run to run)
    and short-cut for ASCII text holding a character no float literal has."""
    ok = _parses.get(s)
    if ok is None:
        ok = not (s.isascii() and _FLOAT_CHARS.fullmatch(s) is None) and parse_float(s) is not None
        if len(_parses) < 4096:
            _parses[s] = ok
    return ok


def _numeric_extrema(distinct: list[str]) -> tuple[str, str] | None:
    """(min, max) original strings if every value parses as a Go float, else None.

    Values are visited in first-seen order with strict comparisons, exactly like the streaming
    definition (repeats of one string can never move an extremum)."""
    if not _parses_as_float(distinct[0]):
        return None  # cheap exit for text columns
    joined = "\n".join(distinct) + "\n"
    if joined.count("\n") == len(distinct) and _SIMPLE_DECIMALS.fullmatch(joined):
        return _float_extrema(distinct, list(map(float, distinct)))
    nums = []
    for s in distinct:
        x = parse_float(s)
        if x is None:
            return None
        nums.append(x)
    lo = hi = 0
    lo_v = hi_v = nums[0]
    for i in range(1, len(nums)):
        x = nums[i]
        if x < lo_v:
            lo, lo_v = i, x
        elif x > hi_v:
            hi, hi_v = i, x
    return distinct[lo], distinct[hi]


def _float_extrema(values: list[str], nums: list[float]) -> tuple[str, str] | None:
    """:func:`_numeric_extrema` for plain decimals already converted with ``float`` (``nums[i]``
    is ``float(values[i])``; ``values`` may repeat). The first index of the min/max is the
    first-seen string with that value, which is what the streaming scan keeps: no NaN here."""
    lo_v, hi_v = min(nums), max(nums)
    if lo_v == _NEG_INF or hi_v == _INF:
        return None  # out of range: ParseFloat fails
    return values[nums.index(lo_v)], values[nums.index(hi_v)]


def _enumerate_field(name: str, values: list[str], distinct: list[str], absent: int, n_units: int) -> Entry | None:
    if not distinct or len(distinct) > MAX_ENUM_VALUES:  # a 6th distinct value: too wide
        return None
    if not _small_set_enum_usable(distinct):
        return None
    if len(distinct) + (1 if absent > 0 else 0) > MAX_ENUM_VALUES:
        return None
    # most common first; ties keep first-seen order (the sort is stable, also in reverse)
    buckets = sorted(zip(distinct, map(values.count, distinct)), key=_COUNT, reverse=True)
    if absent > 0:
        buckets.append((ABSENT, absent))
    if buckets[0][1] == 1 and absent <= 1:
        return None  # every count is 1: an identifier, not an enum
    weak = 2 * len(buckets) >= n_units
    text = name + ": " + " ".join([f"{v}{TIMES}{c}" for v, c in buckets])
    return ("enumWeak" if weak else "enum", text)


def _dense_range(distinct: list[str], lo: str, hi: str) -> bool:
    """Whether the values are one prefix + same-width digit runs covering a full range.

    ``lo``/``hi`` are the values' min and max: equal-width ASCII digit runs after one prefix
    sort like their numbers, so they are the range's ends. The shape is checked on the values
    joined by newlines, in a few C-speed passes."""
    first = distinct[0]
    prefix = first.rstrip("0123456789")
    plen = len(prefix)
    width = len(first) - plen
    if not width or width > MAX_DENSE_DIGITS or len(set(map(len, distinct))) != 1:
        return False
    joined = "\n".join(distinct)
    seams = len(distinct) - 1
    if joined.count("\n") != seams:  # a value holds a newline: check value by value
        if not all(v.startswith(prefix) for v in distinct):
            return False
        digits = "".join([v[plen:] for v in distinct])
    elif joined.count("\n" + prefix) != seams:
        return False  # some value has another prefix
    else:
        digits = joined.replace("\n" + prefix, "")[plen:]  # every value's digit run, concatenated
    if not (digits.isdigit() and digits.isascii()):
        return False  # some value has a non-digit where the run should be
    return int(hi[plen:]) - int(lo[plen:]) + 1 == len(distinct)


def _coverage_entry(name: str, distinct: list[str], absent: int) -> Entry | None:
    lo, hi = min(distinct), max(distinct)  # code-point order == UTF-8 byte order
    if len(distinct) < MIN_COVERAGE_VALUES or lo == hi:
        return None
    if absent == 0 and _dense_range(distinct, lo, hi):
        return ("coverageDense", f"{name}: {lo}..{hi} all {len(distinct)} present")
    text = f"{name}: {len(distinct)} distinct, {lo}..{hi}"
    if absent > 0:
        text += f", {ABSENT}{TIMES}{absent}"
    return ("coverage", text)


def _coverage_usable(values: list[str], distinct: list[str]) -> bool:
    if len(distinct) > MAX_COVERAGE_VALUES:
        return False
    if len(distinct) == MAX_COVERAGE_VALUES and values.index(distinct[-1]) < len(values) - 1:
        return False  # a value arrived while the set was already full
    return _all_enum_usable(distinct)


def _collect(units) -> tuple[int, dict[str, list[str]]] | None:
    """Per-field value columns (first 48 names), or None when there are < 2 units or any unit
    has no fields. ``units`` may be a lazy iterable: the scan stops at the first empty unit."""
    cols: dict[str, list[str]] = {}
    n = 0
    for fields in units:
        if not fields:
            return None
        n += 1
        for name, value in fields.items():
            col = cols.get(name)
            if col is None:
                if len(cols) >= MAX_TRACKED_FIELDS:
                    continue
                col = cols[name] = []
            col.append(value)
    if n < MIN_UNITS:
        return None
    return n, cols


_name_ok: dict[str, bool] = {}


def _name_usable(name: str) -> bool:
    """Not empty, at most 32 bytes, not secret-looking (cached: the same names recur per run)."""
    ok = _name_ok.get(name)
    if ok is None:
        ok = bool(name) and _blen(name) <= MAX_NAME_BYTES and _SENSITIVE_NAME.search(name) is None
        if len(_name_ok) < 4096:
            _name_ok[name] = ok
    return ok


def _build_entries(n: int, cols: dict[str, list[str]], floats: dict[str, list[float]] | None = None) -> list[Entry]:
    """Entries in column order. ``floats`` optionally gives, for a column whose values are all
    plain decimals, ``list(map(float, values))`` computed once for a whole array."""
    entries: list[Entry] = []
    coverage_count = 0
    for name, values in cols.items():
        if not _name_usable(name):
            continue
        seen = len(values)
        nums = floats.get(name) if floats and seen == n else None
        if nums is not None:
            # two different numbers: not a constant, and their strings differ too (the range)
            ext = _float_extrema(values, nums)
            if ext is not None and ext[0] != ext[1]:
                # plain decimals are ASCII without control characters: usable unless too long
                if len(ext[0]) <= MAX_VALUE_BYTES and len(ext[1]) <= MAX_VALUE_BYTES:
                    entries.append(("range", f"{name}={ext[0]}..{ext[1]}"))
                continue
        distinct = list(dict.fromkeys(values))
        if seen == n and len(distinct) == 1:
            if value_usable(distinct[0]):
                entries.append(("constant", f"{name}={distinct[0]}"))
            continue
        if seen == n and nums is None:  # (with floats, no range was found above)
            ext = _numeric_extrema(distinct)
            if ext is not None and ext[0] != ext[1]:
                if value_usable(ext[0]) and value_usable(ext[1]):
                    entries.append(("range", f"{name}={ext[0]}..{ext[1]}"))
                continue
        entry = _enumerate_field(name, values, distinct, n - seen, n)
        if entry is None and coverage_count < MAX_COVERAGE_ENTRIES and _coverage_usable(values, distinct):
            entry = _coverage_entry(name, distinct, n - seen)
            if entry is not None:
                coverage_count += 1
        if entry is not None:
            entries.append(entry)
    return entries


def _render(entries: list[Entry]) -> str:
    """Constants after "all", then enums and coverage in entry order, then ranges after "range"."""
    consts, middle, ranges = [], [], []
    for kind, text in entries:
        if kind == "constant":
            consts.append(text)
        elif kind == "range":
            ranges.append(text)
        else:
            middle.append(text)
    if consts:
        middle.insert(0, "all " + " ".join(consts))
    if ranges:
        middle.append("range " + " ".join(ranges))
    return "; ".join(middle)


_SHED_ORDER = ("enumWeak", "range", "coverage", "constant", "coverageDense", "enum")


def _fit(entries: list[Entry], budget: int) -> str:
    """Render, shedding one entry at a time (least valuable kind first, last one of that kind)
    until the summary fits the budget.

    Only the final text is rendered: its size follows from the entries' byte sizes (groups
    joined by "; ", constants by " " after "all ", ranges by " " after "range ")."""
    texts = [text for _, text in entries]
    sizes = list(map(len, texts)) if "".join(texts).isascii() else list(map(_blen, texts))
    kinds: list[str | None] = [kind for kind, _ in entries]  # None once shed
    total, count = sum(sizes), len(kinds)
    consts, ranges = kinds.count("constant"), kinds.count("range")
    while count:
        groups = count - consts - ranges + (consts > 0) + (ranges > 0)
        size = total + 2 * (groups - 1)
        if consts:
            size += len("all ") + consts - 1
        if ranges:
            size += len("range ") + ranges - 1
        if size <= budget:
            break
        for kind in _SHED_ORDER:  # the least valuable kind still present
            if kind in kinds:
                break
        victim = len(kinds) - 1 - kinds[::-1].index(kind)  # the last one of that kind
        kinds[victim] = None
        total -= sizes[victim]
        count -= 1
        consts -= kind == "constant"
        ranges -= kind == "range"
    if count < len(entries):
        entries = [e for e, kind in zip(entries, kinds) if kind is not None]
    return _render(entries)


def summarize_columns(n_units: int, columns: dict[str, list[str]], elided_bytes: int, floats: dict[str, list[float]] | None = None) -> str:
    """The summary from per-field value columns (absent values left out, names in order of
    first appearance, at most 48). The caller guarantees every unit had at least one field.
    ``floats``: see :func:`_build_entries`."""
    if n_units < MIN_UNITS:
        return ""
    entries = _build_entries(n_units, columns, floats)
    if not entries:
        return ""
    return _fit(entries, summary_budget(elided_bytes))


def summarize_elided(units, elided_bytes: int) -> str:
    """The invariant summary of the elided ``units`` (an iterable of field dicts), or ``""``."""
    got = _collect(units)
    if got is None:
        return ""
    return summarize_columns(got[0], got[1], elided_bytes)
