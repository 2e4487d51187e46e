"""Elision for source no grammar parses cleanly (macro-heavy C, vendor extensions, K&R style).

Runs only after every sniffed grammar failed the spec's clean-parse test. Each grammar parses
again with errors allowed; the one whose error nodes cover the fewest bytes wins, provided the
errors are a small share of the input (a mis-sniffed or broken file is mostly error and passes
through). Elision then follows the "no new errors" gate of ``parse_errors``.

Error recovery on garbage is tree-sitter's slow path (seconds per MB), so text that does not look
like source — control bytes, many invalid UTF-8 sequences — is refused before parsing, and the
tolerant parses get a budget of their own inside the compress call's.
"""

from __future__ import annotations

import re

from .elide import CodeOptions, elide_tree
from .languages import Deadline, parse, sized_budget
from .macros import parse_view
from .parse_errors import error_bytes, error_spans

# At most this share of the input may lie in error nodes (a K&R/macro C file: well under 1 %).
MAX_ERROR_SHARE = 0.05
# Invalid UTF-8 sequences or control bytes tolerated per KiB of input (Latin-1 comments are fine).
MAX_ODD_PER_KIB = 4
# A grammar whose errors cover at most this share is not worth comparing with the others.
GOOD_ENOUGH_SHARE = 0.005
TOLERANT_BUDGET_SECONDS = 2.0  # plus TOLERANT_SECONDS_PER_MIB for each MiB
TOLERANT_SECONDS_PER_MIB = 1.0
# Grammars that parse the attribute-macro view of :mod:`.macros` instead of the raw bytes.
C_FAMILY = ("c", "cpp")

_PREPROCESSOR_LINE = re.compile(rb"^[ \t]*#[ \t]*(?:include|define|ifn?def|if)\b", re.M)
_CONTROL_BYTES = bytes(b for b in range(32) if b not in b"\t\n\r\f\v\x1b") + b"\x7f"


def looks_like_source_text(data: bytes) -> bool:
    """Few control bytes and few invalid UTF-8 sequences (both counted at C speed)."""
    allowed = MAX_ODD_PER_KIB * (len(data) // 1024 + 1)
    if len(data) - len(data.translate(None, _CONTROL_BYTES)) > allowed:
        return False
    if data.isascii():
        return True
    return data.decode("utf-8", "replace").count("\ufffd") <= allowed


def clean_order(languages: tuple[str, ...], data: bytes) -> tuple[str, ...]:
    """The sniffed grammars worth a clean-parse attempt: none of the JavaScript family for text
    with C preprocessor lines (``#include``, ``#define`` cannot be JS/TS; a failed clean parse of
    a large header costs up to a second per grammar, time the tolerant stage then lacks)."""
    if not {"c", "cpp"} & set(languages) or _PREPROCESSOR_LINE.search(data) is None:
        return languages
    return tuple(n for n in languages if n not in ("javascript", "typescript", "tsx"))


def tolerant_order(languages: tuple[str, ...], data: bytes) -> list[str]:
    """Sniffed grammars, C and C++ first when the text has preprocessor lines (the reference's
    sniff puts Python first for any C file with ``#ifdef X`` and a colon)."""
    order = list(languages)
    if _PREPROCESSOR_LINE.search(data) is not None:
        order.sort(key=lambda name: name not in ("c", "cpp"))  # stable: C/C++ keep their order
    return order


def elide_tolerating_errors(
    languages: tuple[str, ...], data: bytes, options: CodeOptions, deadline: Deadline, fitted: list | None = None
) -> bytes | None:
    """Elide under the no-new-errors gate with the grammar that fits ``data`` best; None when no
    grammar's errors are a small enough share of the input (or nothing could be elided: then
    the fitting grammar's name is appended to ``fitted``).

    The grammar with the fewest error bytes wins (earlier on a tie), once over the raw bytes and,
    for C/C++ with attribute macros, once over the :mod:`.macros` view; when both fit, the shorter
    valid output is kept (the view can err less and still elide less: K&R definitions). A full
    error-tolerant parse of a wrong grammar costs up to a second on a large file, so the search
    stops at the first grammar whose errors are negligible."""
    if not data or not looks_like_source_text(data):
        return None
    budget = deadline.capped(sized_budget(len(data), TOLERANT_BUDGET_SECONDS, TOLERANT_SECONDS_PER_MIB))
    c_view = parse_view(data) if any(name in C_FAMILY for name in languages) else None
    best = {}  # None: the raw bytes; c_view: the attribute-macro view (:mod:`.macros`)
    for name in tolerant_order(languages, data):
        for view in (None, c_view) if c_view is not None and name in C_FAMILY else (None,):
            tree = parse(name, data if view is None else view, budget, allow_errors=True)
            if tree is None:
                continue
            spans = error_spans(tree.root_node)
            size = error_bytes(spans)
            if view not in best or size < best[view][0]:
                best[view] = (size, name, tree, spans)
        if budget.expired() or any(b[0] <= GOOD_ENOUGH_SHARE * len(data) for b in best.values()):
            break  # out of time (the best grammar so far still decides), or good enough
    fits = {view: b for view, b in best.items() if b[0] <= MAX_ERROR_SHARE * len(data)}
    if not fits:
        return None
    if fitted is not None:
        fitted.append(min(fits.values(), key=lambda b: b[0])[1])
    outs = [elide_tree(name, data, tree, spans, options, budget, view) for view, (_, name, tree, spans) in fits.items()]
    return min((out for out in outs if out is not None), key=len, default=None)
