"""``text``: prose / Markdown / fallback (spec engine-compressors §3.6).

The document is cut into sections (paragraphs, or single lines when it has no blank lines;
a fenced code block is always one section). The first and last two sections, headings,
sections that carry signal words (ERROR, DECISION, SUMMARY, …), earlier markers, query matches
and every section whose vocabulary is new are kept; each dropped run becomes
``… N sections elided (caveman) …``. Sections are re-joined with a blank line, so surrounding
whitespace and CRLF separators are not preserved (spec §9 item 7; the original is one
``retrieve`` away).

An HTML page that reached this fallback first loses its script/style/svg blocks (replaced by a
one-section marker) and its comments.

cavemem addition: when dropping redundant sections leaves more than half of the text (distinct
prose such as a licence or a README), a second stage (:mod:`.prose`) condenses the long
paragraphs that are left to their lead sentences, facts and query matches, with
``… N sentences elided (caveman) …`` markers. Where the reference stage already saves half,
its (verified) output is used unchanged.
"""

from __future__ import annotations

import re

from ..gocompat import GO_SPACE, fields, trim_space, utf8_text
from .base import QueryCompressor
from .lineends import cr_suffix, splice_dropped, split_lines
from .pieces import in_pieces, paragraph_pieces
from .redundancy import keep_non_redundant
from .relevance import TEXT_LIMIT, keep_query_relevant
from .text_outline import budget, outline_lines

KEEP_HEAD = 2
KEEP_TAIL = 2
MIN_BYTES = 1600
MIN_SECTIONS = KEEP_HEAD + KEEP_TAIL + 2  # at most this many sections: nothing worth dropping
HEADING_MAX_BYTES = 96
HEADING_MAX_WORDS = 8
HTML_NOISE_MARKER = "\u2026 1 sections elided (caveman) \u2026"
PROSE_STAGE_MIN_SHARE = 0.5

_FENCE = re.compile(r"[\t\f\r ]{0,3}(`{3,}|~{3,})")
_SIGNAL = re.compile(
    r"\b(?:ERROR|WARNING|IMPORTANT|NOTE|ACTION|FOLLOWUP|SECURITY|SUMMARY|CONCLUSION|DECISION|RECOMMENDATION)\b",
    re.I | re.ASCII,
)
_MARKER = re.compile(r"(?:sections|sentences|words) elided \(caveman\)")
_NOISE_TAGS = ("script", "style", "svg")


_LEAD_SPACE = re.compile(f"[{GO_SPACE}]*")
_BODY_TAG = re.compile("<body", re.I)


def _looks_html(text: str) -> bool:
    """``<!doctype html``/``<html`` first (after white space), or ``<body`` anywhere, in any case:
    found without a lowered copy of the whole text (a 64 MiB input, issue 9)."""
    lead = _LEAD_SPACE.match(text).end()
    low = text[lead : lead + 16].lower()
    return low.startswith("<!doctype html") or low.startswith("<html") or _BODY_TAG.search(text) is not None


def _trimmed_bytes(text: str, size: int) -> int:
    """``len(TrimSpace(text))`` in UTF-8 bytes (``size``: the whole text's), without a trimmed copy."""
    lead = _LEAD_SPACE.match(text).end()
    if lead == len(text):
        return 0
    end = len(text)
    while text[end - 1] in GO_SPACE:
        end -= 1
    return size - len(text[:lead].encode("utf-8")) - len(text[end:].encode("utf-8"))


def _tag_opener(tag: str):
    """Finder for ``<tag\b[^>]*>`` in two linear steps (regex for ``<tag\b``, then the next ``>``)."""
    start = re.compile(rf"<{tag}\b", re.I | re.ASCII)

    def find(text: str, pos: int) -> tuple[int, int] | None:
        m = start.search(text, pos)
        if m is None:
            return None
        gt = text.find(">", m.end())
        return None if gt < 0 else (m.start(), gt + 1)

    return find


def _literal_opener(literal: str):
    def find(text: str, pos: int) -> tuple[int, int] | None:
        at = text.find(literal, pos)
        return None if at < 0 else (at, at + len(literal))

    return find


def _replace_blocks(text: str, find_open, closer: re.Pattern, replacement: str) -> str:
    """Replace-all of ``opener … closer`` (leftmost opener, first closer after it) in linear
    time — the RE2 meaning of ``(?is)<tag\b[^>]*>.*?</tag>``. Once an opener has no closer
    after it, no later opener can have one either, so the scan stops there."""
    out: list[str] = []
    pos = 0
    while True:
        span = find_open(text, pos)
        if span is None:
            break
        c = closer.search(text, span[1])
        if c is None:
            break
        out.append(text[pos : span[0]])
        out.append(replacement)
        pos = c.end()
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


_TAG_BLOCKS = tuple((_tag_opener(t), re.compile(rf"</{t}>", re.I | re.ASCII)) for t in _NOISE_TAGS)
_COMMENT = (_literal_opener("<!--"), re.compile(r"-->"))


def strip_html_noise(text: str) -> str:
    """Replace script/style/svg blocks with a marker section and delete comments."""
    for find_open, closer in _TAG_BLOCKS:
        text = _replace_blocks(text, find_open, closer, HTML_NOISE_MARKER)
    return _replace_blocks(text, *_COMMENT, "")


def split_sections(text: str) -> list[str]:
    """Paragraphs (or lines, when there is no blank line) and whole fenced blocks, trimmed."""
    return sections_of(split_lines(text)[0], _has_blank_line(text))


def _has_blank_line(text: str) -> bool:
    return "\n\n" in text or "\r\n\r\n" in text


def sections_of(lines: list[str], paragraphs: bool) -> list[str]:
    """:func:`split_sections` of a text already split into lines."""
    sections: list[str] = []
    buf: list[str] = []

    def flush() -> None:
        if buf:
            s = trim_space("\n".join(buf))
            if s:
                sections.append(s)
            buf.clear()

    fence: str | None = None  # the opening run (``` or ~~~…) while a fence is open
    for line in lines:
        m = _FENCE.match(line)
        if fence is not None:
            buf.append(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
                flush()
            continue
        if m:
            flush()
            fence = m.group(1)
            buf.append(line)
            continue
        if not trim_space(line):
            flush()
            continue
        buf.append(line)
        if not paragraphs:
            flush()
    flush()
    return sections


def _saves_little(sections: list[str], out: list[str]) -> bool:
    """Did dropping redundant sections leave more than :data:`PROSE_STAGE_MIN_SHARE` of the
    text? Then the prose stage condenses the paragraphs that are left (:mod:`.prose`)."""
    return sum(map(len, out)) > PROSE_STAGE_MIN_SHARE * sum(map(len, sections))


def is_heading(section: str) -> bool:
    if section.startswith("#"):
        return True
    if len(section.encode("utf-8", "surrogatepass")) > HEADING_MAX_BYTES:
        return False
    if "." in section or "!" in section or "?" in section:
        return False
    return 1 <= len(fields(section)) <= HEADING_MAX_WORDS


def _joined(sections: list[str]) -> bytes:
    """Sections joined by a blank line, encoded one by one: one emoji would make a joined str
    4 bytes a character (peak memory, issue 9); the bytes are the same."""
    return b"\n\n".join(s.encode("utf-8") for s in sections)


class TextCompressor(QueryCompressor):
    content_type = "text"

    def compress_query(self, data: bytes, query: str) -> bytes | None:
        return in_pieces(data, paragraph_pieces, lambda piece: self._compress_prose(piece, query))

    def _compress_prose(self, data: bytes, query: str) -> bytes | None:
        text = utf8_text(data) if len(data) >= MIN_BYTES else None
        if text is None or _trimmed_bytes(text, len(data)) < MIN_BYTES:
            return None
        if _looks_html(text):  # also a man page quoting ``<body>``: the outline below still applies
            text = strip_html_noise(text)
        # From here on the lines only: one emoji makes the whole text 4 bytes a character, its
        # lines mostly 1 (a 64 MiB input's peak memory, issue 9)
        paragraphs, cr, chars = _has_blank_line(text), cr_suffix(text), len(text)
        lines, trailing = split_lines(text)
        del text
        out = self._stages(sections_of(lines, paragraphs), query)
        limit = budget(len(data))
        if out is None or len(out) > limit:
            short = outline_lines(lines, trailing, cr, chars, limit, query)
            if short is not None and len(short.encode("utf-8")) < len(out or data):
                return short.encode("utf-8")
        return out

    def _sections(self, text: str, query: str) -> bytes | None:
        return self._stages(split_sections(text), query)

    def _stages(self, sections: list[str], query: str) -> bytes | None:
        """The reference stage, then the prose stage when it saves little (module note)."""
        n = len(sections)
        if n <= MIN_SECTIONS:
            return None
        keep = [False] * n
        for i in range(n):
            s = sections[i]
            if i < KEEP_HEAD or i >= n - KEEP_TAIL or is_heading(s) or _SIGNAL.search(s) or _MARKER.search(s):
                keep[i] = True
        if query:
            keep_query_relevant(keep, sections, query, TEXT_LIMIT)
        keep_non_redundant(sections, keep)
        out = splice_dropped(sections, keep, lambda i, j: [f"\u2026 {j - i} sections elided (caveman) \u2026"])
        if len(out) == n:
            out = sections  # the reference claims nothing when the section count is unchanged
        if _saves_little(sections, out):
            from .prose import condense

            condensed = condense(out, query)
            if condensed is not None:
                return _joined(condensed)
        if len(out) == n:
            return None  # nothing dropped (the spec's test: as many sections out as in)
        return _joined(out)
