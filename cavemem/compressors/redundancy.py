"""Redundancy gate (spec engine-compressors §2.3, ``keepNonRedundant``).

After force-keeps and query keeps, a dropped unit is only allowed to stay dropped when some
*class* already shown to the model covers ≥ 90 % of its vocabulary (digit runs masked to ``#``,
so ``step 7 ok`` and ``step 12 ok`` are the same class). A unit that is not represented is
promoted to kept and becomes a class itself. After 128 promotions the payload is treated as a
document and nothing more is elided.

Vocabularies are token *sets*; a verdict for one vocabulary never changes as classes are only
ever added, which lets us cache verdicts per vocabulary (logs repeat a handful of shapes).
"""

from __future__ import annotations

import re
import unicodedata

from ..gocompat import go_lower

MAX_SEED_CLASSES = 64
MAX_PROMOTIONS = 128
MAX_VOCABULARY = 128
COVERAGE = 0.9
INDEXED_SCAN_MIN_CLASSES = 64  # more classes than this: look candidates up by token (same verdict)
SIMILAR_SIZE_RATIO = 2
# Verdict and vocabulary caches are emptied when they reach this many entries: a log whose every
# line carries a fresh id (``key=3fa9b0c1d2e4``) filled them with one frozenset per line, 80 MB
# for a 64 MiB log (issue 9). Both only remember answers that recomputing gives again.
CACHE_MAX_ENTRIES = 8192

_ASCII_DIGIT_RUN = re.compile(r"[0-9]+")
_ASCII_MASKED_TOKEN = re.compile(r"[a-z_#]+")
_ASCII_TOKEN = re.compile(r"[0-9a-z_]+")


class Vocabulary:
    """A unit's distinct tokens and whether digit runs were masked (units with a letter)."""

    __slots__ = ("tokens", "masked")

    def __init__(self, tokens: frozenset, masked: bool):
        self.tokens = tokens
        self.masked = masked

    def __eq__(self, other):
        return isinstance(other, Vocabulary) and self.tokens == other.tokens and self.masked == other.masked

    def __hash__(self):
        return hash((self.tokens, self.masked))

    def __repr__(self):
        return f"Vocabulary({sorted(self.tokens)!r}, masked={self.masked})"


def _first_distinct(tokens) -> list[str]:
    """The first :data:`MAX_VOCABULARY` distinct tokens, in order of completion."""
    out = list(dict.fromkeys(tokens))
    return out[:MAX_VOCABULARY]


def tokenize_reference(unit: str, mask: bool) -> list[str]:
    """The spec's rune walk, written plainly (used for non-ASCII text and as the test oracle).

    Lower-cased; a token is a run of letters, ``_`` and Nd digits; with ``mask`` every digit run
    inside a token becomes one ``#``. Returns the first 128 distinct tokens in order."""
    vocab: dict[str, None] = {}
    cur: list[str] = []
    in_digits = False
    for c in go_lower(unit):
        cat = unicodedata.category(c)
        if cat == "Nd":
            if mask:
                if not in_digits:
                    cur.append("#")
            else:
                cur.append(c)
            in_digits = True
        elif c == "_" or cat[0] == "L":
            cur.append(c)
            in_digits = False
        else:
            if cur:
                vocab.setdefault("".join(cur))
                cur = []
            in_digits = False
        if len(vocab) >= MAX_VOCABULARY:
            return list(vocab)
    if cur:
        vocab.setdefault("".join(cur))
    return list(vocab)[:MAX_VOCABULARY]


def tokenize(unit: str, mask: bool) -> list[str]:
    """Same result as :func:`tokenize_reference`, with a regex fast path for ASCII units."""
    if not unit.isascii():
        return tokenize_reference(unit, mask)
    low = unit.lower()
    if mask:
        return _first_distinct(_ASCII_MASKED_TOKEN.findall(_ASCII_DIGIT_RUN.sub("#", low.replace("#", " "))))
    return _first_distinct(_ASCII_TOKEN.findall(low))


def unit_vocabulary(unit: str) -> Vocabulary:
    """The masked profile when the unit has a token with a letter; otherwise the unmasked token
    set (pure numbers are content: ``1973`` never matches ``1974``)."""
    masked = tokenize(unit, True)
    for tok in masked:
        if tok != "#":  # any token other than a bare digit mask contains a letter or '_'
            return Vocabulary(frozenset(masked), True)
    return Vocabulary(frozenset(tokenize(unit, False)), False)


def represented_by(v: Vocabulary, classes: list[Vocabulary]) -> bool:
    """True when some class of the same masked kind holds at least 90 % of ``v``'s tokens."""
    if not v.tokens:
        return True
    need = int(COVERAGE * len(v.tokens) + 0.999999)
    toks = v.tokens
    for c in classes:
        if c.masked == v.masked and len(toks & c.tokens) >= need:
            return True
    return False


class _ClassIndex:
    """Classes split by masked flag, with verdict caching and last-hit-first scanning (the
    verdict is the same as scanning in order: only *whether* a class matches counts).

    ``similar_size`` (opt-in, not in the spec) also requires the class to hold fewer than
    :data:`SIMILAR_SIZE_RATIO` times the unit's tokens: a two-word line such as a commit subject
    ``rich 15.0.0`` is a fact of its own, not a fragment of every ``rich/x.py | 2 +-`` line."""

    def __init__(self, similar_size: bool = False):
        self.by_kind: dict[bool, list[frozenset]] = {True: [], False: []}
        self.postings: dict[bool, dict[str, list[int]]] = {True: {}, False: {}}
        self.represented: set[Vocabulary] = set()
        self.last_hit: dict[bool, int] = {True: 0, False: 0}
        self.similar_size = similar_size

    def add(self, v: Vocabulary) -> None:
        classes = self.by_kind[v.masked]
        postings = self.postings[v.masked]
        for t in v.tokens:
            postings.setdefault(t, []).append(len(classes))
        classes.append(v.tokens)
        self.represented.add(v)

    def covers(self, v: Vocabulary) -> bool:
        if not v.tokens or v in self.represented:
            return True
        need = int(COVERAGE * len(v.tokens) + 0.999999)
        toks = v.tokens
        classes = self.by_kind[v.masked]
        if len(classes) > INDEXED_SCAN_MIN_CLASSES:
            return self._covers_indexed(v, need)
        start = self.last_hit[v.masked]
        n = len(classes)
        limit = SIMILAR_SIZE_RATIO * len(toks) if self.similar_size else None
        for j in range(n):
            k = (start + j) % n
            if len(toks & classes[k]) >= need and (limit is None or len(classes[k]) < limit):
                self.last_hit[v.masked] = k
                self._remember(v)
                return True
        return False

    def _remember(self, v: Vocabulary) -> None:
        """Cache "covered" for ``v``: classes are only ever added, so the verdict stays true."""
        if len(self.represented) >= CACHE_MAX_ENTRIES:
            self.represented.clear()
        self.represented.add(v)

    def _covers_indexed(self, v: Vocabulary, need: int) -> bool:
        """The same verdict as the scan, over the classes holding one of the unit's rarest
        tokens: a class sharing ``need`` of the unit's tokens misses at most ``len - need`` of
        them, so it holds at least one of any ``len - need + 1`` (pigeonhole)."""
        toks, classes, postings = v.tokens, self.by_kind[v.masked], self.postings[v.masked]
        rarest = sorted(toks, key=lambda t: len(postings.get(t, ())))[: len(toks) - need + 1]
        limit = SIMILAR_SIZE_RATIO * len(toks) if self.similar_size else None
        for k in sorted({k for t in rarest for k in postings.get(t, ())}):
            if len(toks & classes[k]) >= need and (limit is None or len(classes[k]) < limit):
                self.last_hit[v.masked] = k
                self._remember(v)
                return True
        return False


_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
BULK_SHAPES_MIN_UNITS = 256


def digit_shapes(units: list[str]) -> list[str] | None:
    """One key per unit, ASCII digits replaced by ``0`` (done in bulk at C speed). Units with
    equal keys have equal *masked* vocabularies, because masking only depends on where digit
    runs are. None when a unit contains a newline (the bulk split would misalign)."""
    joined = "\n".join(units)
    if joined.count("\n") != len(units) - 1:
        return None
    raw = joined.encode("utf-8", "surrogatepass").translate(_DIGITS_TO_ZERO)
    return raw.decode("utf-8", "surrogatepass").split("\n")


SHAPE_BLOCK = 4096


class _BlockShapes:
    """:func:`digit_shapes` of ``units`` computed :data:`SHAPE_BLOCK` units at a time, in the
    order the gate walks them: a 64 MiB log's shapes are never all held at once (issue 9). A
    block with a newline inside a unit has no shapes (None), as the whole list would have."""

    def __init__(self, units: list[str]):
        self.units = units
        self.lo = self.hi = 0
        self.block: list[str] | None = None

    def get(self, i: int) -> str | None:
        if not self.lo <= i < self.hi:
            self.lo = i - i % SHAPE_BLOCK
            self.hi = min(self.lo + SHAPE_BLOCK, len(self.units))
            self.block = digit_shapes(self.units[self.lo : self.hi])
        return None if self.block is None else self.block[i - self.lo]


def keep_non_redundant(
    units: list[str], keep: list[bool], *, similar_size: bool = False, max_promotions: int = MAX_PROMOTIONS
) -> list[bool]:
    """Promote dropped units whose vocabulary no shown class covers (in place; also returned).
    ``similar_size``: see :class:`_ClassIndex` (the terminal compressor's choice).
    ``max_promotions``: the spec's 128, or more where a dropped unit still leaves a visible trace
    (the search-result view keeps every hit's ``path:line``)."""
    kept = [i for i, k in enumerate(keep) if k]
    if len(kept) == len(units):
        return keep
    step = len(kept) // MAX_SEED_CLASSES if len(kept) > MAX_SEED_CLASSES else 1
    index = _ClassIndex(similar_size)
    vocab_of: dict[str, Vocabulary] = {}

    def vocabulary(unit: str) -> Vocabulary:
        v = vocab_of.get(unit)
        if v is None:
            if len(vocab_of) >= CACHE_MAX_ENTRIES:
                vocab_of.clear()
            v = vocab_of[unit] = unit_vocabulary(unit)
        return v

    seeded = 0
    for pos in range(0, len(kept), step):
        if seeded >= MAX_SEED_CLASSES:
            break
        index.add(vocabulary(units[kept[pos]]))
        seeded += 1
    shapes = _BlockShapes(units) if len(units) - len(kept) >= BULK_SHAPES_MIN_UNITS else None
    represented_shapes: set[str] = set()  # shapes of masked units already known represented
    promotions = 0
    for i, unit in enumerate(units):
        if keep[i]:
            continue
        if promotions >= max_promotions:
            keep[i] = True
            continue
        shape = shapes.get(i) if shapes is not None else None
        if shape is not None and shape in represented_shapes:
            continue
        v = vocabulary(unit)
        if not index.covers(v):
            keep[i] = True
            promotions += 1
            index.add(v)
        if shape is not None and v.masked:  # represented now, either way
            if len(represented_shapes) >= CACHE_MAX_ENTRIES:
                represented_shapes.clear()
            represented_shapes.add(shape)
    return keep
