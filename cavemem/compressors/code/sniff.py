"""Language sniffing from raw content (spec §3.3a step 1), extended with fallbacks.

The reference's rules are raw substring checks and the first match wins; a mis-sniff then fails
at the parse gate. Those checks misfire on ordinary code — ``#ifdef X`` contains ``def `` and a
colon makes a C file "python"; ``fn `` plus ``->`` makes a JavaScript file "rust" — so cavemem
keeps the reference verdict first (its output is unchanged whenever the reference succeeds) and
then tries every other rule that matches, in the same order, each followed by its related
grammars: TypeScript → TSX → JavaScript (JSX), C → C++. Ruby, which the reference lacks, comes
last when the text has ``def`` and a bare ``end`` line. PHP, Perl, shell and make follow, each
only on a mark no other language's source carries (``<?php``, a shebang, a ``package X;``
with ``use strict``, a rule line with a tab recipe), so the verdicts above never change. The
first grammar that parses cleanly decides.
"""

from __future__ import annotations

import re

_RUBY_END = re.compile(rb"^[ \t]*end[ \t\r]*$", re.M)
_CPP_MARKERS = (b"std::", b"template<", b"template <", b"namespace ", b"::", b"public:", b"private:")
_TS_MARKERS = (b"function ", b"=>", b"const ", b"let ", b"interface ", b"class ")

_SHEBANG = re.compile(rb"#![ \t]*(?:/usr)?(?:/local)?/bin/(?:env[ \t]+)?(\w+)")
_SHELLS = (b"sh", b"bash", b"dash", b"ksh")
_PERL_PACKAGE = re.compile(rb"^package[ \t]+[\w:]+[ \t]*;", re.M)
_PERL_PRAGMA = re.compile(rb"^[ \t]*(?:use[ \t]+(?:strict|warnings)\b|sub[ \t]+\w+)", re.M)
_MAKE_RULE = re.compile(rb"^[^\s#:=][^:=\n]*::?(?!=)[^\n]*\n\t[^\s#]", re.M)
_MAKE_ASSIGN = re.compile(rb"^[A-Za-z_][\w.]*[ \t]*(?:[:+?]|::)?=", re.M)

# Grammars worth trying after a rule's own verdict.
_RELATED = {"typescript": ("tsx", "javascript"), "c": ("cpp",)}


def _is_go(has) -> bool:
    return has(b"package ") and has(b"func ")


def _is_python(has) -> bool:
    return has(b"def ") and has(b":")


def _is_rust(has) -> bool:
    return has(b"fn ") and (has(b"->") or has(b"impl ") or has(b"pub ") or has(b"let mut "))


def _is_java(has) -> bool:
    return (
        has(b"public class ")
        or has(b"public static void main")
        or (
            has(b"import ")
            and has(b"class ")
            and has(b";")
            and not has(b"#include")
            and (has(b"public ") or has(b"private ") or has(b"protected "))
        )
    )


def _is_cpp(has) -> bool:
    return has(b"#include") and any(has(m) for m in _CPP_MARKERS)


def _is_c(has) -> bool:
    return has(b"#include")


def _is_typescript(has) -> bool:
    return any(has(m) for m in _TS_MARKERS)


# The reference's rules, in its order (cpp before c: a C++ file also satisfies the C rule).
RULES = (
    ("go", _is_go),
    ("python", _is_python),
    ("rust", _is_rust),
    ("java", _is_java),
    ("cpp", _is_cpp),
    ("c", _is_c),
    ("typescript", _is_typescript),
)


def reference_language(data: bytes) -> str | None:
    """The reference's verdict: the first matching rule, or None."""
    has = data.__contains__
    return next((name for name, rule in RULES if rule(has)), None)


def sniff_languages(data: bytes) -> tuple[str, ...]:
    """Grammar names to try, best first; empty when the content does not look like code."""
    has = data.__contains__
    langs: list[str] = []
    for name, rule in RULES:
        if rule(has):
            for lang in (name, *_RELATED.get(name, ())):
                if lang not in langs:
                    langs.append(lang)
    if b"def " in data and _RUBY_END.search(data) is not None:
        langs.append("ruby")
    langs.extend(name for name in _marked_languages(data) if name not in langs)
    return tuple(langs)


def _marked_languages(data: bytes) -> list[str]:
    """PHP, Perl, shell and make, when the text carries the mark of one."""
    out = []
    if b"<?php" in data[:4096]:
        out.append("php")
    bang = _SHEBANG.match(data)
    interpreter = bang.group(1) if bang else b""
    if interpreter.startswith(b"perl") or (_PERL_PACKAGE.search(data) and _PERL_PRAGMA.search(data)):
        out.append("perl")
    if interpreter in _SHELLS:
        out.append("bash")
    if bang is None and _MAKE_RULE.search(data) and _MAKE_ASSIGN.search(data):
        out.append("make")
    return out
