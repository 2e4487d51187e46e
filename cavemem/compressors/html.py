"""``html``: readability-style article extraction (spec engine-compressors §3.7).

A fetched web page is mostly navigation, scripts, trackers and footers; the agent wants the
article. We score every container (div/article/main/section/td) by the substantial text blocks
inside it, pick the best one (discounting link text, so menus and link farms lose), and render
it as plain text. Headline and paragraphs survive; boilerplate and tracking code do not. The
original page stays one ``retrieve`` away.

All measures are UTF-8 byte counts. They are computed once per text node and summed bottom-up,
so scoring is linear in the page size however deep or wide the tree is.
"""

from __future__ import annotations

import re

from ..gocompat import GO_SPACE, trim_space
from .base import Compressor
from .html_extract import Element, parse_document

MIN_OUTPUT_BYTES = 200

_SCORABLE = frozenset({"p", "pre", "td", "blockquote", "li", "h1", "h2", "h3", "h4", "h5", "h6"})
_CONTAINERS = frozenset({"div", "article", "main", "section", "td", "body"})
_BLOCK = frozenset(
    {"p", "div", "br", "li", "ul", "ol", "pre", "blockquote", "section", "article", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "table", "hr"}
)
# Phrasing elements sit inside a text run: rendering them with no separator keeps the run's
# characters exactly (``<code>-h</code>/<code>--help</code>`` stays ``-h/--help``, not ``-h / --help``).
_INLINE = frozenset(
    {"a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins", "kbd",
     "label", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr"}
)
_POSITIVE = re.compile(r"article|body|content|entry|main|page|post|story|text|blog", re.I | re.A)
_NEGATIVE = re.compile(
    r"comment|nav|sidebar|footer|header|menu|promo|banner|ad-|share|social|related|breadcrumb|cookie|popup|modal|widget",
    re.I | re.A,
)
_HSPACE = re.compile(r"[ \t]+")
_NEWLINE_RUNS = re.compile(r"\n(?:[ \t]*\n)+")
_PRE_SLOT = re.compile("\x00PRE(\\d+)\x00")
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_ANY_SPACE = re.compile(r"\s+")


class HTMLCompressor(Compressor):
    content_type = "html"

    def compress(self, data: bytes) -> bytes | None:
        text = data.decode("utf-8", "surrogateescape")  # no UTF-8 check: odd bytes ride along
        if not trim_space(text):
            return None
        body = parse_document(text)
        if body is None:
            return None
        best = _pick_article(body)
        if best is None:
            return None
        before, after = _outline(body, best)
        text = "\n".join(before + [trim_space(_render_text(best))] + after)
        out = trim_space(text).encode("utf-8", "surrogateescape")
        if len(out) < MIN_OUTPUT_BYTES or len(out) >= len(data):
            return None
        return out


# -- measuring ---------------------------------------------------------------------------------


class _Measures:
    """Per-element text measures over the flattened tree (document order)."""

    def __init__(self, body: Element):
        self.order: list[Element] = []  # elements in document (pre-)order
        self.span: dict[int, tuple[int, int]] = {}  # id(element) -> [first, end) text-node range
        lengths: list[int] = []
        commas: list[int] = []
        lead: list[int] = []
        trail: list[int] = []
        blank: list[bool] = []
        stack: list[Element | str | tuple[Element]] = [body]
        starts: dict[int, int] = {}
        while stack:
            cur = stack.pop()
            if isinstance(cur, tuple):  # leaving an element: its text range is complete
                self.span[id(cur[0])] = (starts[id(cur[0])], len(lengths))
            elif isinstance(cur, str):
                b = cur.encode("utf-8", "surrogateescape")
                left = cur.lstrip(GO_SPACE)
                lengths.append(len(b))
                commas.append(cur.count(","))
                blank.append(not left)
                lead.append(len(b) - _blen(left))
                trail.append(len(b) - _blen(cur.rstrip(GO_SPACE)))
            else:
                self.order.append(cur)
                starts[id(cur)] = len(lengths)
                stack.append((cur,))
                stack.extend(reversed(cur.children))
        n = len(lengths)
        self._len_prefix = _prefix(lengths)
        self._comma_prefix = _prefix(commas)
        self._lead, self._trail = lead, trail
        # next non-blank text node at or after i / last one at or before i
        self._next_nb = [n] * (n + 1)
        for i in range(n - 1, -1, -1):
            self._next_nb[i] = i if not blank[i] else self._next_nb[i + 1]
        self._prev_nb = [-1] * n
        last = -1
        for i in range(n):
            if not blank[i]:
                last = i
            self._prev_nb[i] = last

    def raw_len(self, node: Element) -> int:
        a, b = self.span[id(node)]
        return self._len_prefix[b] - self._len_prefix[a]

    def commas(self, node: Element) -> int:
        a, b = self.span[id(node)]
        return self._comma_prefix[b] - self._comma_prefix[a]

    def trimmed_len(self, node: Element) -> int:
        """len(TrimSpace(descendant text)) in bytes."""
        a, b = self.span[id(node)]
        if a == b:
            return 0
        first, last = self._next_nb[a], self._prev_nb[b - 1]
        if first >= b or last < a:
            return 0
        return self._len_prefix[last + 1] - self._len_prefix[first] - self._lead[first] - self._trail[last]


def _blen(s: str) -> int:
    return len(s.encode("utf-8", "surrogateescape"))


def _prefix(values: list[int]) -> list[int]:
    out = [0]
    total = 0
    for v in values:
        total += v
        out.append(total)
    return out


def _class_id_weight(node: Element) -> int:
    joined = "".join(" " + (value or "") for name, value in node.attrs if name in ("class", "id"))
    if not joined:
        return 0
    weight = 0
    if _POSITIVE.search(joined):
        weight += 25
    if _NEGATIVE.search(joined):
        weight -= 25
    return weight


def _pick_article(body: Element) -> Element | None:
    """The best-scoring container, or None when nothing qualifies or it is a link farm."""
    m = _Measures(body)
    # bottom-up sums: base score of substantial scorables strictly inside each element, and
    # the trimmed text length of outermost anchors inside it
    # (plus "loose": the part not already inside a nearer container, for the body fallback)
    inner_base: dict[int, int] = {}
    loose_base: dict[int, int] = {}
    credited: dict[int, bool] = {}
    anchors: dict[int, int] = {}
    for node in reversed(m.order):
        base_sum = loose_sum = anchor_sum = 0
        has_scorable = False
        for child in node.children:
            if isinstance(child, str):
                continue
            cid = id(child)
            base_sum += inner_base[cid]
            if child.tag not in _CONTAINERS:
                loose_sum += loose_base[cid]
            has_scorable = has_scorable or credited[cid]
            if child.tag in _SCORABLE and m.trimmed_len(child) >= 25:
                base = 1 + m.commas(child) + min(m.raw_len(child) // 100, 3)
                base_sum += base
                loose_sum += base
                has_scorable = True
            anchor_sum += m.trimmed_len(child) if child.tag == "a" else anchors[cid]
        inner_base[id(node)] = base_sum
        loose_base[id(node)] = loose_sum
        credited[id(node)] = has_scorable
        anchors[id(node)] = anchor_sum

    best, best_final = None, 0
    for node in m.order:
        if node.tag not in _CONTAINERS or node.tag == "body" or not credited[id(node)]:
            continue
        raw = _class_id_weight(node) + inner_base[id(node)]
        if raw <= 0:
            continue
        text_len = m.trimmed_len(node)
        final = raw if text_len == 0 else raw * (text_len - anchors[id(node)]) // text_len
        if final > best_final:
            best, best_final = node, final
    if best is None and loose_base[id(body)] > 0:
        # Deviation from the reference (which never picks <body>): a page whose substantial
        # text sits directly in <body> (man-page and release-notes style HTML) has no container
        # to pick; rendering the whole body still strips markup, scripts and styles.
        best = body
    if best is None:
        return None
    text_len = m.trimmed_len(best)
    if text_len == 0 or 2 * anchors[id(best)] >= text_len:
        return None  # link farm: mostly anchor text
    return best


# -- rendering ---------------------------------------------------------------------------------


def _outline(body: Element, best: Element) -> tuple[list[str], list[str]]:
    """The page's ``<title>`` and the headings outside the article, as lines before / after it.

    The article alone loses the page's name and every heading of the parts left out (a
    sidebar's "In core::arch::x86", a "Table of contents"): they are short and are what an
    agent navigates by, so they stay, in document order, with their text runs untouched."""
    before: list[str] = []
    after: list[str] = []
    title = _title(body)
    lines, seen_best = before, False
    stack: list[Element | str] = [body]
    while stack:
        cur = stack.pop()
        if isinstance(cur, str):
            continue
        if cur is best:
            lines, seen_best = after, True
            continue
        if cur.tag in _HEADINGS:
            text = _flat(cur)
            if text:
                lines.append(text)
            continue
        stack.extend(reversed(cur.children))
    if not seen_best:  # the article is the body: no heading is outside it
        before, after = [], []
    if title and title not in before[:1]:
        before.insert(0, title)
    return before, after


def _title(body: Element) -> str:
    """The document's ``<title>`` text (whitespace collapsed), or ''."""
    root = body.parent
    for head in (c for c in (root.children if root else []) if not isinstance(c, str) and c.tag == "head"):
        for el in head.children:
            if not isinstance(el, str) and el.tag == "title":
                return _flat(el)
    return ""


def _flat(node: Element) -> str:
    """A heading's text as one line: its text runs joined as they are, whitespace runs as one space."""
    return _ANY_SPACE.sub(" ", _descendant_text(node)).strip()


def _descendant_text(node: Element) -> str:
    parts: list[str] = []
    stack: list[Element | str] = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, str):
            parts.append(cur)
        else:
            stack.extend(reversed(cur.children))
    return "".join(parts)


def _render_text(node: Element) -> str:
    parts: list[str] = []
    pres: list[str] = []
    stack: list[Element | str | tuple[str]] = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, tuple):  # a closing separator
            parts.append(cur[0])
        elif isinstance(cur, str):
            parts.append(cur)
        elif cur.tag == "pre":
            parts.append(f"\n\x00PRE{len(pres)}\x00\n")
            pres.append(_descendant_text(cur).strip("\n"))
        else:
            sep = "\n" if cur.tag in _BLOCK else "" if cur.tag in _INLINE else " "
            if sep:
                parts.append(sep)
                stack.append((sep,))
            stack.extend(reversed(cur.children))
    lines = [trim_space(_HSPACE.sub(" ", line)) for line in "".join(parts).split("\n")]
    text = trim_space(_NEWLINE_RUNS.sub("\n\n", "\n".join(lines)))
    if pres:
        text = _PRE_SLOT.sub(lambda mt: pres[int(mt.group(1))], text)
    return text
