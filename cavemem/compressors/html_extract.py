"""A small, forgiving HTML tree builder on top of stdlib :mod:`html.parser`.

The html compressor (spec engine-compressors §3.7) needs a DOM-like tree whose shape is close
to what a WHATWG parser builds: an implied ``<body>``, paragraphs and list items that close
themselves, table cells that close each other, void elements without children, and text kept
as separate nodes. html5lib would do this exactly but is a new, slow dependency; the handful of
tree-construction rules below cover the pages an agent actually fetches, and the extraction
is scored heuristically anyway.

Deliberate limits, so hostile input stays linear: the tree is at most :data:`MAX_DEPTH`
elements deep (browsers cap nesting the same way; deeper tags attach their content to the
deepest open element), and noise subtrees (scripts, styles, forms, …) are built detached, so
they never reach the document.
"""

from __future__ import annotations

from html.parser import HTMLParser

MAX_DEPTH = 512

# Removed with their whole subtree before scoring (spec §3.7 step 3).
NOISE_TAGS = frozenset({"script", "style", "noscript", "svg", "iframe", "form", "button", "input", "template"})

VOID_TAGS = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr"}
)
_HEAD_TAGS = frozenset({"base", "basefont", "bgsound", "link", "meta", "noscript", "script", "style", "template", "title"})
# A start tag of one of these closes an open <p> (WHATWG "close a p element").
_CLOSES_P = frozenset(
    {
        "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl",
        "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hgroup", "hr", "li", "main", "menu", "nav", "ol", "p", "pre", "section", "summary", "table", "ul",
        "dd", "dt", "listing", "plaintext", "xmp",
    }
)
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_P = frozenset({"p"})
# Elements an implied end tag never reaches past (a simplified "scope").
_SCOPE_BOUNDARY = frozenset({"html", "body", "table", "td", "th", "caption", "marquee", "object", "applet", "template"})
_LIST_BOUNDARY = _SCOPE_BOUNDARY | {"ol", "ul"}
_TABLE_BOUNDARY = frozenset({"html", "body", "table", "template"})
_IMPLIED_BY = {
    # start tag -> the open elements it closes, and the elements that stop the search
    "li": (frozenset({"li"}), _LIST_BOUNDARY),
    "dt": (frozenset({"dt", "dd"}), _SCOPE_BOUNDARY | {"dl"}),
    "dd": (frozenset({"dt", "dd"}), _SCOPE_BOUNDARY | {"dl"}),
    "td": (frozenset({"td", "th"}), _TABLE_BOUNDARY | {"tr"}),
    "th": (frozenset({"td", "th"}), _TABLE_BOUNDARY | {"tr"}),
    "tr": (frozenset({"tr"}), _TABLE_BOUNDARY | {"tbody", "thead", "tfoot"}),
    "tbody": (frozenset({"tbody", "thead", "tfoot"}), _TABLE_BOUNDARY),
    "thead": (frozenset({"tbody", "thead", "tfoot"}), _TABLE_BOUNDARY),
    "tfoot": (frozenset({"tbody", "thead", "tfoot"}), _TABLE_BOUNDARY),
    "option": (frozenset({"option"}), frozenset({"select", "datalist", "body", "html"})),
}


class Element:
    """An element node. ``children`` holds Elements and ``str`` text nodes, in order."""

    __slots__ = ("tag", "attrs", "children", "parent")

    def __init__(self, tag: str, attrs: list[tuple[str, str | None]], parent: "Element | None"):
        self.tag = tag
        self.attrs = attrs
        self.children: list[Element | str] = []
        self.parent = parent

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<{self.tag} children={len(self.children)}>"


class _TreeBuilder(HTMLParser):
    """Builds the tree from html.parser events, applying the implied-end-tag rules above."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", [], None)
        self.html = Element("html", [], self.root)
        self.root.children.append(self.html)
        self.head: Element | None = None
        self.body: Element | None = None
        self.frameset = False
        self.stack: list[Element] = [self.html]  # open elements, html at the bottom
        self.open_tags: dict[str, int] = {}  # tag -> how many are on the stack (cheap "is open?")
        self.overflow = 0  # start tags swallowed past MAX_DEPTH
        self._pending: list[str] = []
        self._pending_node: Element | None = None

    # -- the stack of open elements -------------------------------------------------------
    def _push(self, node: Element) -> None:
        self.stack.append(node)
        self.open_tags[node.tag] = self.open_tags.get(node.tag, 0) + 1

    def _truncate(self, keep: int) -> None:
        """Close every open element above the first ``keep``."""
        for node in self.stack[keep:]:
            self.open_tags[node.tag] -= 1
        del self.stack[keep:]

    def _pop_until(self, names: frozenset, boundary: frozenset) -> None:
        """Close the nearest open element named in ``names`` unless ``boundary`` comes first."""
        if not any(self.open_tags.get(n) for n in names):
            return
        for i in range(len(self.stack) - 1, 0, -1):
            tag = self.stack[i].tag
            if tag in names:
                self._truncate(i)
                return
            if tag in boundary:
                return

    def _ensure_body(self) -> Element | None:
        if self.body is None:
            if self.frameset:
                return None
            self._truncate(1)  # leaving the head: everything open there is closed
            self.body = Element("body", [], self.html)
            self.html.children.append(self.body)
            self._push(self.body)
        return self.body

    def _ensure_head(self) -> Element:
        if self.head is None:
            self.head = Element("head", [], self.html)
            self.html.children.append(self.head)
        return self.head

    def _open(self, tag: str, attrs) -> None:
        if len(self.stack) >= MAX_DEPTH:  # swallowed: its content joins the deepest element
            if tag not in VOID_TAGS:
                self.overflow += 1
            return
        node = Element(tag, attrs, self.stack[-1])
        if tag not in NOISE_TAGS:  # noise is built detached: its subtree never lands
            self.stack[-1].children.append(node)
        if tag not in VOID_TAGS:
            self._push(node)

    # -- HTMLParser callbacks -------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs) -> None:
        self._flush_text()
        if tag == "html":
            return
        if tag == "head":
            if self.body is None and self.head is None:
                self._truncate(1)
                self._push(self._ensure_head())
            return
        if tag == "body":
            self._ensure_body()
            return
        if tag == "frameset":
            if self.body is None:
                self.frameset = True
            return
        if self.body is None:
            if tag in _HEAD_TAGS:
                if len(self.stack) == 1:  # only <html> open: head content goes to <head>
                    self._push(self._ensure_head())
                self._open(tag, attrs)
                return
            if self._ensure_body() is None:
                return
        if len(self.stack) < MAX_DEPTH:
            if tag in _CLOSES_P:
                self._pop_until(_P, _SCOPE_BOUNDARY | {"button"})
            if tag in _HEADINGS and self.stack[-1].tag in _HEADINGS:
                self._truncate(len(self.stack) - 1)
            implied = _IMPLIED_BY.get(tag)
            if implied is not None:
                self._pop_until(*implied)
        self._open(tag, attrs)

    def handle_startendtag(self, tag: str, attrs) -> None:
        # "<div/>" is not self-closing in HTML; only void elements are.
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self._flush_text()
        if tag in ("html", "body"):
            return  # WHATWG keeps inserting into body after </body>
        if tag == "head":
            if self.open_tags.get("head"):
                self._truncate(1)
            return
        if tag == "br":  # "</br>" is treated as "<br>"
            self.handle_starttag("br", [])
            return
        if self.overflow:
            self.overflow -= 1
            return
        if not self.open_tags.get(tag):
            return  # a stray end tag is ignored
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                self._truncate(i)
                return

    def handle_data(self, data: str) -> None:
        if not data:
            return
        if self.body is None:
            top = self.stack[-1]
            if top is not self.html and top is not self.head:
                self._text(data)  # inside <title>, <script>, … in the head
                return
            stripped = data.lstrip("\t\n\f\r ")
            if not stripped:
                return
            if self._ensure_body() is None:
                return
            data = stripped
        self._text(data)

    def _text(self, data: str) -> None:
        # adjacent chunks form one text node; they are joined once, when the run ends
        # (appending to a str in place would be quadratic on inputs like "<<<<…")
        node = self.stack[-1]
        if self._pending_node is not node:
            self._flush_text()
            self._pending_node = node
        self._pending.append(data)

    def _flush_text(self) -> None:
        if self._pending and self._pending_node is not None:
            children = self._pending_node.children
            text = "".join(self._pending)
            if children and isinstance(children[-1], str):
                children[-1] += text
            else:
                children.append(text)
        self._pending = []
        self._pending_node = None

    def parse_marked_section(self, i: int, report: int = 1) -> int:
        # "<![if …]>", "<![CDATA[…]]>" in HTML content are bogus comments ending at the first
        # ">" (WHATWG); html.parser would raise on the unknown keywords Word emits.
        j = self.rawdata.find(">", i + 3)
        return -1 if j < 0 else j + 1

    # comments, doctype, processing instructions: not part of the text
    def handle_comment(self, data: str) -> None:
        pass

    def handle_decl(self, decl: str) -> None:
        pass

    def handle_pi(self, data: str) -> None:
        pass

    def unknown_decl(self, data: str) -> None:
        pass


def parse_document(text: str) -> Element | None:
    """Parse ``text`` into a tree and return its ``<body>`` (None for a frameset page or a
    parse failure). CR/LF are normalized first and NUL becomes U+FFFD, as in WHATWG."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "\ufffd")
    builder = _TreeBuilder()
    try:
        builder.feed(text)
        builder.close()
        builder._flush_text()
    except Exception:  # html.parser raises on a few malformed marked sections
        return None
    return builder.body
