"""Language sniffing from raw content (spec §3.3a step 1), plus fallbacks.

The spec's rules are raw substring checks, first match wins; a mis-sniff fails later at the
parse gate. cavemem extends each verdict with fallback grammars that are tried, in order, when
the first one does not parse cleanly: TypeScript → TSX → JavaScript (JSX), C → C++, Python →
Ruby. Ruby (not in the reference) is tried last whenever the text has ``def`` and a bare ``end`` line.
"""

from __future__ import annotations

import re

_RUBY_END = re.compile(rb"^[ \t]*end[ \t\r]*$", re.M)


def _looks_ruby(data: bytes) -> bool:
    return b"def " in data and _RUBY_END.search(data) is not None


def sniff_languages(data: bytes) -> tuple[str, ...]:
    """Grammar names to try, best first; empty when the content does not look like code."""
    langs = _reference_sniff(data)
    if "ruby" not in langs and _looks_ruby(data):
        langs += ("ruby",)
    return langs


def _reference_sniff(data: bytes) -> tuple[str, ...]:
    has = data.__contains__
    if has(b"package ") and has(b"func "):
        return ("go",)
    if has(b"def ") and has(b":"):
        return ("python",)
    if has(b"fn ") and (has(b"->") or has(b"impl ") or has(b"pub ") or has(b"let mut ")):
        return ("rust",)
    if (
        has(b"public class ")
        or has(b"public static void main")
        or (
            has(b"import ")
            and has(b"class ")
            and has(b";")
            and not has(b"#include")
            and (has(b"public ") or has(b"private ") or has(b"protected "))
        )
    ):
        return ("java",)
    if has(b"#include"):
        cpp_markers = (b"std::", b"template<", b"template <", b"namespace ", b"::", b"public:", b"private:")
        if any(has(m) for m in cpp_markers):
            return ("cpp",)
        return ("c", "cpp")
    if any(has(m) for m in (b"function ", b"=>", b"const ", b"let ", b"interface ", b"class ")):
        return ("typescript", "tsx", "javascript")
    return ()
