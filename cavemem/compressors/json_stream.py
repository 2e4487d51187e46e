"""Array elision for huge JSON documents without holding their tree (issue 9: RSS at the cap).

A 64 MiB array of records decodes to ~450k dicts — six times the input before a single element
is looked at. Documents of at least ``json_elision.STREAM_MIN_BYTES`` are walked here instead, with the
same decisions and the same output bytes as :mod:`.json_elision`:

- one pass with a *discarding* scanner (objects become their member count, numbers ``True``)
  validates the document and finds where each value of a big container ends; containers of at
  least :data:`LAZY_MIN_CHARS` stay spans of the text (:class:`LazyObject`, :class:`LazyArray`),
  smaller values are decoded as usual;
- a long lazy array is read in chunks (at most :data:`CHUNK_ITEMS` elements or
  :data:`CHUNK_CHARS` characters): each chunk's canonical element docs give byte lengths, error
  states and numeric leaf series, merged over the chunks; the docs themselves are not kept —
  the redundancy gate (and BM25, with a query) read them through :class:`LazyDocs`, which
  re-encodes one chunk at a time;
- each dropped run is decoded again for its marker (invariant summary, ids), each kept element
  for its own transform.

The threshold is ``json_elision.STREAM_MIN_BYTES``. Memory is then the text, the per-element lengths and numeric columns, one chunk, and the
largest dropped run (a document with nothing to keep but head and tail decodes its middle
whole once, for the summary). Documents with unpaired surrogate escapes take the in-memory
path (Go's U+FFFD rule is applied to the decoded tree there).
"""

from __future__ import annotations

import json
import re
from array import array
from bisect import bisect_right
from functools import partial
from itertools import compress, repeat
from operator import add

from ..gocompat import go_text
from .json_canonical import Codec, _escaped, _reject_constant
from .json_elision import (
    ARRAY_THRESHOLD,
    ELIDED_KEY,
    _byte_lengths,
    _Elision,
    _preserves_subtree,
    error_state_indices,
)
from .invariant_columns import summarize_objects
from .json_outliers import leaf_series

LAZY_MIN_CHARS = 1 << 20
CHUNK_ITEMS = 4096  # a multiple of redundancy.SHAPE_BLOCK keeps the gate's slices in one chunk
CHUNK_CHARS = 1 << 20

_WS = re.compile(r"[ \t\n\r]*")
_SKIP = json.JSONDecoder(object_pairs_hook=len, parse_int=bool, parse_float=bool, parse_constant=_reject_constant)


def _ws(text: str, i: int) -> int:
    return _WS.match(text, i).end()


class LazyArray:
    """A JSON array left in the text: the spans of its elements."""

    __slots__ = ("text", "starts", "ends", "chunks")

    def __init__(self, text: str, starts: array, ends: array):
        self.text, self.starts, self.ends = text, starts, ends
        bounds = [0]
        for k in range(1, len(starts)):
            if k - bounds[-1] >= CHUNK_ITEMS or ends[k] - starts[bounds[-1]] > CHUNK_CHARS:
                bounds.append(k)
        self.chunks = bounds  # first element of each chunk

    def __len__(self) -> int:
        return len(self.starts)

    def is_container(self, k: int) -> bool:
        return self.text[self.starts[k]] in "[{"

    def chunk_range(self, c: int) -> tuple[int, int]:
        stop = self.chunks[c + 1] if c + 1 < len(self.chunks) else len(self.starts)
        return self.chunks[c], stop


class LazyObject:
    """A JSON object left in the text: its members, each a value or a lazy container (a
    repeated key keeps its first place and its last value, as a decoded dict does)."""

    __slots__ = ("members",)

    def __init__(self, members: dict):
        self.members = members


_LAZY = (LazyArray, LazyObject)


def _placeholder(codec: Codec, i: int) -> tuple[str, str]:
    """(the placeholder string, how the encoder writes it). Like the codec's number sentinels,
    its opening (a quote, then the escape of a control character the input never escapes)
    cannot occur by accident in the marshalled output."""
    sep = codec._sep
    return f"{sep}raw{i}{sep}", f'"{_escaped(sep)}raw{i}{_escaped(sep)}"'


def _is_marker(e) -> bool:
    return (isinstance(e, dict) and ELIDED_KEY in e) or (isinstance(e, LazyObject) and ELIDED_KEY in e.members)


class _Reader:
    """Builds lazy nodes over one document's text with the codec's own decoder."""

    def __init__(self, text: str, codec: Codec):
        self.text = text
        self.codec = codec
        self.decode_at = codec._decoder.raw_decode

    def node(self, i: int, end: int | None = None):
        """The value starting at ``i`` (``end``: where it ends, if known): decoded, or lazy
        when it is a container of at least :data:`LAZY_MIN_CHARS`."""
        text = self.text
        if text[i] not in "[{":
            return self.decode_at(text, i)[0]
        if end is None:
            end = _SKIP.raw_decode(text, i)[1]
        if end - i < LAZY_MIN_CHARS:
            return self.decode_at(text, i)[0]
        return self._array(i) if text[i] == "[" else self._object(i)

    def _array(self, i: int) -> LazyArray:
        text, skip = self.text, _SKIP.raw_decode
        starts = array("q")  # 8 bytes an element, not a list of int objects
        ends = array("q")
        j = _ws(text, i + 1)
        if text[j] != "]":
            while True:
                end = skip(text, j)[1]
                starts.append(j)
                ends.append(end)
                j = _ws(text, end)
                if text[j] == "]":
                    break
                j = _ws(text, j + 1)  # the comma (the document was validated whole)
        return LazyArray(text, starts, ends)

    def _object(self, i: int) -> LazyObject:
        text, skip = self.text, _SKIP.raw_decode
        members: dict = {}
        j = _ws(text, i + 1)
        if text[j] != "}":
            while True:
                key, j = self.decode_at(text, j)
                j = _ws(text, _ws(text, j) + 1)  # past the colon
                end = skip(text, j)[1]
                members[key] = self.node(j, end)
                j = _ws(text, end)
                if text[j] == "}":
                    break
                j = _ws(text, j + 1)
        return LazyObject(members)

    # -- element access ----------------------------------------------------------------------
    def decode_range(self, arr: LazyArray, a: int, b: int) -> list:
        """The elements ``arr[a:b]`` decoded, in one scanner call."""
        if b <= a:
            return []
        return self.decode_at("[" + self.text[arr.starts[a] : arr.ends[b - 1]] + "]", 0)[0]

    def element(self, arr: LazyArray, k: int):
        return self.node(arr.starts[k], arr.ends[k])

    def materialize(self, v):
        """The decoded value of a lazy node (kept whole: preserved, short, or marker-bearing)."""
        if isinstance(v, LazyArray):
            return self.decode_range(v, 0, len(v))
        if isinstance(v, LazyObject):
            return {k: self.materialize(x) for k, x in v.members.items()}
        return v


class LazyDocs:
    """The canonical element docs of a lazy array, re-encoded one chunk at a time (the
    sequence the redundancy gate and BM25 walk; never all held at once)."""

    def __init__(self, reader: _Reader, arr: LazyArray):
        self.reader, self.arr = reader, arr
        self.lo = self.hi = 0
        self.docs: list[str] = []

    def __len__(self) -> int:
        return len(self.arr)

    def _load(self, c: int) -> None:
        self.lo, self.hi = self.arr.chunk_range(c)
        self.docs = self.reader.codec.element_docs(self.reader.decode_range(self.arr, self.lo, self.hi))

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not self.lo <= i < self.hi:
            self._load(bisect_right(self.arr.chunks, i) - 1)
        return self.docs[i - self.lo]

    def __iter__(self):
        for c in range(len(self.arr.chunks)):
            self._load(c)
            yield from self.docs


class _SeriesMerge:
    """Numeric leaf series of successive chunks merged into the whole array's: indices stay a
    ``range`` while a path is present in every element so far."""

    def __init__(self):
        self.paths: dict[str, list] = {}  # path -> [idx (range or list), values]
        self.n = 0

    def add(self, chunk: dict, offset: int, size: int) -> None:
        for path, (idx, vals) in chunk.items():
            got = self.paths.get(path)
            whole = len(idx) == size
            if got is None:
                got = self.paths[path] = [range(0) if offset == 0 else [], []]
            if isinstance(got[0], range) and whole and len(got[0]) == offset:
                got[0] = range(offset + size)
            else:
                if isinstance(got[0], range):
                    got[0] = list(got[0])
                got[0].extend(map(add, idx, repeat(offset)))
            got[1].extend(vals)
        self.n = offset + size

    def series(self) -> dict:
        return {path: (idx, vals) for path, (idx, vals) in self.paths.items()}


class _StreamElision(_Elision):
    """:class:`_Elision` over lazy nodes: the same transform, decisions and output."""

    def __init__(self, codec: Codec, query: str, reader: _Reader):
        super().__init__(codec, query)
        self.reader = reader
        self.raws: list[str] = []  # output text of elided lazy arrays, by placeholder number

    def _raw(self, text: str) -> str:
        """A placeholder value standing for ``text`` (already marshalled output): the elided
        array is kept as text, not as a tree of its kept elements (issue 9: RSS)."""
        self.raws.append(text)
        return _placeholder(self.codec, len(self.raws) - 1)[0]

    def render(self, value) -> str:
        """``marshal(value)`` of the output with every placeholder replaced by its text (the
        latest first: an array's text may hold the placeholders of arrays inside it)."""
        out = self.codec.marshal(value, html_escape=False)
        for i in range(len(self.raws) - 1, -1, -1):
            encoded = _placeholder(self.codec, i)[1]
            if encoded in out:
                out = out.replace(encoded, self.raws[i], 1)
            self.raws[i] = ""
        return out

    def transform(self, v, preserve: bool):
        if isinstance(v, LazyObject):
            return self._object(v, preserve)
        if isinstance(v, LazyArray):
            return self._array(v, preserve)
        return super().transform(v, preserve)

    def _object(self, v: LazyObject, preserve: bool):
        if preserve:
            return self.reader.materialize(v)
        if all(type(x) in (dict, LazyObject) for x in v.members.values()):  # maybe a record map: decide as whole
            return super().transform({k: self.reader.materialize(x) for k, x in v.members.items()}, False)
        out = dict(v.members)
        for k in sorted([k for k, x in out.items() if isinstance(x, (dict, list, *_LAZY))]):
            out[k] = self.transform(out[k], _preserves_subtree(k))
        return out

    def _array(self, v: LazyArray, preserve: bool):
        n = len(v)
        short = n <= ARRAY_THRESHOLD
        if preserve or (short and not any(map(v.is_container, range(n)))):
            return self.reader.materialize(v)
        if short:
            elements = [self.reader.element(v, k) for k in range(n)]
            if any(_is_marker(e) for e in elements):
                return self.reader.materialize(v)
            return [self.transform(e, False) if isinstance(e, (dict, list, *_LAZY)) else e for e in elements]
        return self._select(v)

    def _scan(self, v: LazyArray):
        """Per-element byte lengths, error-state indices and numeric series, chunk by chunk;
        None when an element is an elision marker (the array is then left as it is)."""
        lens = array("q")
        errors: set[int] = set()
        merge = _SeriesMerge()
        for c in range(len(v.chunks)):
            a, b = v.chunk_range(c)
            items = self.reader.decode_range(v, a, b)
            if any(isinstance(e, dict) and ELIDED_KEY in e for e in items):
                return None
            docs = self.codec.element_docs(items)
            lens.extend(_byte_lengths(docs))
            errors.update(map(add, error_state_indices(docs), repeat(a)))
            merge.add(leaf_series(items), a, b - a)
        return lens, errors, merge.series()

    def _select(self, v: LazyArray):
        got = self._scan(v)
        if got is None:
            return self.reader.materialize(v)
        lens, errors, series = got
        keep = self._keep_mask(v, LazyDocs(self.reader, v), lens, series, errors)
        pieces: list[str] = []  # marshalled output elements (their trees are not kept)
        piece = partial(self.codec.marshal, html_escape=False)
        out: list = []
        n = len(v)
        start = 0
        for k in (*compress(range(n), keep), n):
            if k > start:  # v[start:k] is dropped
                run = self.reader.decode_range(v, start, k)
                elided_bytes = sum(lens[start:k]) + (k - start)
                self._flush(run, 0, len(run), summarize_objects(run, elided_bytes), elided_bytes, out)
            if k < n:
                out.append(self.transform(self.reader.element(v, k), False))
            pieces.extend(map(piece, out))
            out.clear()
            start = k + 1
        return self._raw("[" + ",".join(pieces) + "]")


def elide_document_streamed(data: bytes, query: str):
    """The elided document (bytes), None when nothing collapsed or it is not one JSON value;
    NotImplemented when the in-memory path must decide (unpaired surrogate escapes)."""
    got = _elided_value(data, query)
    if got is None or got is NotImplemented:
        return got
    pass_, out = got  # the text and its spans are gone by now: the output is marshalled alone
    try:
        return pass_.render(out).encode("utf-8")
    except RecursionError:
        return None


def _elided_value(data: bytes, query: str):
    """(the pass, the elided value) — None, or NotImplemented, as :func:`elide_document_streamed`."""
    text = go_text(data)
    codec = Codec.for_text(text)
    if codec is None:
        return None
    if codec._fix_surrogates:
        return NotImplemented
    n = len(text)
    i = _ws(text, 0)
    try:
        end = _SKIP.raw_decode(text, i)[1]  # validates the whole document
    except (ValueError, RecursionError):
        return None
    j = _ws(text, end)
    if j < n and text[j] not in "]}":
        return None  # more than one value (G13 tolerates only trailing ] / } garbage)
    pass_ = _StreamElision(codec, query or "", _Reader(text, codec))
    try:
        out = pass_.transform(pass_.reader.node(i, end), False)
    except RecursionError:
        return None
    pass_.reader = None  # the text
    return (pass_, out) if pass_.collapsed else None
