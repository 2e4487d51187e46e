"""The "no new errors" re-parse gate for code that never parsed cleanly (extends spec §3.3a step 7).

Real C is full of macros tree-sitter cannot expand (``local void f()``, ``ZEXPORT``, ``OF((…))``),
so the grammar reports small ERROR nodes in signatures and declarations of perfectly good code.
The spec's gate ("clean parse, clean re-parse") passes all of it through. This gate keeps the
same guarantee in a form that tolerates such pre-existing errors:

- a body is only replaced when no error node lies inside it or touches it (only blanks between);
- the output's errors must be *exactly* the input's errors, moved by the splice — same kind,
  same bytes, same places — so elision introduced nothing and swallowed nothing.

When the input parses cleanly this is the spec's gate: the output must have no errors at all.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from itertools import accumulate

ErrorSpan = tuple[int, int, str]  # (start byte, end byte, "ERROR" or "MISSING <kind>")

# The footprint an unexpanded macro leaves in a signature: one word tree-sitter could not place,
# perhaps with the pointer stars of a return type (``local int f()`` → ERROR over ``int``,
# ``local char *f()`` → over ``char *``; ``PNGCBAPI``, ``XMLCALL``, ``_X_UNUSED``).
_LONE_WORD = re.compile(rb"(?:[A-Za-z_][A-Za-z0-9_]*)?[ \t*&]*\Z")

_BLANKS = b" \t\r\n\f\v"


def error_spans(root) -> list[ErrorSpan]:
    """The outermost ERROR nodes and every MISSING node, in document order.

    Only subtrees that report ``has_error`` are entered, so a mostly clean tree costs a few
    node visits per error rather than a full walk."""
    spans: list[ErrorSpan] = []
    if not root.has_error:
        return spans
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error:
            spans.append((node.start_byte, node.end_byte, "ERROR"))
            continue
        if node.is_missing:
            spans.append((node.start_byte, node.end_byte, "MISSING " + node.type))
            continue
        stack.extend(child for child in reversed(node.children) if child.has_error)
    spans.sort()
    return spans


def error_bytes(spans: list[ErrorSpan]) -> int:
    """Bytes covered by error nodes; a zero-width MISSING node counts as one byte."""
    return sum(max(end - start, 1) for start, end, _ in spans)


def _widen_over_blanks(data: bytes, start: int, end: int) -> tuple[int, int]:
    while start > 0 and data[start - 1] in _BLANKS:
        start -= 1
    n = len(data)
    while end < n and data[end] in _BLANKS:
        end += 1
    return start, end


class ErrorMap:
    """A parse's error spans with a bisect index, so checking every function of a large file
    against thousands of errors stays O((F + E) log E)."""

    def __init__(self, data: bytes, spans: list[ErrorSpan]):
        self.data = data
        self.spans = sorted(spans)
        self._reach = list(accumulate((e for _, e, _ in self.spans), max))  # running max of ends

    def _overlapping(self, lo: int, hi: int):
        """Spans with start <= hi and end >= lo (touching counts)."""
        i = bisect_left(self._reach, lo)
        while i < len(self.spans) and self.spans[i][0] <= hi:
            if self.spans[i][1] >= lo:
                yield self.spans[i]
            i += 1

    def clear(self, start: int, end: int) -> bool:
        """True when no error lies inside ``[start, end)`` or touches it (only blanks between)."""
        lo, hi = _widen_over_blanks(self.data, start, end)
        return next(self._overlapping(lo, hi), None) is None

    def function_clear(self, fn_start: int, body_start: int, body_end: int) -> bool:
        """A function whose body may be elided despite errors elsewhere: nothing in or touching
        the body, and in its head (from the function's start to the body) only lone-word ERROR
        nodes (a word and pointer stars). A MISSING token or a wider error there means the
        signature itself is broken, so the "body" tree-sitter found is not trustworthy."""
        if not self.clear(body_start, body_end):
            return False
        for s, e, kind in self._overlapping(fn_start, body_start):
            if s == body_start:
                continue  # touches the body: already refused by ``clear``
            if kind != "ERROR" or _LONE_WORD.match(self.data, s, e) is None:
                return False
        return True


def moved_through_splice(spans: list[ErrorSpan], applied: list[tuple[int, int, bytes]]) -> list[ErrorSpan] | None:
    """Where each input error lands in the spliced output; None if one lies in a replaced range.

    ``applied`` are the replacements actually spliced (sorted by start, non-overlapping)."""
    out: list[ErrorSpan] = []
    shift = 0
    k = 0
    for s, e, kind in spans:
        while k < len(applied) and applied[k][1] <= s:
            start, end, new = applied[k]
            shift += len(new) - (end - start)
            k += 1
        if k < len(applied) and applied[k][0] < max(e, s + 1):
            return None  # the error overlaps the next replacement
        out.append((s + shift, e + shift, kind))
    return out


def no_new_errors(data_spans: list[ErrorSpan], out_spans: list[ErrorSpan], applied: list[tuple[int, int, bytes]]) -> bool:
    """The gate: the output's errors are exactly the input's, moved through the splice (same kind,
    same extent; bytes outside replacements are untouched, so also the same text)."""
    moved = moved_through_splice(data_spans, applied)
    return moved is not None and moved == out_spans
