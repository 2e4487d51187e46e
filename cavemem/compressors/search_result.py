"""``search-result``: grep / web hit-list elision (spec engine-compressors §3.5).

The head (8 lines) and tail (4) stay, as do hits that mention errors, failures, actions or
secrets, the hits most relevant to the query (BM25), and every hit whose vocabulary no shown hit
covers (the redundancy gate). Runs of the remaining look-alike hits become
``… N search result lines elided (caveman) …``. Line endings are preserved per line.

Deviation from the reference: a dropped run of one line no longer than the marker is kept
verbatim instead of being swapped for a marker (see ``lineends``).

Addition (per-file bound): with a query, when those rules still keep more than half the lines —
every hit is distinct, or the searched word is itself a keyword (``grep -rn token``) — each
file (``path:line:`` hits) shows only its first three hits beyond the query hits, and the
keyword rule yields when more than half the lines carry a keyword (it is then what was searched
for, not an alarm). Surplus hits never enter the redundancy gate; their markers name the files
and line ranges they hide (``… 20 search result lines elided (caveman): all in docs/config.md,
lines 468..1999 …``). The result is used only when it has fewer lines.
"""

from __future__ import annotations

import re

from .. import bm25
from .base import QueryCompressor
from .lineends import cr_suffix, emit_with_markers, join_lines, splice_dropped, utf8_lines
from .pieces import in_pieces, line_pieces
from .redundancy import MAX_PROMOTIONS, keep_non_redundant
from .relevance import RELEVANCE_THRESHOLD, SEARCH_RESULT_LIMIT
from .search_fold import context_paths, fold

KEEP_HEAD = 8
KEEP_TAIL = 4
MIN_LINES = 18
PER_FILE_HITS = 3  # hits shown per file when the per-file bound applies
MAX_MARKER_FILES = 3  # a marker names the files of the hits it hides, up to this many
# The view keeps every hit's path:line, so its gate goes on past the spec's 128 promotions
# (after which the spec treats the payload as a document): each new kind of hit text is shown once.
VIEW_MAX_PROMOTIONS = 1 << 30

# RE2 semantics: ``\b`` is an ASCII word boundary while ``(?i)`` folds Unicode case (the Kelvin
# sign matches ``k``), so the boundaries are spelled out case-sensitively around a Unicode
# case-insensitive group.
_IMPORTANT = re.compile(
    r"(?<![0-9A-Za-z_])(?i:ERROR|FAIL|FAILED|PANIC|ACTION|FOLLOWUP|SECURITY|SECRET|TOKEN|PASSWORD|KEY)(?![0-9A-Za-z_])"
)
_MARKER_LINE = re.compile(r"search result lines elided \(caveman\)")
# ``path:line:`` or ``path:line:col:`` (grep -n, ripgrep, compilers): the detection rule's hit shape
_HIT = re.compile(r"([./~A-Za-z0-9_-][^:\n]{0,240}):([0-9]+)(?::[0-9]+)?:")


def marker(count: int) -> str:
    return f"… {count} search result lines elided (caveman) …"


class SearchResultCompressor(QueryCompressor):
    content_type = "search-result"

    def compress_query(self, data: bytes, query: str) -> bytes | None:
        return in_pieces(data, line_pieces, lambda piece: self._compress_hits(piece, query))

    def _compress_hits(self, data: bytes, query: str) -> bytes | None:
        got = utf8_lines(data, 1)
        if got is None:
            return None
        text, lines, trailing = got
        n = len(lines)
        cr = cr_suffix(text)
        hits = [_HIT.match(line) for line in lines]
        if n < MIN_LINES:  # too few to elide (spec): only the lossless grouping may apply
            out = _fold_when_better(text, lines, hits, [True] * n, lines, cr)
            return None if out is lines else join_lines(out, trailing).encode("utf-8")
        scores = bm25.scores(query, lines) if query else None
        out, _ = _reference(lines, lines, scores, cr)
        # the view shows every path, so the redundancy gate judges a hit (or a context line) by its text alone
        context = context_paths(lines, hits)
        texts = [_unit_text(line, m, c) for line, m, c in zip(lines, hits, context)]
        _, keep = _reference(lines, texts, scores, cr, VIEW_MAX_PROMOTIONS)
        _keep_hits_of_shown_context(keep, hits, context)
        out = _fold_when_better(text, lines, hits, keep, out, cr)
        if len(out) == n:
            return None
        return join_lines(out, trailing).encode("utf-8")


def _reference(
    lines: list[str], units: list[str], scores: list[float] | None, cr: str, max_promotions: int = MAX_PROMOTIONS
) -> tuple[list[str], list[bool]]:
    """The reference's output and keep mask, the redundancy gate comparing ``units`` (the lines,
    or the hits' texts); with a query and most lines kept, the per-file bound (module note)."""
    keep = _spec_keeps(lines, scores, keyword_force=True, units=units, max_promotions=max_promotions)
    out = emit_with_markers(lines, keep, marker, cr)
    if scores is not None and 2 * len(out) > len(lines):
        bounded = _per_file_bounded(lines, units, scores, cr, max_promotions)
        if bounded is not None and len(bounded[0]) < len(out):
            return bounded
    return out, keep


def _unit_text(line: str, hit, context: str | None) -> str:
    """What the gate compares of a line: a hit's or context line's text without its location."""
    if hit is not None:
        return line[hit.end() :]
    if context is not None:
        return line[len(context) + 1 :].lstrip("0123456789")[1:]
    return line


def _keep_hits_of_shown_context(keep: list[bool], hits: list, context: list) -> None:
    """A ``grep -A/-B/-C`` block whose context lines are shown shows its hits' text too: a
    look-alike hit (``except Exception:``) is still what the context surrounds."""
    start, n = 0, len(keep)
    while start < n:
        end = start
        while end < n and (hits[end] is not None or context[end] is not None):
            end += 1
        if any(keep[k] and context[k] is not None for k in range(start, end)):
            for k in range(start, end):
                keep[k] = keep[k] or hits[k] is not None
        start = end + 1


def _fold_when_better(text: str, lines: list[str], hits: list, keep: list[bool], out: list[str], cr: str) -> list[str]:
    """The view of :mod:`.search_fold` (every hit location visible) instead of ``out`` when
    ``out`` hides a hit's ``path:line`` and the view saves a quarter of the input or half of what
    ``out`` saves, or when ``out`` hides no hit and the view is shorter. Otherwise ``out`` (the
    reference's form: short hits, each in its own file, leave little to fold)."""
    folded = fold(lines, keep, hits, cr, marker)
    if folded is None:
        return out
    size = len(text) + 1
    folded_size = _size(folded)
    if _locations(map(_HIT.match, out)) < _locations(hits):
        # showing every hit may cost some of the reference's saving, but not more than half
        pays = 4 * folded_size <= 3 * size or 2 * (size - folded_size) >= size - _size(out)
        return folded if pays else out
    return folded if folded_size < _size(out) else out


def _locations(matches) -> set[tuple[str, str]]:
    return {(m.group(1), m.group(2)) for m in matches if m is not None}


def _size(lines: list[str]) -> int:
    return sum(map(len, lines)) + len(lines)


def _spec_keeps(
    lines: list[str],
    scores: list[float] | None,
    keyword_force: bool,
    blocked: list[bool] | None = None,
    units: list[str] | None = None,
    max_promotions: int = MAX_PROMOTIONS,
) -> list[bool]:
    """Head and tail, keyword and marker lines, query hits, then the redundancy gate over
    ``units`` (default: the lines) — over the lines not ``blocked`` (the gate's promotions never
    reach a blocked line)."""
    units = lines if units is None else units
    n = len(lines)
    keep = [i < KEEP_HEAD or i >= n - KEEP_TAIL for i in range(n)]
    for i, line in enumerate(lines):
        if not keep[i] and ((keyword_force and _IMPORTANT.search(line)) or _MARKER_LINE.search(line)):
            keep[i] = True
    if scores is not None:
        _keep_query_hits(keep, scores)
    if blocked is None:
        keep_non_redundant(units, keep, max_promotions=max_promotions)
        return keep
    open_idx = [i for i in range(n) if keep[i] or not blocked[i]]
    sub = [keep[i] for i in open_idx]
    keep_non_redundant([units[i] for i in open_idx], sub, max_promotions=max_promotions)
    for i, k in zip(open_idx, sub):
        keep[i] = k
    return keep


def _keep_query_hits(keep: list[bool], scores: list[float]) -> None:
    """``keep_query_relevant(keep, lines, query, 24, 0.30)`` on BM25 scores computed once (the
    bounded stage re-ranks with other force-keeps; scoring 100k lines twice costs seconds)."""
    best = max(scores, default=0.0)
    if best <= 0:
        return
    cands = [i for i, sc in enumerate(scores) if not keep[i] and sc / best >= RELEVANCE_THRESHOLD]
    cands.sort(key=lambda i: (-scores[i], i))
    for i in cands[:SEARCH_RESULT_LIMIT]:
        keep[i] = True


def _per_file_bounded(
    lines: list[str], units: list[str], scores: list[float], cr: str, max_promotions: int = MAX_PROMOTIONS
) -> tuple[list[str], list[bool]] | None:
    """Numerous hits with a query: each file shows its first PER_FILE_HITS hits plus the hits the
    query (or, unless nearly every line has one, an alarm keyword) asks for; the rest of its hits
    become a marker naming the file and line range. None when no file has surplus hits."""
    n = len(lines)
    hits = [_HIT.match(line) for line in lines]
    seen: dict[str, int] = {}
    blocked = [False] * n
    for i, m in enumerate(hits):
        if m is None:
            continue
        path = m.group(1)
        seen[path] = seen.get(path, 0) + 1
        blocked[i] = seen[path] > PER_FILE_HITS
    if not any(blocked):
        return None
    # a keyword on most lines is what was searched for, not an alarm
    saturated = 2 * sum(1 for line in lines if _IMPORTANT.search(line)) > n
    keep = _spec_keeps(lines, scores, keyword_force=not saturated, blocked=blocked, units=units, max_promotions=max_promotions)
    return splice_dropped(lines, keep, lambda i, j: _run_output(lines, hits, i, j, cr)), keep


def _run_output(lines: list[str], hits: list, i: int, j: int, cr: str) -> list[str]:
    """A marker for ``lines[i:j]`` — naming the files and line ranges it hides when they are all
    hits of at most MAX_MARKER_FILES files — or the lines themselves when a marker would cost more
    than half of them."""
    plain = marker(j - i)
    text = plain
    if all(hits[k] is not None for k in range(i, j)):
        spans: list[list] = []  # [path, first line, last line] per consecutive file
        for k in range(i, j):
            path, line_no = hits[k].group(1), hits[k].group(2)
            if spans and spans[-1][0] == path:
                spans[-1][2] = line_no
            else:
                spans.append([path, line_no, line_no])
        if len(spans) <= MAX_MARKER_FILES:
            where = "; ".join(f"{p}, line {a}" if a == b else f"{p}, lines {a}..{b}" for p, a, b in spans)
            text = f"{plain[:-2]}: all in {where} …"
    hidden = sum(len(lines[k].encode("utf-8", "surrogatepass")) + 1 for k in range(i, j))
    if 2 * len(text.encode("utf-8", "surrogatepass")) > hidden:
        text = plain
    if j - i == 1 and len(lines[i].encode("utf-8", "surrogatepass")) <= len((plain + cr).encode()):
        return [lines[i]]
    if 2 * len(text.encode("utf-8", "surrogatepass")) > hidden:
        return lines[i:j]
    return [text + cr]
