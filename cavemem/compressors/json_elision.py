"""``json``: tool-output array elision (spec engine-compressors §3.1).

Arrays longer than 8 elements keep their head (3) and tail (2), every element in an error state,
numeric outliers, both sides of regime shifts, query matches (up to 50 elements in total) and
every element whose vocabulary is new; each dropped run becomes one marker element
``{"__caveman_elided__": N, "__caveman_invariants__": "all state=ok; range id=3..9"}``.
Subtrees under error/message/warning-like keys are kept whole. The output is Go's
``json.Marshal`` of the result — compact, keys sorted, numbers verbatim — except that ``<``
``>`` ``&`` stay literal (a deviation from G14 for model-visible text: ``\u003e=2.2.0`` hides a
version bound from the reader; selection still sees the canonical escaped element docs).

Determinism (spec §9 item 1, G19): objects are walked in sorted key order — the order of the
output — so the one ``__caveman_note__`` lands on the first qualifying marker in document order.

An array that already contains a marker is left exactly as it is, which makes a second pass a
no-op (pass-through). Objects whose values are all records are elided too (:mod:`.json_members`).
"""

from __future__ import annotations

import gc
import re
from contextlib import contextmanager
from itertools import accumulate, compress, repeat

from .base import Metadata, QueryCompressor
from .invariant_columns import ArrayRunSummaries
from .invariants import ELISION_NOTE_MIN_ELIDED_BYTES, elision_note, worth_eliding
from .json_canonical import Codec, decode_document
from .json_outliers import anomaly_indices, change_point_seams, complete_top_level, leaf_series, primary_series
from .linescan import line_indices, word_hit_positions
from .redundancy import MAX_PROMOTIONS, keep_non_redundant
from .relevance import RELEVANCE_THRESHOLD, ranked_candidates

ELIDED_KEY = "__caveman_elided__"
INVARIANTS_KEY = "__caveman_invariants__"
NOTE_KEY = "__caveman_note__"
IDS_KEY = "__caveman_ids__"

ARRAY_THRESHOLD = 8
UNBOUNDED_PROMOTIONS = 1 << 30
STREAM_MIN_BYTES = 8 << 20  # documents this big are elided by json_stream (issue 9: RSS)
KEEP_FIRST = 3
KEEP_LAST = 2
MAX_ITEMS = 50
ANOMALY_Z = 2.0
CHANGE_POINT_BUDGET = min(max(MAX_ITEMS // 4, 1), 8)
# markerBytes for worthEliding: len(summary) + the fixed cost of the marker object's keys
MARKER_OVERHEAD = 18 + 22 + 16

_PRESERVE_KEY = re.compile(
    r"error|errors|message|msg|stack|stacktrace|stack_trace|trace|traceback|exception|reason|detail|details|warning|warnings",
    re.I | re.ASCII,
)
ERROR_WORDS = (b"error", b"errors", b"exception", b"failed", b"failure", b"critical", b"fatal", b"crash", b"panic", b"abort", b"timeout", b"denied", b"rejected")


_CONTAINERS = (dict, list)
_REPEAT_CONTAINERS = repeat(_CONTAINERS)


def _blen(s: str) -> int:
    return len(s) if s.isascii() else len(s.encode("utf-8"))


def _byte_lengths(docs: list[str]) -> list[int]:
    """UTF-8 sizes of the docs (their ``len`` when all are ASCII, the usual case)."""
    if all(map(str.isascii, docs)):
        return list(map(len, docs))
    return list(map(_blen, docs))


def _holds_marker(arr: list) -> bool:
    """Whether an element is an elision marker (the array went through a pass already)."""
    if set(map(type, arr)) == {dict}:  # a record array: one C-speed pass
        return any(map(dict.__contains__, arr, repeat(ELIDED_KEY)))
    return any(isinstance(e, dict) and ELIDED_KEY in e for e in arr)


_preserved: dict[str, bool] = {}


def _preserves_subtree(key: str) -> bool:
    """Whether a value under ``key`` is kept whole (error/message/…-like keys); cached, as the
    same keys recur in every element."""
    got = _preserved.get(key)
    if got is None:
        got = _PRESERVE_KEY.fullmatch(key) is not None
        if len(_preserved) < 4096:
            _preserved[key] = got
    return got


def error_state_indices(docs: list[str]) -> set[int]:
    """Indices of docs matching ``(?i)\\b(error|errors|…|rejected)\\b`` (ASCII word boundaries),
    found with one sweep per word over all docs joined by newlines (canonical JSON never holds a
    raw newline, so line numbers are doc indices)."""
    blob = "\n".join(docs).encode("utf-8")
    return line_indices(blob, word_hit_positions(blob.lower(), ERROR_WORDS))


_ID_FIELD = re.compile(r"id|_id|\w+_id|uuid|key|name|slug|version", re.I | re.ASCII)
MAX_ID_CHARS = 64
IDS_SHARE_DEN = 3  # the id listing costs at most a third of the bytes it stands for


def _covered_fields(summary: str) -> set[str]:
    """Fields the summary already enumerates (``order_id: ord-004..ord-009 all 6 present``)."""
    return {e.split(": ", 1)[0] for e in summary.split("; ") if e.endswith(" present")} if summary else set()


def record_ids(e: dict, covered: set[str], fields: set[str]) -> list[str]:
    """A record's id-like string values (``id``, ``name``, ``version``, ``*_id`` …) in key
    order, fields in ``covered`` left out; the fields listed are added to ``fields``."""
    vals = []
    for k in sorted(e):
        v = e[k]
        if type(v) is not str or _ID_FIELD.fullmatch(k) is None or k in covered:
            continue  # numbers (JSONNumber) are left to the marker's ``range id=3..9``
        if 0 < len(v) <= MAX_ID_CHARS and "caveman" not in v and v.isprintable():
            vals.append(v)
            fields.add(k)
    return vals


def elided_ids(arr: list, start: int, stop: int, elided_bytes: int, covered: set[str] = frozenset()) -> tuple[str, set[str]]:
    """The identities of the elided records ``arr[start:stop]`` — their id-like string fields
    (``id``, ``name``, ``version``, ``*_id`` …), one ``name version`` entry per record — so a
    record can still be found by what names it; "" when they are not records, carry no such
    field, or the listing would cost more than a third of what it hides. Also the names of the
    fields listed."""
    rows = []
    fields: set[str] = set()
    budget = elided_bytes // IDS_SHARE_DEN
    size = 0
    for e in arr[start:stop]:
        if not isinstance(e, dict):
            return "", set()
        vals = record_ids(e, covered, fields)
        if vals:
            row = " ".join(vals)
            size += len(row) + 2
            if size > budget:
                return "", set()
            rows.append(row)
    return ", ".join(rows), fields


# a JSON string doc that is a dotted number: a version, an IP address (``"3.16.9"``, ``"10.0.0.1"``)
_DOTTED_NUMBER = re.compile(r'"v?[0-9]+(?:\.[0-9]+)+"')


class GateDocs:
    """The element docs as the redundancy gate reads them: a dotted-number string has no
    vocabulary. The gate treats a unit without a letter as content (``1973`` never matches
    ``1974``), so an ``npm view`` list of 262 versions was kept whole, every version a "new"
    word; which versions a dropped run held is what its marker's range and ``retrieve`` give.
    Records, numbers and strings with a letter (``4.0.0-rc1``, masked as usual) are unchanged.
    Indexed lazily, like the streamed path's docs."""

    __slots__ = ("docs",)

    def __init__(self, docs):
        self.docs = docs

    def __len__(self) -> int:
        return len(self.docs)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        doc = self.docs[i]
        return "" if doc[:1] == '"' and _DOTTED_NUMBER.fullmatch(doc) else doc

    def __iter__(self):
        return (self[i] for i in range(len(self)))


class _Elision:
    """One pass over one document: remembers whether anything collapsed (and so whether the
    contract note has been placed)."""

    def __init__(self, codec: Codec, query: str):
        self.codec = codec
        self.query = query
        self.collapsed = False

    def transform(self, v, preserve: bool):
        """``v`` with its long arrays elided; values without arrays come back as they are (the
        output is marshalled with sorted keys, so a dict's own order never shows)."""
        if isinstance(v, dict):
            if not any(map(isinstance, v.values(), _REPEAT_CONTAINERS)):
                return v
            marker = None if preserve else self.select_members(v)
            if marker is not None:
                v = {k: x for k, x in v.items() if k not in marker[1]}
            out = v
            for k in sorted([k for k, x in v.items() if isinstance(x, _CONTAINERS)]):  # output order
                x = v[k]
                y = self.transform(x, preserve or _preserves_subtree(k))
                if y is not x:
                    if out is v:
                        out = dict(v)
                    out[k] = y
            if marker is not None:
                out = dict(out) if out is v else out
                out.update(marker[0])
                if not self.collapsed and marker[2] >= ELISION_NOTE_MIN_ELIDED_BYTES:
                    out[NOTE_KEY] = elision_note("members")
                self.collapsed = True
            return out
        if isinstance(v, list):
            short = len(v) <= ARRAY_THRESHOLD
            if preserve or (short and not any(map(isinstance, v, _REPEAT_CONTAINERS))):
                return v  # kept whole, or short with nothing inside to elide
            if _holds_marker(v):
                return v
            if short:
                return [self.transform(e, False) if isinstance(e, _CONTAINERS) else e for e in v]
            return self.select_array(v)
        return v

    def select_members(self, v: dict) -> tuple[dict, set, int] | None:
        """For an object of records (:mod:`.json_members`): (its marker members, the keys
        dropped, the bytes they held), or None when nothing is elided."""
        if len(v) <= ARRAY_THRESHOLD:  # the common case, before any import
            return None
        from .json_members import is_record_map, keep_new_keys, marker_fields

        if not is_record_map(v, ARRAY_THRESHOLD):
            return None
        keys = list(v)
        values = [v[k] for k in keys]
        docs = self.codec.element_docs(values)
        lens = _byte_lengths(docs)
        # every dropped member stays named in the marker's listing, so the gate goes past the
        # spec's 128 promotions (as the search view does, where every path:line stays)
        # numeric outliers are left out: a map of priced models flags a record in every column
        # (1,273 of 4,878 kept on length outliers alone, 2,774 with the value columns)
        keep = self._keep_mask(values, docs, lens, {}, max_promotions=UNBOUNDED_PROMOTIONS)
        keep_new_keys(values, keep)
        elided_bytes = sum(n + 1 for n, k in zip(lens, keep) if not k)
        fields = marker_fields(keys, values, keep, elided_bytes)
        if fields is None:
            return None
        return fields, {k for k, kept in zip(keys, keep) if not kept}, elided_bytes

    def _keep_mask(
        self, arr, docs, lens: list[int], series: dict, errors: set[int] | None = None, max_promotions: int = MAX_PROMOTIONS
    ) -> list[bool]:
        """``errors``: :func:`error_state_indices` of ``docs`` when the caller has it (the
        streamed path, whose docs are re-encoded on demand). ``max_promotions``: the gate's
        spec limit, or more where every dropped unit stays named (a record map's listing)."""
        n = len(arr)
        keep = [False] * n
        for i in (*range(KEEP_FIRST), *range(n - KEEP_LAST, n)):
            keep[i] = True
        for i in error_state_indices(docs) if errors is None else errors:
            keep[i] = True
        for i in anomaly_indices(series, lens):
            keep[i] = True
        for i in change_point_seams(primary_series(series, n, lens), ANOMALY_Z, CHANGE_POINT_BUDGET):
            keep[i] = True
        if self.query:
            total = sum(keep)
            for i in ranked_candidates(keep, docs, self.query, RELEVANCE_THRESHOLD):
                if total >= MAX_ITEMS:
                    break
                keep[i] = True
                total += 1
        return keep_non_redundant(GateDocs(docs), keep, max_promotions=max_promotions)

    def select_array(self, arr: list) -> list:
        docs = self.codec.element_docs(arr)
        lens = _byte_lengths(docs)
        columns: dict = {}
        series = leaf_series(arr, columns)
        keep = self._keep_mask(arr, docs, lens, series)
        # marker summaries slice whole-array columns (shared with the outlier scan) built on first use
        summaries = ArrayRunSummaries(arr, columns, complete_top_level(series, len(arr)))
        out: list = []
        n = len(arr)
        ends = list(accumulate(lens, initial=0))  # ends[j] - ends[i]: bytes of arr[i:j]
        start = 0  # first element of the pending dropped run
        for k in (*compress(range(n), keep), n):
            if k > start:  # arr[start:k] is dropped
                elided_bytes = ends[k] - ends[start] + (k - start)
                self._flush(arr, start, k, summaries.summary(start, k, elided_bytes), elided_bytes, out)
            if k < n:
                out.append(self.transform(arr[k], False))
            start = k + 1
        return out

    def _flush(self, arr: list, start: int, stop: int, summary: str, elided_bytes: int, out: list) -> None:
        if not worth_eliding(stop - start, _blen(summary) + MARKER_OVERHEAD, elided_bytes, summary):
            out.extend(self.transform(e, False) for e in arr[start:stop])
            return
        marker: dict = {ELIDED_KEY: stop - start}
        ids, fields = elided_ids(arr, start, stop, elided_bytes, _covered_fields(summary))
        if ids:
            marker[IDS_KEY] = ids
            # "name: 13 distinct, item-10..item-9" says less than the listing itself
            summary = "; ".join(e for e in summary.split("; ") if e.split(": ", 1)[0] not in fields) if summary else ""
        if summary:
            marker[INVARIANTS_KEY] = summary
        if not self.collapsed and elided_bytes >= ELISION_NOTE_MIN_ELIDED_BYTES:
            marker[NOTE_KEY] = elision_note("elements")
        self.collapsed = True
        out.append(marker)


class JSONCompressor(QueryCompressor):
    content_type = "json"

    def compress_query(self, data: bytes, query: str) -> bytes | None:
        return self._elide(data, query)

    def compress_with_metadata(self, data: bytes, query: str) -> tuple[bytes, Metadata] | None:
        out = self._elide(data, query)
        return None if out is None else (out, Metadata(method="elision", lossless_to_model=False))

    @staticmethod
    def _elide(data: bytes, query: str) -> bytes | None:
        with _collector_paused():
            return _elide_document(data, query)


def _elide_document(data: bytes, query: str) -> bytes | None:
    if len(data) >= STREAM_MIN_BYTES:  # never the whole tree at once (same output: json_stream)
        from .json_stream import elide_document_streamed

        got = elide_document_streamed(data, query)
        if got is not NotImplemented:
            return got
    got = decode_document(data)
    if got is None:
        return None
    codec, value = got
    pass_ = _Elision(codec, query or "")
    try:
        out = pass_.transform(value, False)
        if not pass_.collapsed:
            return None  # re-serializing alone is never claimed
        return codec.marshal(out, html_escape=False).encode("utf-8")
    except RecursionError:  # nesting close to the interpreter limit: pass through
        return None


@contextmanager
def _collector_paused():
    """No cyclic garbage collection while one document is decoded and elided.

    A 10 MB array decodes to hundreds of thousands of dicts and lists, none of them in a
    cycle; every collection pass their allocation triggers would walk them all again (about a
    fifth of the elision time). Reference counting frees them as usual when
    :func:`_elide_document` returns, before the collector resumes (unless it was already off),
    so its first pass finds next to nothing left to walk. The switch is process-wide: another
    thread's cyclic garbage just waits for the end of the pass."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
