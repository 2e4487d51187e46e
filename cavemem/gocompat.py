"""Go-compatible primitives (spec engine-core §0, G1–G13; engine-compressors §0).

The reference engine is written in Go; its outputs depend on Go's notion of white space,
JSON validity and JSON/float formatting. These helpers reproduce those rules once so every
module agrees. Pure functions, stdlib only (imported on hot paths).
"""

from __future__ import annotations

import math
import re

# G1: unicode.IsSpace (bytes.TrimSpace / strings.TrimSpace / strings.Fields)
GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
_GO_SPACE_BYTES = b"\t\n\v\f\r "


def trim_space(s: str) -> str:
    """strings.TrimSpace."""
    return s.strip(GO_SPACE)


_NOT_GO_SPACE = re.compile("[^" + re.escape(GO_SPACE) + "]")


def is_blank(s: str) -> bool:
    """``trim_space(s) == ""`` without building the trimmed copy (for a 64 MiB payload with one
    emoji that copy alone is 256 MB)."""
    return _NOT_GO_SPACE.search(s) is None


def trim_space_bytes(b: bytes) -> bytes:
    """bytes.TrimSpace for input that may hold non-ASCII spaces (U+0085, U+00A0, ...)."""
    b = b.strip(_GO_SPACE_BYTES)
    if not b or (b[0] < 0x80 and b[-1] < 0x80):
        return b
    return go_text_preserving(b).strip(GO_SPACE).encode("utf-8", "surrogateescape")


def go_lower(s: str) -> str:
    """strings.ToLower (G20): simple per-rune lowercasing. Python's ``str.lower`` differs only for
    U+0130 (full mapping gives two runes; Go gives ``i``) and for the final-sigma context rule."""
    if s.isascii():
        return s.lower()
    if "\u0130" not in s and "\u03a3" not in s:
        return s.lower()
    return "".join("i" if c == "\u0130" else c.lower() for c in s)


def fields(s: str) -> list[str]:
    """strings.Fields: split on runs of Go white space."""
    return [f for f in _rx("fields").split(s) if f]


def char_runs(s: str, keep) -> list[str]:
    """The maximal runs of characters of ``s`` for which ``keep(c)`` holds, in order
    (strings.FieldsFunc with the test inverted)."""
    out: list[str] = []
    cur: list[str] = []
    for c in s:
        if keep(c):
            cur.append(c)
        elif cur:
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return out


# Regexes are compiled on first use: this module sits on the hot CLI path.
_PATTERNS = {
    "fields": "[" + re.escape(GO_SPACE) + "]+",
    "escape": '["\\\\\x00-\x1f<>&\u2028\u2029\ud800-\udfff]',
    "escape_no_html": '["\\\\\x00-\x1f\u2028\u2029\ud800-\udfff]',
}
_COMPILED: dict[str, re.Pattern] = {}


def _rx(name: str) -> re.Pattern:
    pat = _COMPILED.get(name)
    if pat is None:
        pat = _COMPILED[name] = re.compile(_PATTERNS[name], re.ASCII if name.startswith(("dec", "hex")) else 0)
    return pat


# G8: converting bytes to text turns each invalid byte into one U+FFFD.
_SURROGATE_TO_FFFD = {c: 0xFFFD for c in range(0xDC80, 0xDD00)}


def go_text(data: bytes) -> str:
    """Decode like Go's []byte -> []rune: every invalid byte becomes one U+FFFD."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape").translate(_SURROGATE_TO_FFFD)


def go_text_preserving(data: bytes) -> str:
    """Decode keeping invalid bytes as lone surrogates, so ``.encode(..., 'surrogateescape')``
    gives the original bytes back. Use when text must be sliced and re-emitted byte-exactly."""
    return data.decode("utf-8", "surrogateescape")


def utf8_text(data: bytes) -> str | None:
    """``data`` as text when it is valid UTF-8, else None: one decode serves the check and the
    text (the compressors pass invalid UTF-8 through untouched)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def is_utf8(data: bytes) -> bool:
    return utf8_text(data) is not None


# ---------------------------------------------------------------------------------------------
# JSON (G4, G5, G9, G13, G14)


class Number(str):
    """A JSON number kept as its literal text (Go's json.Number / UseNumber)."""

    __slots__ = ()


def _raise_constant(name: str):
    raise ValueError(f"invalid JSON constant {name}")


NESTING = 1000  # levels a document may nest beyond wherever the caller stands


def loads_verbatim(text: str):
    """Parse one JSON value keeping numbers as :class:`Number` literals.

    Raises ValueError (including for NaN/Infinity and nesting too deep for Python)."""
    import json

    def parse():
        return json.loads(text, parse_float=Number, parse_int=Number, parse_constant=_raise_constant)

    try:
        return parse()
    except RecursionError:
        pass
    # How deep a document may nest must not depend on how deep the caller's stack already is (a
    # test runner's worker, a framework's handler): one retry with room for NESTING more levels.
    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + NESTING)
    try:
        return parse()
    except RecursionError as exc:  # deeper than Python can follow: not JSON for us
        raise ValueError("JSON nested too deeply") from exc
    finally:
        sys.setrecursionlimit(limit)


def json_valid(data: bytes) -> bool:
    """G4 json.Valid: exactly one value, whitespace around it allowed, raw invalid UTF-8 inside
    strings accepted, NaN/Infinity/comments/trailing commas rejected."""
    if not data:
        return False
    import json

    # C builtins stand in for the values (objects -> their member count, numbers -> True): the
    # grammar checked is the same, but a 64 MiB document is never held as a tree (issue 9)
    try:
        json.loads(go_text_preserving(data), object_pairs_hook=len, parse_int=bool, parse_float=bool, parse_constant=_raise_constant)
        return True
    except (ValueError, RecursionError):
        return False


_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}
for _c in range(0x20):
    _ESCAPES.setdefault(chr(_c), "\\u%04x" % _c)


def _escape_char(m: re.Match) -> str:
    c = m.group(0)
    if "\ud800" <= c <= "\udfff":
        return "\ufffd"  # invalid UTF-8 (surrogate-escaped byte) becomes U+FFFD
    return _ESCAPES[c]


def go_quote(s: str, html_escape: bool = True) -> str:
    """Encode a string the way encoding/json does (G5)."""
    if html_escape:
        return '"' + _rx("escape").sub(_escape_char, s) + '"'
    return '"' + _rx("escape_no_html").sub(_escape_char, s) + '"'


def format_float(x: float) -> str:
    """G6: Go's JSON float formatting (shortest digits; positional in [1e-6, 1e21))."""
    if x != x or x in (math.inf, -math.inf):
        raise ValueError("unsupported float")
    if x == 0:
        return "-0" if math.copysign(1, x) < 0 else "0"
    ax = abs(x)
    r = repr(x)
    if 1e-6 <= ax < 1e21:
        if "e" in r or "E" in r:
            from decimal import Decimal

            r = format(Decimal(r), "f")
        if "." in r:
            r = r.rstrip("0").rstrip(".")
        return r
    mant, _, exp = r.partition("e")
    if not exp:  # repr gave positional although Go wants an exponent (e.g. 1e21 -> '1e+21')
        from decimal import Decimal

        mant, _, exp = format(Decimal(r), "e").partition("e")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    sign = "-" if exp.startswith("-") else "+"
    digits = exp.lstrip("+-").lstrip("0") or "0"
    if sign == "+" and len(digits) < 2:  # Go keeps two exponent digits, but writes e-7 not e-07
        digits = "0" + digits
    return f"{mant}e{sign}{digits}"


def json_literal(v) -> str | None:
    """The JSON text of a scalar that is not a string — ``null``, ``true``, ``false``, an int, a
    float per :func:`format_float` (ValueError for NaN and ±Inf) — or None for anything else.
    Shared by :func:`marshal` and the TOON encoder, which spell strings and numbers their own way."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return format_float(v)
    return None


def marshal(value, *, indent: str | None = None, sort_keys: bool = True, html_escape: bool = True) -> str:
    """json.Marshal / Encoder.SetIndent for decoded values (G5, G7, G14).

    Dict keys are sorted by their UTF-8 bytes, :class:`Number` is written verbatim, floats use
    :func:`format_float`. Iterative, so deep values cannot overflow the C stack."""
    out: list[str] = []
    # stack of (kind, iterator, depth, first) frames; values are emitted as we go
    q = lambda s: go_quote(s, html_escape)  # noqa: E731

    def scalar(v) -> str | None:
        if isinstance(v, Number):
            return str(v)
        if isinstance(v, str):
            return q(v)
        return json_literal(v)

    sep = "," if indent is None else ","
    colon = ":" if indent is None else ": "
    stack: list = []

    def open_container(v, depth):
        if isinstance(v, dict):
            if not v:
                out.append("{}")
                return
            keys = sorted(v, key=lambda k: k.encode("utf-8", "surrogatepass")) if sort_keys else list(v)
            out.append("{")
            stack.append(("o", iter([(k, v[k]) for k in keys]), depth, True, "}"))
        elif isinstance(v, (list, tuple)):
            if not v:
                out.append("[]")
                return
            out.append("[")
            stack.append(("a", iter(v), depth, True, "]"))
        else:
            raise TypeError(f"cannot marshal {type(v).__name__}")

    s = scalar(value)
    if s is not None:
        return s
    open_container(value, 0)
    while stack:
        kind, it, depth, first, closer = stack[-1]
        try:
            item = next(it)
        except StopIteration:
            stack.pop()
            if indent is not None:
                out.append("\n" + indent * depth)
            out.append(closer)
            continue
        if not first:
            out.append(sep)
        stack[-1] = (kind, it, depth, False, closer)
        if indent is not None:
            out.append("\n" + indent * (depth + 1))
        if kind == "o":
            k, v = item
            out.append(q(k) + colon)
        else:
            v = item
        s = scalar(v)
        if s is not None:
            out.append(s)
        else:
            open_container(v, depth + 1)
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# G12: strconv.ParseFloat grammar

_PATTERNS["dec_float"] = r"[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?"
_PATTERNS["dec_float_plain"] = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"  # the same grammar without '_': linear
_PATTERNS["hex_float"] = r"[+-]?0[xX](?:[0-9a-fA-F](?:_?[0-9a-fA-F])*(?:\.[0-9a-fA-F]*)?|\.[0-9a-fA-F]+)[pP][+-]?\d+"
_SPECIAL = {"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity", "nan", "+nan", "-nan"}


def parse_float(s: str) -> float | None:
    """strconv.ParseFloat(s, 64): the value, or None when Go would return an error."""
    if not s:
        return None
    low = s.lower()
    if low in _SPECIAL:
        return float(low.replace("infinity", "inf"))
    if _rx("dec_float_plain" if "_" not in s else "dec_float").fullmatch(s):
        v = float(s.replace("_", ""))
        if v in (math.inf, -math.inf):
            return None  # out of range is an error in Go
        return v
    if _rx("hex_float").fullmatch(s):
        t = s.replace("_", "")
        sign = -1.0 if t.startswith("-") else 1.0
        t = t.lstrip("+-")
        try:
            v = float.fromhex(t)
        except (ValueError, OverflowError):
            return None
        return sign * v
    return None

