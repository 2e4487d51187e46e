"""Text → index terms, shared by the index (documents) and the ranker (queries).

One analyzer for both sides, so whatever a memory is indexed under, a query can hit:

- words are runs of letters and digits, lower-cased; possessive ``'s`` is dropped; Latin
  diacritics are folded (``café`` → ``cafe``); full-width forms are NFKC-normalised;
- English stopwords and one-letter ASCII words are dropped; ASCII words are Porter-stemmed;
- identifiers are also indexed by their parts: ``connectionPool`` → ``connectionpool``,
  ``connect``, ``pool``; ``python3`` → ``python3``, ``python``, ``3`` (snake/kebab case and
  dotted names already split on punctuation);
- Chinese, Japanese and Korean runs, which have no spaces between words, become overlapping
  character bigrams (``数据库`` → ``数据 据库``), the usual CJK retrieval unit; a lone CJK
  character stays a unigram. A two-character query such as ``迁移`` is therefore an exact index
  term — no trigram ``LIKE`` (broken for 2-character CJK on SQLite 3.40.1) is needed.

The output tokens contain no ASCII punctuation or spaces, so SQLite's ``ascii`` FTS5 tokenizer
splits the space-joined stream back into exactly these terms.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from .stem import stem

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers herself him himself his how i if in into is it its itself just me more most my
    myself no nor not of off on once only or other our ours ourselves out over own same she should so some
    such than that the their theirs them themselves then there these they this those through to too under
    until up very was we were what when where which while who whom why will with would you your yours
    yourself yourselves also may might must shall let us etc via ok okay yes yeah oh hey hi
    s t d m o y ll re ve don doesn didn isn wasn aren weren won wouldn couldn shouldn hasn haven hadn ain""".split()
)

_ASCII_WORD = re.compile(r"[A-Za-z0-9]+")
_WORD = re.compile(r"[^\W_]+")
_POSSESSIVE = re.compile(r"(?<=[^\W_])['\u2019][sS]\b")
# Han (incl. extensions and compatibility), Hiragana, Katakana, Hangul syllables and jamo.
_CJK_CLASS = (
    "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f\U00020000-\U0002fa1f"
)
_CAMEL_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_ALNUM_PART = re.compile(r"[a-z]+|[0-9]+")


@lru_cache(maxsize=1)
def _cjk() -> tuple[re.Pattern, re.Pattern]:
    """(run splitter, single character) for CJK, compiled on the first non-ASCII text."""
    return re.compile("([" + _CJK_CLASS + "]+)"), re.compile("[" + _CJK_CLASS + "]")


def is_cjk(term: str) -> bool:
    return not term.isascii() and bool(_cjk()[1].match(term))


def _fold_latin(word: str) -> str:
    """Drop combining marks from Latin letters (``é`` → ``e``); other scripts are untouched."""
    if not any("\u00c0" <= c <= "\u024f" or "\u1e00" <= c <= "\u1eff" for c in word):
        return word
    decomposed = unicodedata.normalize("NFKD", word)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c)))


def _term(low: str) -> str | None:
    """Index form of one lower-case word, or None when it is not worth indexing."""
    if low in STOPWORDS:
        return None
    if len(low) == 1 and low.isascii() and not low.isdigit():
        return None
    return stem(low) if low.isascii() else low


def _word_terms(raw: str, out: list[str], raw_of: dict[str, str] | None) -> None:
    """Terms of one letters-and-digits run that contains no CJK."""
    pairs = _word_pairs(raw)
    for t, surface in pairs:
        out.append(t)
        if raw_of is not None:
            raw_of.setdefault(t, surface)


@lru_cache(maxsize=131072)
def _word_pairs(raw: str) -> tuple[tuple[str, str], ...]:
    """(term, lower-case surface form) pairs for one word; memoised, words repeat a lot."""
    low = raw.lower()
    if not low.isascii():
        low = _fold_latin(low)
    out: list[tuple[str, str]] = []
    t = _term(low)
    if t is not None:
        out.append((t, low))
    if len(raw) < 3 or not raw.isascii():
        return tuple(out)
    parts: list[str] = []
    tail = raw[1:]
    if tail != low[1:] and not raw.isupper():  # an upper-case letter after the first: camelCase
        parts = _CAMEL_PART.findall(raw)
    elif not raw.isalpha() and not raw.isdigit():
        parts = _ALNUM_PART.findall(low)
    if len(parts) >= 2:
        for part in parts:
            plow = part.lower()
            pt = _term(plow)
            if pt is not None and pt != t:
                out.append((pt, plow))
    return tuple(out)


def _cjk_terms(run: str, out: list[str]) -> None:
    if len(run) == 1:
        out.append(run)
        return
    out.extend(run[i : i + 2] for i in range(len(run) - 1))


def _terms(text: str, raw_of: dict[str, str] | None = None) -> list[str]:
    out: list[str] = []
    if "'" in text or "\u2019" in text:
        text = _POSSESSIVE.sub("", text)
    if text.isascii():
        for raw in _ASCII_WORD.findall(text):
            _word_terms(raw, out, raw_of)
        return out
    text = unicodedata.normalize("NFKC", text)
    cjk_split, cjk_char = _cjk()
    for raw in _WORD.findall(text):
        if raw.isascii() or not cjk_char.search(raw):
            _word_terms(raw, out, raw_of)
            continue
        for i, piece in enumerate(cjk_split.split(raw)):
            if not piece:
                continue
            if i % 2:  # odd pieces are the CJK runs
                _cjk_terms(piece.lower(), out)
            else:
                _word_terms(piece, out, raw_of)
    return out


def analyze(text: str) -> list[str]:
    """Index terms of a document, in order, duplicates kept (term frequency matters)."""
    return _terms(text)


@dataclass(frozen=True)
class QueryTerm:
    """One query term in index form plus its surface form (substring search)."""
    term: str  # the index form (stemmed word, CJK bigram or single CJK character)
    raw: str  # the lower-case surface form, used for substring (trigram) search


def query_terms(query: str) -> list[QueryTerm]:
    """Distinct terms of a query in first-seen order. Stopword-only or punctuation-only → []."""
    raw_of: dict[str, str] = {}
    seen: dict[str, QueryTerm] = {}
    for t in _terms(query, raw_of):
        if t not in seen:
            seen[t] = QueryTerm(t, raw_of.get(t, t))
    return list(seen.values())


def join_terms(terms: list[str]) -> str:
    """The FTS5 ``body`` column for these terms (the ascii tokenizer splits on the spaces)."""
    return " ".join(terms)
