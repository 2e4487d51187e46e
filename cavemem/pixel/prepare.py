"""Text preparation before rendering (spec pixel-and-mem A3): length units, whitespace
minification, tab expansion and *reflow* (hard newlines folded into a visible ``↵`` glyph so
short lines pack densely into the page).

Three length units are used on purpose, each where the reference uses it: ``js_len`` (UTF-16
code units) for page budgets and gate text, ``len(str)`` (code points) for ``charsRendered``,
``byte_len`` (UTF-8 bytes) for OpenAI/Gemini sizes.
"""

from __future__ import annotations

import re

NL_SENTINEL = "\u21b5"  # ↵ marks an original hard line break in reflowed text
NL_SENTINEL_LITERAL = "\u23ce"  # ⏎ stands in for a literal ↵ that was already in the text
TAB_GLYPH = "\u2192"  # → drawn where a tab was
TAB_WIDTH = 4

_MANY_NEWLINES_4 = re.compile(r"\n{4,}")
_MANY_NEWLINES_3 = re.compile(r"\n{3,}")


def js_len(s: str) -> int:
    """UTF-16 code units (a code point above U+FFFF counts 2)."""
    if s.isascii():
        return len(s)
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def byte_len(s: str) -> int:
    """UTF-8 bytes (a lone surrogate counts 3, like the U+FFFD Go would have put there)."""
    if s.isascii():
        return len(s)
    return len(s.encode("utf-8", "surrogatepass"))


def _strip_line_ends(text: str) -> str:
    # per-line rstrip: a regex like `[ \t]+$` is quadratic on a long run of blanks
    if " \n" not in text and "\t\n" not in text and not text.endswith((" ", "\t")):
        return text
    return "\n".join(line.rstrip(" \t") for line in text.split("\n"))


def minify_for_render(text: str) -> str:
    """Trailing blanks off every line; runs of 4+ newlines become exactly 3 (two blank lines)."""
    text = _strip_line_ends(text)
    if "\n\n\n\n" not in text:  # a substring search; the regex scan cost ~2 ms a page of log
        return text
    return _MANY_NEWLINES_4.sub("\n\n\n", text)


def compact_slab_whitespace(text: str) -> str:
    """Slab variant: trailing blanks off every line; runs of 3+ newlines become 2."""
    if not text:
        return text
    text = _strip_line_ends(text)
    if "\n\n\n" not in text:
        return text
    return _MANY_NEWLINES_3.sub("\n\n", text)


def expand_tabs_in_line(line: str) -> str:
    """Each tab becomes ``→`` plus spaces up to the next multiple-of-4 cell column (wide glyphs
    count 2 cells)."""
    if "\t" not in line:
        return line
    from .atlas import get_atlas

    width = get_atlas().cell_width
    out: list[str] = []
    col = 0
    for ch in line:
        if ch == "\t":
            span = TAB_WIDTH - col % TAB_WIDTH
            out.append(TAB_GLYPH + " " * (span - 1))
            col += span
        else:
            out.append(ch)
            col += width(ch)
    return "".join(out)


def reflow(text: str) -> tuple[str, bool]:
    """Fold hard line breaks into ``↵`` so the text wraps as one stream.

    Returns ``(packed, True)``, or ``(text, False)`` when the text already holds a ``↵`` (the
    fold could not be undone)."""
    if NL_SENTINEL in text:
        return text, False
    lines = minify_for_render(text).split("\n")
    return NL_SENTINEL.join(expand_tabs_in_line(line) for line in lines), True


def dereflow(text: str) -> str:
    return text.replace(NL_SENTINEL, "\n")


def neutralize_sentinel(text: str) -> str:
    """A literal ``↵`` becomes ``⏎`` so reflow can always run."""
    return text.replace(NL_SENTINEL, NL_SENTINEL_LITERAL)


def reflow_or_raw(text: str, enabled: bool = True) -> str:
    """The reflowed text when reflow is on and succeeds, else the text unchanged."""
    if not enabled:
        return text
    packed, ok = reflow(text)
    return packed if ok else text
