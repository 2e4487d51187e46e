"""The factsheet (spec pixel-and-mem A14.7): exact identifiers appended as text after the images.

A model reading a 5x8-px image can misread ``9d121ac`` as ``9d12lac``; paths, ids, versions,
flags and numbers are therefore also given verbatim so the model quotes them instead of
transcribing pixels. Patterns are ASCII-only (Go RE2 semantics) and run per white-space chunk of
at most 512 bytes, which keeps every regex on short input.
"""

from __future__ import annotations

import re

SCAN_BYTES = 262_144
MAX_DISTINCT = 2048
MAX_TOKENS = 64
MAX_URLS = 8

_A = re.ASCII
_URL = re.compile(r"""\bhttps?://[^\s)"'<>]+""", _A)
_PATTERNS: tuple[tuple[str, re.Pattern, bool], ...] = (
    ("url", _URL, False),
    ("uuid", re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b", _A), False),
    ("path_ext", re.compile(r"(?:[\w@~+-]+)?(?:/[\w.@+-]+)+\.[A-Za-z]\w{0,8}\b", _A), False),
    ("abs_path", re.compile(r"/[\w.@+-]+(?:/[\w.@+-]+)+/?", _A), False),
    ("hex", re.compile(r"\b[0-9a-f]{7,40}\b", _A), True),
    ("version", re.compile(r"\bv?\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?\b", _A), False),
    ("flag", re.compile(r"(?:^|[^\w-])(--?[A-Za-z][\w-]+)", _A), False),
    ("number", re.compile(r"\b\d[\d,_]{3,}\b", _A), False),
    ("decimal", re.compile(r"\b\d+\.\d+\b", _A), False),
    ("const", re.compile(r"\b[A-Z][A-Z0-9]{2,}(?:_[A-Z0-9]+)+\b", _A), False),
    ("ticket", re.compile(r"\b[A-Z][A-Z0-9]+(?:-[A-Z0-9]+)+\b", _A), True),
)
_NEEDS = {"url": "http", "path_ext": "/", "abs_path": "/", "flag": "-"}  # cheap pre-checks
_SPLIT = re.compile(r"[\t\n\f\r ]+")
_HAS_DIGIT = re.compile(r"\d", _A)
_TIER0 = (
    re.compile(r"[0-9a-f]{7,40}", _A),
    re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", _A),
    re.compile(r"[A-Z][A-Z0-9]{2,}(?:_[A-Z0-9]+)+", _A),
    re.compile(r"[A-Z][A-Z0-9]+(?:-[A-Z0-9]+)+", _A),
    re.compile(r"--?[A-Za-z][\w-]+", _A),
    re.compile(r"\d[\d,_]*|\d+\.\d+", _A),
)

OPENING = (
    "[Exact identifiers from the rendered context above (paths, ids, versions, numbers) \u2014 quote these "
    "verbatim instead of transcribing them from the image"
)


def _blen(s: str) -> int:
    return len(s.encode("utf-8", "surrogatepass"))


_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_PREFIX = _WORD | frozenset("@~+-")
_SEGMENT = _WORD | frozenset(".@+-")


def _path_ext_spans(chunk: str) -> list[tuple[int, str]]:
    """``finditer`` of the path-with-extension pattern in linear time.

    Python's backtracking engine is quadratic on it (every start inside a long ``/a/a/a…`` run
    is retried); Go's RE2 is not. Leftmost-first greedy semantics reduce to: from each ``/``,
    take the maximal ``(/segment)+`` region; the match ends after the *last* ``.`` in that region
    that follows a segment character and is followed by a letter plus at most 8 more word
    characters; it starts at the run of prefix characters just before the ``/``."""
    out: list[tuple[int, str]] = []
    n = len(chunk)
    pos = 0
    s = chunk.find("/", pos)
    while s >= 0:
        start = s
        while start > pos and chunk[start - 1] in _PREFIX:
            start -= 1
        end = s  # extent of (/segment)+ from s
        while end < n and chunk[end] == "/" and end + 1 < n and chunk[end + 1] in _SEGMENT:
            end += 1
            while end < n and chunk[end] in _SEGMENT:
                end += 1
        match_end = -1
        t = end - 1
        while t > s:
            if chunk[t] == "." and chunk[t - 1] != "/" and t + 1 < n and chunk[t + 1].isascii() and chunk[t + 1].isalpha():
                w = t + 2
                while w < n and chunk[w] in _WORD:
                    w += 1
                if w - (t + 2) <= 8:
                    match_end = w
                    break
            t -= 1
        if match_end > 0:
            out.append((start, chunk[start:match_end]))
            pos = match_end
            s = chunk.find("/", pos)
        else:
            s = chunk.find("/", max(end, s + 1))
    return out


def extract_entries(text: str) -> dict[str, int]:
    """Identifier -> occurrences (one per distinct span per chunk), in first-seen order."""
    head = text.encode("utf-8", "surrogatepass")[:SCAN_BYTES].decode("utf-8", "ignore")
    counts: dict[str, int] = {}
    for chunk in _SPLIT.split(head):
        n = _blen(chunk)
        if n < 3 or n > 512:
            continue
        seen: set[tuple[int, str]] = set()
        for kind, pattern, needs_digit in _PATTERNS:
            need = _NEEDS.get(kind)
            if need and need not in chunk:
                continue
            group = 1 if kind == "flag" else 0
            spans = _path_ext_spans(chunk) if kind == "path_ext" else ((m.start(group), m.group(group)) for m in pattern.finditer(chunk))
            for start, raw in spans:
                token = raw.rstrip(".,;:!?")
                if not 3 <= _blen(token) <= 120:
                    continue
                if needs_digit and not _HAS_DIGIT.search(token):
                    continue
                key = (start, token)
                if key in seen:
                    continue
                seen.add(key)
                counts[token] = counts.get(token, 0) + 1
        if len(counts) >= MAX_DISTINCT:
            break
    return counts


def extract_entries_all_pages(text: str, chars_per_page: int) -> dict[str, int]:
    """The same extraction per page slice, counts summed across pages."""
    total: dict[str, int] = {}
    step = max(1, chars_per_page)
    for i in range(0, max(1, len(text)), step):
        for token, n in extract_entries(text[i : i + step]).items():
            total[token] = total.get(token, 0) + n
    return total


def _tier(token: str) -> int:
    if _URL.match(token):
        return 2
    for i, pattern in enumerate(_TIER0):
        if pattern.fullmatch(token) and (i not in (0, 3) or _HAS_DIGIT.search(token)):
            return 0
    return 1


def rank_tokens(counts: dict[str, int]) -> list[str]:
    """Longest first with substrings of kept tokens dropped, then by tier (ids and numbers,
    then paths and versions, then URLs); at most 64 tokens and 8 URLs."""
    by_length = sorted(counts, key=lambda t: (-_blen(t), t.encode("utf-8", "surrogatepass")))
    kept: list[str] = []
    for token in by_length:
        if not any(token in k for k in kept):
            kept.append(token)
    kept.sort(key=lambda t: (_tier(t), -_blen(t), t.encode("utf-8", "surrogatepass")))
    out: list[str] = []
    urls = 0
    for token in kept:
        if len(out) >= MAX_TOKENS:
            break
        if _tier(token) == 2:
            if urls >= MAX_URLS:
                continue
            urls += 1
        out.append(token)
    return out


def fact_sheet_text(text: str) -> str:
    counts = extract_entries(text)
    tokens = rank_tokens(counts)
    if not tokens:
        return ""
    if any(counts[t] >= 2 for t in tokens):
        opening = OPENING + "; \u00d7N marks a token that occurs N times within the imaged content: "
        parts = [f"{t} \u00d7{counts[t]}" if counts[t] >= 2 else t for t in tokens]
    else:
        opening = OPENING + ": "
        parts = tokens
    return opening + " \u00b7 ".join(parts) + "]"
