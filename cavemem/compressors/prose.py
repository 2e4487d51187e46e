"""Second stage of the ``text`` compressor: condense long prose paragraphs sentence by sentence.

The reference stage (:mod:`.text`) only drops a *section* another section already represents,
so distinct prose — a licence, a README, a man page — passed through whole. This stage works
inside paragraphs instead and keeps what a reader needs to know what the text says and where to
look:

- whole sections: the first and last :data:`KEEP_EDGE_SECTIONS`, headings, short sections,
  fenced code blocks (never cut), sections with signal words (ERROR, WARNING, NOTE, SECURITY, …),
  earlier markers, and anything that is not running prose (code, tables, key = value lists);
- inside a prose paragraph: the lead sentence (two when the first is a title such as
  ``3. Grant of Patent License.``), every sentence carrying a checkable fact (a URL, an e-mail
  address, inline code, a path or identifier, a version or a number of two or more digits) and
  the sentences a query matches; bullet lists are treated item by item.

Each dropped run of sentences becomes ``… N sentences elided (caveman) …`` in place, so the
paragraph keeps its position and the marker says how much is missing (the original is one
``retrieve`` away). Pure text → text; no token counting.
"""

from __future__ import annotations

import re

from .. import bm25
from .text import is_heading

KEEP_EDGE_SECTIONS = 2
MIN_PARAGRAPH_BYTES = 160  # shorter paragraphs are kept whole: there is little to gain
TITLE_SENTENCE_BYTES = 60  # a first sentence this short is a title: the next one leads too
MIN_PROSE_LETTER_SHARE = 0.72  # letters and spaces among all characters of running prose
LEAD_MAX_BYTES = 160  # a longer lead sentence is cut at a clause boundary before this …
LEAD_MIN_BYTES = 60  # … but not before this
MIN_CUT_WORDS = 8  # a tail shorter than this stays
QUERY_LIMIT = 12
QUERY_THRESHOLD = 0.30

_FENCE = re.compile(r"[\t\f\r ]{0,3}(?:`{3,}|~{3,})")
_SIGNAL = re.compile(
    r"\b(?:ERROR|WARNING|IMPORTANT|NOTE|ACTION|FOLLOWUP|SECURITY|SUMMARY|CONCLUSION|DECISION|RECOMMENDATION|CAUTION|DANGER|DEPRECATED)\b",
    re.I | re.ASCII,
)
_MARKER = re.compile(r"elided \(caveman\)")
_TABLE_OR_CODE_LINE = re.compile(r"^[\t ]*\||[{}][\t ]*$|^[\t ]*\$ |[\t ]=[\t ]", re.M)
_BULLET = re.compile(r"[\t ]*(?:[-*+\u2022]|\(?[0-9]{1,3}[.)]|\(?[a-z][.)])[\t ]+", re.ASCII)

# a sentence ends at . ! ? (plus closing quotes/brackets) followed by space and a capital,
# digit, quote, bracket or markup that can open the next sentence
_BOUNDARY = re.compile(r"[.!?][\"'\u201d\u2019)\]*_]*(?=\s+[\"'\u201c\u2018(\[*_`A-Z0-9])")
# the word before a full stop that does not end a sentence (enumerators, abbreviations)
_NOT_AN_END = re.compile(
    r"(?:^|[\s(\[])(?:[0-9]{1,3}|[A-Za-z]|[ivxlcIVXLC]{1,4}|e\.g|i\.e|etc|vs|cf|ex|approx|incl|Mr|Mrs|Ms|Dr|St|No|Nos|Inc|Ltd|Co|Jr|Sr|Fig|Sec|Vol|al|resp|Ph\.D)\.$"
)
# checkable facts; every alternative can only start at a token start, so a search is linear
_FACT = re.compile(
    r"https?://|\bwww\.|\w@[\w-]+\.\w|`"
    r"|\b[0-9]+\.[0-9]+|\b[0-9]{2,}\b|[0-9]%"
    r"|\b[A-Za-z0-9]+_[A-Za-z0-9_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b"
    r"|(?:^|\s)[~.]?/[\w.-]+/|(?<![\w-])[\w-]+\.(?:py|js|ts|json|md|txt|c|h|go|rs|sh|yaml|yml|toml|cfg|conf|ini|html|xml|so|d)\b"
    r"|(?:^|\s)--?[a-z][\w-]*",
    re.ASCII,
)


def marker(what: str) -> str:
    """``… 3 sentences elided (caveman) …`` for ``what`` = ``3 sentences``."""
    return f"\u2026 {what} elided (caveman) \u2026"


def _is_fence(section: str) -> bool:
    return _FENCE.match(section) is not None


def _is_running_prose(section: str) -> bool:
    """Mostly words: not code, a table, a key = value list or a bibliography entry."""
    if _TABLE_OR_CODE_LINE.search(section):
        lines = section.count("\n") + 1
        if len(_TABLE_OR_CODE_LINE.findall(section)) * 4 >= lines:
            return False
    letters = sum(1 for c in section if c.isalpha() or c == " ")
    return letters >= MIN_PROSE_LETTER_SHARE * len(section)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence; only whitespace lies between consecutive spans."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        end = m.end()
        if _NOT_AN_END.search(text, max(start, end - 12), m.start() + 1):
            continue
        spans.append((start, end))
        start = end
        while start < len(text) and text[start].isspace():
            start += 1
    if start < len(text):
        spans.append((start, len(text)))
    return spans


def item_spans(text: str) -> list[tuple[int, int]] | None:
    """(start, end) of each bullet item (with its continuation lines), or None when the section
    is not a list (fewer than two lines open with a bullet, or the first line does not)."""
    lines = text.split("\n")
    if len(lines) < 2 or not _BULLET.match(lines[0]):
        return None
    spans: list[tuple[int, int]] = []
    pos = 0
    for line in lines:
        if _BULLET.match(line) or not spans:
            spans.append((pos, pos + len(line)))
        else:
            spans[-1] = (spans[-1][0], pos + len(line))
        pos += len(line) + 1
    return spans if len(spans) >= 2 else None


def _units(section: str) -> list[tuple[int, int]]:
    return item_spans(section) or sentence_spans(section)


def _keeps_whole(section: str, index: int, count: int) -> bool:
    return (
        index < KEEP_EDGE_SECTIONS
        or index >= count - KEEP_EDGE_SECTIONS
        or len(section.encode("utf-8", "surrogatepass")) < MIN_PARAGRAPH_BYTES
        or section.startswith("#")
        or is_heading(section)
        or _is_fence(section)
        or _SIGNAL.search(section) is not None
        or _MARKER.search(section) is not None
        or not _is_running_prose(section)
    )


def _lead(section: str, spans: list[tuple[int, int]]) -> int:
    """How many units lead the paragraph: 1, or 2 when the first is a title-like sentence."""
    first = spans[0]
    if len(spans) > 1 and len(section[first[0] : first[1]].encode("utf-8", "surrogatepass")) < TITLE_SENTENCE_BYTES:
        return 2
    return 1


_ENUMERATOR = re.compile(r"[\t ]*(?:\(?(?:[0-9]{1,3}\.)*[0-9]{1,3}\.?\)?|\([a-z]{1,4}\))?[\t ]*", re.ASCII)
_CLAUSE_END = re.compile(r"[,;:](?=\s)|\s--?(?=\s)")


class _Plan:
    """What survives of one paragraph: its units, which are kept, and where a long lead is cut."""

    __slots__ = ("spans", "keep", "whole", "cuts")

    def __init__(self, spans: list[tuple[int, int]]):
        self.spans = spans
        self.keep = [False] * len(spans)
        self.whole = [False] * len(spans)  # facts and query matches: never cut
        self.cuts: dict[int, int] = {}


def condense(sections: list[str], query: str = "") -> list[str] | None:
    """The sections with long prose paragraphs condensed; None when nothing was dropped."""
    n = len(sections)
    plans: dict[int, _Plan] = {}
    for i, section in enumerate(sections):
        if _keeps_whole(section, i, n):
            continue
        spans = _units(section)
        if len(spans) < 2 and len(section.encode("utf-8", "surrogatepass")) <= LEAD_MAX_BYTES:
            continue
        plan = plans[i] = _Plan(spans)
        for k in range(_lead(section, spans)):
            plan.keep[k] = True
        for k, (a, b) in enumerate(spans):
            if k == 0:  # a paragraph's own number ("5.1.", "(a)") is not a fact of its first sentence
                a = _ENUMERATOR.match(section).end()
            if _FACT.search(section, a, b):
                plan.keep[k] = plan.whole[k] = True
    if query and plans:
        _keep_query_matches(sections, plans, query)
    out = list(sections)
    changed = False
    for i, plan in plans.items():
        for k, kept in enumerate(plan.keep):
            if kept and not plan.whole[k]:
                cut = _lead_cut(sections[i], *plan.spans[k])
                if cut is not None:
                    plan.cuts[k] = cut
        if all(plan.keep) and not plan.cuts:
            continue
        out[i] = _render(sections[i], plan)
        changed = True
    return out if changed else None


def _lead_cut(section: str, a: int, b: int) -> int | None:
    """Where to cut a long lead sentence: after the last clause boundary (else word boundary)
    within :data:`LEAD_MAX_BYTES`; None when the sentence is short or its tail is."""
    if len(section[a:b].encode("utf-8", "surrogatepass")) <= LEAD_MAX_BYTES:
        return None
    limit = a + LEAD_MAX_BYTES
    cut = None
    for m in _CLAUSE_END.finditer(section, a + LEAD_MIN_BYTES, limit):
        cut = m.end() if section[m.start()] in ",;:" else m.start()
    if cut is None:
        cut = section.rfind(" ", a + LEAD_MIN_BYTES, limit)
        if cut < 0:
            return None
    if len(section[cut:b].split()) < MIN_CUT_WORDS:
        return None
    return cut


def _keep_query_matches(sections: list[str], plans: dict[int, _Plan], query: str) -> None:
    """Keep up to :data:`QUERY_LIMIT` units whose BM25 score is within :data:`QUERY_THRESHOLD`
    of the best unit (all units are scored, kept ones included); matches are never cut."""
    refs = [(i, k) for i, plan in plans.items() for k in range(len(plan.spans))]
    docs = [sections[i][slice(*plans[i].spans[k])] for i, k in refs]
    scores = bm25.scores(query, docs)
    best = max(scores, default=0)
    if best <= 0:
        return
    ranked = sorted((j for j, s in enumerate(scores) if s / best >= QUERY_THRESHOLD), key=lambda j: (-scores[j], j))
    for j in ranked[:QUERY_LIMIT]:
        i, k = refs[j]
        plans[i].keep[k] = plans[i].whole[k] = True


def _render(section: str, plan: _Plan) -> str:
    """Kept units with their original spacing; each dropped run becomes one marker, and a cut
    lead's tail joins the marker of the run after it (``… 23 words, 2 sentences elided …``)."""
    spans, keep = plan.spans, plan.keep
    parts: list[str] = []
    k, n = 0, len(spans)
    while k < n:
        j = k + 1 if keep[k] else k
        while j < n and not keep[j]:
            j += 1
        dropped = j - k - (1 if keep[k] else 0)
        sep = section[spans[k - 1][1] : spans[k][0]] if k else ""
        a, b = spans[k]
        cut = plan.cuts.get(k) if keep[k] else None
        sentences = f"{dropped} sentences"
        if not keep[k]:
            parts.append(sep + marker(sentences))
        elif cut is None:
            parts.append(sep + section[a:b])
            if dropped:
                parts.append(section[b : spans[k + 1][0]] + marker(sentences))
        else:
            words = f"{len(section[cut:b].split())} words"
            parts.append(sep + section[a:cut].rstrip() + " " + marker(f"{words}, {sentences}" if dropped else words))
        k = j
    return "".join(parts)
