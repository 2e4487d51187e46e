"""Content-type detection (spec engine-core §2): deterministic, fail-open to ``text``.

The ten auto types are tried in a fixed order — json, terminal, diff, html, tabular, code, log,
search-result, config, text — and each predicate answers "no" whenever it is unsure. Only
stdlib ``re`` is imported at module level: ``detect`` is a hot CLI command.
"""

from __future__ import annotations

import re

from ..gocompat import json_valid, trim_space_bytes
from .wrappers import unwrap

AUTO_TYPES = ("json", "terminal", "diff", "html", "tabular", "code", "log", "search-result", "config", "text")

_CSI = re.compile(rb"\x1b\[[0-9;?]*[\x20-\x2f]*[\x40-\x7e]")
_DIFF_LINE = re.compile(rb"^(?:diff --git |@@ |--- |\+\+\+ |[+-](?:[^+\-]|\n))", re.M)
_CODE_STRUCT_PREFIXES = (b"import ", b"export ", b"package ", b"func ", b"def ", b"const ", b"#include", b"#!", b"//", b"/*")
_CODE_STRUCT_INNER = (b"\nimport ", b"\nexport ", b"\npackage ", b"\nfunc ", b"\ndef ", b"\nclass ", b"\nconst ")
_HTML_TAGS = (b"<body", b"<article", b"<main", b"<div", b"<p>", b"<p ")
_KEYWORDS = re.compile(
    rb"\b(?:func|package|import|def|class|function|return|const|let|var|public|private|protected|static|void"
    rb"|struct|interface|namespace|module|fn|impl|trait|export|async|await)\b"
)
_SYMBOLS = re.compile(rb"=>|::|->|\)\{|\) \{|;\n|\A[\t\n\f\r ]*(?:#include|from [^\n]*import )")
_LOG_LINE = re.compile(
    rb"(?i)\b(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|PANIC)\b|^[\t\n\f\r ]*\[[A-Za-z]+\]"
    rb"|\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}|\b\d{2}:\d{2}:\d{2}\b"
)
_SEARCH_LINE = re.compile(rb"[./~A-Za-z0-9_-][^:\n]{0,240}:\d+(?::\d+)?:|https?://\S")


def detect(data: bytes) -> str:
    """The content type of ``data`` (one of :data:`AUTO_TYPES`)."""
    body, _ = unwrap(data)
    trimmed = trim_space_bytes(body)
    if not trimmed:
        return "text"
    if trimmed[:1] in (b"{", b"[") and json_valid(trimmed):
        return "json"
    if is_terminal(body):
        return "terminal"
    if is_diff(body):
        return "diff"
    if is_html(body, trimmed):
        return "html"
    if _looks_tabular(body):
        return "tabular"
    if is_code(body, trimmed):
        return "code"
    if is_log(body):
        return "log"
    if is_search_result(body):
        return "search-result"
    if _looks_config(body):
        return "config"
    return "text"


def is_terminal(data: bytes) -> bool:
    if b"\x1b[" in data and _CSI.search(data):
        return True
    return data.count(b"\r") - data.count(b"\r\n") >= 3


def is_diff(data: bytes) -> bool:
    if not (b"\n@@ " in data or b"diff --git " in data or (b"\n--- " in data and b"\n+++ " in data)):
        return False
    count = 0
    for _ in _DIFF_LINE.finditer(data):
        count += 1
        if count >= 4:
            return True
    return False


def has_code_structure(data: bytes, trimmed: bytes) -> bool:
    if b"=>" in data or b"className=" in data or b"});" in data:
        return True
    if trimmed.startswith(_CODE_STRUCT_PREFIXES):
        return True
    return any(p in data for p in _CODE_STRUCT_INNER)


def is_html(data: bytes, trimmed: bytes) -> bool:
    s = trimmed.lower()
    if s.startswith(b"<!doctype html") or s.startswith(b"<html"):
        return True
    if has_code_structure(data, trimmed):
        return False
    return any(t in s for t in _HTML_TAGS) and s.count(b"<") >= 6


def _looks_tabular(data: bytes) -> bool:
    # cheap pre-checks before the strict parse: a table needs a delimiter on its first line
    trimmed = trim_space_bytes(data)
    end = trimmed.find(b"\n")
    first = trimmed if end < 0 else trimmed[:end]
    if b"|" not in first and b"," not in first and b"\t" not in first:
        return False
    from ..formats.tables import looks_tabular

    return looks_tabular(data)


def is_code(data: bytes, trimmed: bytes) -> bool:
    if is_log(data):
        return False
    if trimmed.startswith(b"#!"):
        return True
    matches = 0
    for _ in _KEYWORDS.finditer(data):
        matches += 1
        if matches >= 3:
            break
    if matches < 3:
        return False
    return (
        _SYMBOLS.search(data) is not None
        or b"{" in data
        or (b"def " in data and b":" in data)
        or b"\n    " in data
    )


def is_log(data: bytes) -> bool:
    return _lines_vote(data, _LOG_LINE.search, min_lines=4, min_hits=3, share_den=2)


def is_search_result(data: bytes) -> bool:
    return _lines_vote(data, _SEARCH_LINE.match, min_lines=6, min_hits=4, share_den=3)


def _lines_vote(data: bytes, hit, *, min_lines: int, min_hits: int, share_den: int) -> bool:
    """At least ``min_lines`` lines, of which ``hit`` accepts at least ``min_hits`` and at least
    one in ``share_den``."""
    lines = data.split(b"\n")
    total = len(lines)
    if total < min_lines:
        return False
    matches = sum(1 for line in lines if hit(line))
    return matches >= min_hits and matches * share_den >= total


def _looks_config(data: bytes) -> bool:
    body = data[:-1] if data.endswith(b"\n") else data
    if body.count(b"\n") + 1 < 12:  # cheap line-count gate before the strict parse
        return False
    from ..formats.configs import looks_config

    return looks_config(data)
