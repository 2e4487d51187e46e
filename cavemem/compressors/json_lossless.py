"""Lossless re-encodings of a JSON document for the json route's best-of (:mod:`.json_strategy`).

Both candidates show the model the *same JSON value*, only in fewer tokens:

- :func:`minify` — the document itself without insignificant whitespace. Everything else is the
  input's own text: key order, duplicate keys, number literals (``7.50``, ``1e9``) and string
  escapes stay exactly as written, except that Go-style HTML escapes (``\\u003c`` ``\\u003e``
  ``\\u0026``) become the characters they stand for.
- :func:`toon` — the caveman TOON dialect (:mod:`cavemem.toon`), with ``<`` ``>`` ``&`` written
  literally inside quoted strings, re-proven to decode back to the input's value.

Both refuse (return None) when they cannot promise that: invalid JSON, invalid UTF-8, an input
the TOON dialect cannot carry.
"""

from __future__ import annotations

import re

from ..gocompat import is_utf8, json_valid

# a JSON string (escapes included), or a run of anything that is neither a string nor whitespace
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[^" \t\n\r]+', re.DOTALL)
# a real \u003c / \u003e / \u0026 escape: preceded by an even number of backslashes (a run of
# backslashes is only entered at its start, so the scan stays linear on long runs)
_HTML_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u00(3[cCeE]|26)")
_HTML_CHAR = {"3c": "<", "3e": ">", "26": "&"}


def literal_html(text: str) -> str:
    """Replace the JSON escapes ``\\u003c`` ``\\u003e`` ``\\u0026`` by ``<`` ``>`` ``&``: inside a
    JSON (or quoted TOON) string both spell the same character."""
    if "\\u00" not in text:
        return text
    return _HTML_ESCAPE.sub(lambda m: m.group(1) + _HTML_CHAR[m.group(2).lower()], text)


def minify(data: bytes) -> bytes | None:
    """The document without insignificant whitespace, or None when it is not one valid UTF-8
    JSON value or has no whitespace to remove."""
    if not is_utf8(data) or not json_valid(data):
        return None
    out = b"".join(_TOKEN.findall(data))
    if b"\\u00" in out:
        out = literal_html(out.decode("utf-8")).encode("utf-8")
    return None if out == data else out


def toon(data: bytes) -> bytes | None:
    """Proven caveman-dialect TOON of ``data`` with literal ``<`` ``>`` ``&``, or None."""
    from ..toon import dialect
    from ..toon.codec import MAX_ENCODE_BYTES, MAX_PROVEN_DEPTH, ToonError, nesting_depth, prove_round_trip
    from ..toon.jsonvalue import JSONValueError, parse_json

    if len(data) > MAX_ENCODE_BYTES:
        return None
    try:
        value = parse_json(data)
        if nesting_depth(value) > MAX_PROVEN_DEPTH:
            return None
        text = literal_html(dialect.encode(value))
        prove_round_trip(value, text)  # the decoders must read the literal characters back
    except (JSONValueError, dialect.EncodeError, ToonError, RecursionError):
        return None
    return text.encode("utf-8")
