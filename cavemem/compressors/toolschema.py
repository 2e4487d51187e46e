"""``toolschema``: MCP / OpenAI tool-catalog reduction (spec engine-compressors §3.10). Force-only.

Tool catalogs are re-sent on every turn, and most of their bytes are prose and documentation
the model does not need to call a tool correctly. This keeps everything that constrains a
call — names, types, ``enum``/``required``/``default``/``const``, every sentence that states a
rule — and drops schema documentation (``title``, ``examples``, ``$comment``, ``$schema``)
and filler sentences of long descriptions.

Output is compact, key-sorted JSON (Go ``json.Marshal``). Any valid JSON value is accepted
(ok even when nothing shrinks; the engine's token guard rejects those).

Decisions where the reference is quirky (spec §9.2): trailing garbage after the value
(``{…} }``) is rejected rather than ignored, and numbers keep their literal text (``1.50``,
big integers) instead of going through float64.
"""

from __future__ import annotations

import re
import unicodedata

from ..gocompat import go_text, loads_verbatim, marshal, trim_space
from .base import Compressor

SMALL_DESCRIPTION_BYTES = 160  # 2 × the lead cap: short descriptions are only trimmed
LEAD_CAP_BYTES = 80

_DROPPED_SCHEMA_KEYS = frozenset({"examples", "example", "$comment", "title", "$schema"})
_VERBATIM_SCHEMA_KEYS = frozenset({"enum", "required", "default", "const"})
_NAME_MAP_KEYS = frozenset(
    {"properties", "$defs", "definitions", "patternProperties", "dependentSchemas", "dependentRequired", "dependencies"}
)
_SCHEMA_KEYS = ("input_schema", "inputSchema", "parameters")
_ENVELOPE_MARKERS = frozenset({"name", "function", *_SCHEMA_KEYS})

CONSTRAINT = re.compile(
    r"\b(?:must|must not|cannot|can't|shall|require\w*|reject\w*|disallow\w*|forbidden|invalid|"
    r"not allowed|not permitted|exactly one|only one of|one of|at least|at most|mutually exclusive|"
    r"only|unique|case[- ]?sensitive|max|min|maximum|minimum|range|between|greater than|less than|"
    r"more than|fewer than|no more than|no less than|over|above|below|under|beyond|exceed\w*|"
    r"format\w*|iso[- ]?\d*|rfc[- ]?\d*|absolute)\b",
    re.ASCII | re.IGNORECASE,
)

ABBREVIATIONS = frozenset(
    "e.g i.e eg ie etc vs cf al viz resp approx no fig figs dr mr mrs ms prof sr jr st inc ltd corp co dept est".split()
)
_ASCII_SPACE = " \t\n\r\v\f"
_ABBREV_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.")


def _ends_abbreviation(s: str, dot: int) -> bool:
    start = dot
    while start > 0 and s[start - 1] in _ABBREV_CHARS:
        start -= 1
    word = s[start:dot].strip(".").lower()
    return bool(word) and (len(word) == 1 or "." in word or word in ABBREVIATIONS)


def split_sentences(s: str) -> list[str]:
    """Split only at '.' + ASCII white space + an upper-case letter, never after an
    abbreviation or initial; segments are trimmed and keep their period."""
    out: list[str] = []
    start = 0
    dot = s.find(".")
    while dot != -1:
        j = dot + 1
        while j < len(s) and s[j] in _ASCII_SPACE:
            j += 1
        if j > dot + 1 and j < len(s) and unicodedata.category(s[j]) == "Lu" and not _ends_abbreviation(s, dot):
            out.append(s[start : dot + 1])
            start = dot + 1
        dot = s.find(".", dot + 1)
    out.append(s[start:])
    return [seg for seg in (trim_space(x) for x in out) if seg]


def cap_bytes(s: str, limit: int = LEAD_CAP_BYTES) -> str:
    """capRunes: at most ``limit`` UTF-8 bytes, cut back to a word boundary past the middle."""
    raw = s.encode("utf-8")
    if len(raw) <= limit:
        return s
    cut = raw[:limit].decode("utf-8", "ignore")  # drops a split trailing rune
    space = cut.encode("utf-8").rfind(b" ")
    if space > limit // 2:
        cut = cut.encode("utf-8")[:space].decode("utf-8")
    return cut.rstrip(" ")


def compress_description(s: str) -> str:
    s = trim_space(s)
    if len(s.encode("utf-8")) <= SMALL_DESCRIPTION_BYTES:
        return s
    kept: list[str] = []
    have_lead = False
    for sentence in split_sentences(s):
        if CONSTRAINT.search(sentence):
            kept.append(sentence)
        elif not have_lead:
            kept.append(cap_bytes(sentence))
            have_lead = True
    return " ".join(kept)


def compress_schema(v, in_user_keys: bool = False):
    if isinstance(v, list):
        return [compress_schema(x) for x in v]
    if not isinstance(v, dict):
        return v
    if in_user_keys:  # every key is a user-chosen name (a property called "title" survives)
        return {k: compress_schema(x) for k, x in v.items()}
    out = {}
    for k, x in v.items():
        if k in _DROPPED_SCHEMA_KEYS:
            continue
        if k == "description":
            out[k] = compress_description(x) if isinstance(x, str) else compress_schema(x)
        elif k in _VERBATIM_SCHEMA_KEYS:
            out[k] = x
        else:
            out[k] = compress_schema(x, k in _NAME_MAP_KEYS)
    return out


def compress_envelope(v):
    if isinstance(v, list):
        return [compress_envelope(x) for x in v]
    if not isinstance(v, dict):
        return v
    out = dict(v)
    for k, x in v.items():
        if k in _SCHEMA_KEYS:
            out[k] = compress_schema(x)
        elif k == "function":
            out[k] = compress_envelope(x)
        elif k == "description" and isinstance(x, str):
            out[k] = compress_description(x)
    return out


def compress_document(doc):
    if isinstance(doc, list):
        return [compress_envelope(x) for x in doc]
    if not isinstance(doc, dict):
        return doc
    if "tools" in doc:
        out = dict(doc)
        out["tools"] = compress_envelope(doc["tools"])
        return out
    if _ENVELOPE_MARKERS.intersection(doc):
        return compress_envelope(doc)
    return compress_schema(doc)


class ToolSchemaCompressor(Compressor):
    content_type = "toolschema"

    def compress(self, data: bytes) -> bytes | None:
        try:
            doc = loads_verbatim(go_text(data))
            return marshal(compress_document(doc)).encode("utf-8")
        except (ValueError, RecursionError):
            return None
