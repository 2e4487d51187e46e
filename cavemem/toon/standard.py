"""Standard TOON (spec v4, the official conformance fixtures) through the PyPI package
``python-toon`` (module ``toon``), plus the independent cross-check of the caveman dialect.

python-toon 0.2 passes all 516 official v4.0 fixtures (tests/test_toon_conformance.py), so it
is the reference reader here. What this wrapper adds, and why:

- **Numbers.** python-toon decodes to ``int``/``float`` and encodes floats canonically, while
  the JSON value model keeps literal text. :func:`encode` feeds it Python numbers and then
  *proves* the result decodes back to the same decimal values: a literal a double cannot carry
  (``1e400``, 30 significant digits) refuses to encode instead of silently changing.
- **Silent normalisation.** python-toon turns NaN/inf into ``null`` and raises plain
  ``ValueError``/``RecursionError``; all of that becomes :class:`StandardError`.
- **Dialect differences** (used by :func:`agrees_with_dialect`): the caveman dialect spells
  empty containers ``key: {}`` / ``key[0]: []`` / a root ``{}``, uses Go's ``\\b``/``\\f``
  escapes, and may start a table row with ``#`` (a comment line in standard TOON). The
  translation below rewrites exactly those spellings so python-toon can read the dialect.
"""

from __future__ import annotations

import re

from ..gocompat import Number
from .jsonvalue import map_scalars, same_value

DELIMITERS = {"comma": ",", "tab": "\t", "pipe": "|", ",": ",", "\t": "\t", "|": "|"}


class StandardError(ValueError):
    """python-toon refused the input, or its output did not survive the round trip."""


def _python_number(literal: str):
    """The number python-toon would hold for a JSON literal (int when integral text)."""
    if re.fullmatch(r"-?[0-9]+", literal):
        return int(literal)
    return float(literal)


def to_plain(value):
    """Replace :class:`Number` literals by the Python numbers python-toon works with."""
    return map_scalars(value, on_number=_python_number)


def decode(text: str | bytes, *, strict: bool = True, indent: int = 2):
    """Decode standard TOON with python-toon; raises :class:`StandardError`."""
    import toon

    try:
        return toon.decode(text, toon.DecodeOptions(indent=indent, strict=strict))
    except (ValueError, RecursionError) as exc:
        raise StandardError(str(exc) or "invalid TOON") from None


def decode_to_json(data: str | bytes, *, strict: bool = True, indent: int = 2) -> bytes:
    """Standard TOON -> compact JSON in *document* key order (what any TOON v4 reader returns;
    ``cavemem toon decode``'s default). An empty document is the empty object (spec root form)."""
    import json

    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        raise StandardError(f"not UTF-8 (byte {exc.start})") from None
    value = decode(text, strict=strict, indent=indent)
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    except ValueError:  # a number beyond float range decoded to inf
        raise StandardError("a number is outside the range JSON tools can read") from None
    except UnicodeEncodeError:
        raise StandardError("a string holds a lone surrogate escape") from None


def encode(value, *, delimiter: str = ",", indent: int = 2) -> str:
    """Encode a JSON value as standard TOON (input key order kept, numbers canonical), emitted
    only if python-toon decodes it back to the same value (numbers compared exactly)."""
    import toon

    if delimiter not in DELIMITERS:
        raise StandardError(f"unknown delimiter {delimiter!r}")
    try:
        text = toon.encode(to_plain(value), {"delimiter": DELIMITERS[delimiter], "indent": indent})
    except (ValueError, TypeError, RecursionError, OverflowError) as exc:
        raise StandardError(str(exc) or "python-toon cannot encode this value") from None
    back = decode(text, indent=indent)
    if not same_value(value, back):
        raise StandardError("python-toon output does not decode back to the same JSON value")
    return text


# ---------------------------------------------------------------------------------------------
# cross-check of the caveman dialect

_EMPTY_OBJECT_FIELD = re.compile(r"([A-Za-z_][A-Za-z0-9_.\-]*): \{\}", re.ASCII)
_EMPTY_ARRAY_FIELD = re.compile(r"([A-Za-z_][A-Za-z0-9_.\-]*)\[0\]: \[\]", re.ASCII)
_GO_ONLY_ESCAPES = {"b": "u0008", "f": "u000c", "/": "/"}


def _standard_escapes(content: str) -> str:
    """Rewrite Go-only escapes inside quoted cells (outside quotes a backslash is literal)."""
    out, in_quote, i, n = [], False, 0, len(content)
    while i < n:
        c = content[i]
        if in_quote and c == "\\" and i + 1 < n:
            nxt = content[i + 1]
            repl = _GO_ONLY_ESCAPES.get(nxt)
            if repl == "/":
                out.append("/")
            else:
                out.append("\\" + (repl or nxt))
            i += 2
            continue
        if c == '"':
            in_quote = not in_quote
        out.append(c)
        i += 1
    return "".join(out)


def dialect_to_standard(text: str) -> str:
    """Respell caveman-dialect TOON (encoder output) as standard TOON v4."""
    if text == "{}":
        return ""
    lines = []
    for line in text.split("\n"):
        content = line.lstrip(" ")
        indent = line[: len(line) - len(content)]
        m = _EMPTY_OBJECT_FIELD.fullmatch(content)
        if m:
            content = m.group(1) + ":"
        else:
            m = _EMPTY_ARRAY_FIELD.fullmatch(content)
            if m:
                content = m.group(1) + "[0]:"
        if content.startswith("#"):  # a raw first cell; standard TOON would read a comment
            first, sep, rest = content.partition(",")
            content = '"' + first.replace("\\", "\\\\") + '"' + sep + rest
        if "\\" in content and '"' in content:
            content = _standard_escapes(content)
        lines.append(indent + content)
    return "\n".join(lines)


def _agrees(model, plain) -> bool:
    """JSON-model value vs python-toon value: structure and strings exact, numbers compared
    in python-toon's own number domain (the dialect decoder already proved the literals)."""
    stack = [(model, plain)]
    while stack:
        m, p = stack.pop()
        if isinstance(m, Number):
            if isinstance(p, bool) or not isinstance(p, (int, float)) or _python_number(m) != p:
                return False
        elif isinstance(m, str):
            if not isinstance(p, str) or m != p:
                return False
        elif isinstance(m, dict):
            if not isinstance(p, dict) or len(m) != len(p) or any(k not in p for k in m):
                return False
            stack.extend((v, p[k]) for k, v in m.items())
        elif isinstance(m, list):
            if not isinstance(p, list) or len(m) != len(p):
                return False
            stack.extend(zip(m, p))
        elif m is not p:
            return False
    return True


def agrees_with_dialect(value, dialect_text: str) -> bool:
    """Does python-toon, reading the dialect output, see exactly ``value``?"""
    try:
        plain = decode(dialect_to_standard(dialect_text))
    except StandardError:
        return False
    return _agrees(value, plain)
