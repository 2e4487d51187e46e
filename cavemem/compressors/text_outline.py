"""Third stage of the ``text`` compressor: an outline of a long document, line by line.

Dropping redundant sections (:mod:`.text`) and condensing paragraphs to their lead and fact
sentences (:mod:`.prose`) still leaves most of a long man page, changelog or licence bundle in
view: a 2 MB ``copyright`` file or a 300-entry changelog is distinct prose from end to end. Past
a size budget that grows with the square root of the input (:func:`budget`), the document is
shown as an outline of its own lines instead, at the finest level that fits:

1. every *structural* line plus the first line of every paragraph;
2. structural lines plus the first line after each of them (the lead of each part);
3. structural lines alone.

Structural lines are what a reader navigates by: Markdown headings, underlined titles and their
rules, unindented ALL-CAPS headings (man-page sections, licence disclaimers), numbered clauses
(``3. Grant of Patent License.``, ``§ 4.``), option lines of a man page (``   -a, --all``), and,
in a document that is mostly indented, its unindented lines (changelog entry headers, man-page
section names). The first two non-blank lines of the document always stay; at level 3 a
structural line repeated verbatim is shown once.

Kept lines are verbatim with their own line endings; each dropped run that holds text becomes
``… N lines elided (caveman) …`` (a run of blank lines, or one line no longer than the marker,
stays as it is). The original is one ``retrieve`` away.
"""

from __future__ import annotations

import math
import re

from .lineends import cr_suffix, join_lines, runs, split_lines
from .relevance import keep_query_relevant

BUDGET_PER_SQRT_BYTE = 40  # budget = 40 * sqrt(input bytes): 2 KB for 2.5 KB, 57 KB for 2 MB
MIN_PARAGRAPHS = 4
KEEP_HEAD = 2  # the first two non-blank lines: a title and its subtitle (``Version 2.0, January 2004``)
MAX_HEADING_CHARS = 80
DEEP_MIN_CHARS = 4096  # levels 2 and 3 only for documents at least this long: a short one is read whole
QUERY_LIMIT = 24  # query-matching lines kept (BM25, within 30% of the best)
INDENTED_SHARE = 0.5  # a document whose non-blank lines are at least this indented is an outline

_MD_HEADING = re.compile(r"[ \t]*#{1,6}[ \t]+\S")  # indented: a comment heading an example
_RULE = re.compile(r"[ \t]*(?:={3,}|-{3,}|~{3,}|\^{3,}|\*{3,})[ \t]*\r?\Z")
_NUMBERED = re.compile(r"[ \t]*(?:§[ \t]*)?[0-9]{1,2}(?:\.[0-9]{1,2})*\.[ \t]+[A-Z\"(]")
_OPTION = re.compile(r"[ \t]{2,}--?[A-Za-z0-9]")
_MARKER = re.compile(r"elided \(caveman\)")
_FIELD = re.compile(r"[A-Z][A-Za-z0-9-]{1,40}:(?:[ \t]|\r?\Z)")


def budget(size: int) -> int:
    """Bytes an outline should fit in for an input of ``size`` bytes."""
    return int(BUDGET_PER_SQRT_BYTE * math.sqrt(size))


def _blank(line: str) -> bool:
    return not line.strip()


def _caps(line: str) -> bool:
    s = line.strip()
    return s[:1].isalpha() and s.isupper() and len(s) <= MAX_HEADING_CHARS  # centred titles too


def structural(lines: list[str]) -> list[bool]:
    """Which lines a reader navigates by (module note)."""
    n = len(lines)
    filled = [i for i in range(n) if not _blank(lines[i])]
    indented = sum(1 for i in filled if lines[i][:1] in " \t")
    outdented_is_structure = bool(filled) and indented >= INDENTED_SHARE * len(filled)
    out = [False] * n
    for i in filled:
        line = lines[i]
        s = line.strip()
        short = len(s) <= MAX_HEADING_CHARS
        underlined = i + 1 < n and short and _RULE.match(lines[i + 1]) is not None and not _RULE.match(line)
        if (
            _MD_HEADING.match(line)
            or underlined
            or _caps(line)
            or _NUMBERED.match(line)
            or _OPTION.match(line)
            or _MARKER.search(line)
            or (outdented_is_structure and line[:1] not in " \t")
        ):
            out[i] = True
            if underlined:
                out[i + 1] = True
    for i in filled[:KEEP_HEAD]:
        out[i] = True
    return out


def _keeps(lines: list[str], skeleton: list[bool], level: int) -> list[bool]:
    """Level 2 adds the lead line after each structural line (an HTML comment is passed over: it
    leads nothing); level 1 also each paragraph's first line and each ``Field: value`` line (a
    record such as ``apt-cache show`` output is one paragraph of fields)."""
    keep = list(skeleton)
    if level == 3:  # the coarsest view shows a repeated structural line once (``License: BSL-1.0``)
        seen: set[str] = set()
        for i, kept in enumerate(skeleton):
            if kept:
                key = lines[i].strip()
                keep[i] = key not in seen
                seen.add(key)
        return keep
    prev_blank, want_lead = True, False
    for i, line in enumerate(lines):
        if _blank(line):
            prev_blank = True
            continue
        if level == 1 and (prev_blank or _FIELD.match(line)):
            keep[i] = True
        elif want_lead and not skeleton[i]:
            if line.lstrip().startswith("<!--"):
                prev_blank = False
                continue
            keep[i] = True
        prev_blank, want_lead = False, skeleton[i]
    return keep


def _has_paragraphs(lines: list[str]) -> bool:
    """A document of paragraphs: at least :data:`MIN_PARAGRAPHS` blank-line separated blocks,
    none holding half of the text lines. A table, a log or a code listing that fell back to
    ``text`` is one long block: an outline of it would be its first line."""
    sizes, run = [], 0
    for line in lines:
        if _blank(line):
            if run:
                sizes.append(run)
            run = 0
        else:
            run += 1
    if run:
        sizes.append(run)
    return len(sizes) >= MIN_PARAGRAPHS and 2 * max(sizes) <= sum(sizes)


def render(lines: list[str], keep: list[bool], trailing: bool, cr: str) -> str:
    out: list[str] = []
    for i, j, kept in runs(keep):
        run = lines[i:j]
        filled = sum(1 for line in run if not _blank(line))
        marker = f"\u2026 {j - i} lines elided (caveman) \u2026"
        if kept or filled == 0 or (j - i == 1 and len(run[0]) <= len(marker)):
            out.extend(run)
        else:
            out.append(marker + cr)
    return join_lines(out, trailing)


def outline(text: str, limit: int, query: str = "") -> str | None:
    """The finest outline of ``text`` no longer than ``limit`` characters (else the coarsest);
    None when the document has too few lines to outline. Lines a query matches always stay."""
    lines, trailing = split_lines(text)
    return outline_lines(lines, trailing, cr_suffix(text), len(text), limit, query)


def outline_lines(lines: list[str], trailing: bool, cr: str, chars: int, limit: int, query: str = "") -> str | None:
    """:func:`outline` of a document already split (``chars``: its length), so a caller need
    not keep the whole text alive beside its lines."""
    if len(lines) < 8 or not _has_paragraphs(lines):
        return None
    skeleton = structural(lines)
    if query:
        keep_query_relevant(skeleton, lines, query, QUERY_LIMIT)
    best = None
    for level in (1, 2, 3) if chars >= DEEP_MIN_CHARS else (1,):
        best = render(lines, _keeps(lines, skeleton, level), trailing, cr)
        if len(best) <= limit:
            break
    return best
